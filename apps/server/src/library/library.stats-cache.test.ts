// The status page's counts, stored per user (library_source_counts): the first reads share one count, later
// reads read the stored counts, a change is recounted once per debounce, and a change left uncounted or
// counts too old are recounted behind a read. And the status page's polls, which ask the database for a
// rescan only when it could say yes.
import { describe, expect, it, vi } from 'vitest';
import {
  COUNTS_MAX_AGE_MS,
  COUNTS_PENDING_MAX_MS,
  createLibraryService,
  STATUS_NEW_VISIT_GAP_MS,
  STATUS_OPEN_RESCAN_MS,
} from './library.service.ts';
import type { Counts } from './source-stats.repository.ts';

function harness(debounceMs = 3_000) {
  let clock = 1_000_000;
  let known = 10;
  // The database's answer to a rescan request: yes when the last one is at least statusRescanMinMs old.
  let lastRescan = -Infinity;
  let failing = false;
  const rescans = { asked: 0, granted: 0 };
  /** How long ago each ask wants the library's last read to have ended (undefined: not asked). */
  const unreadFor: Array<number | undefined> = [];
  const calls = { recounts: 0, reads: 0 };
  const row = {
    id: 1,
    kind: 'liked_songs',
    sourceId: 'liked',
    enabled: true,
    readable: true,
  };
  // library_source_counts as the repository keeps it (times on this clock).
  let stored:
    { at: number; counts: Counts; changedAt: number | null; pendingSince: number | null } | undefined;
  const counts = (): Counts => ({
    members: new Map(),
    catalogs: new Map(),
    summary: { knownTracks: known, tracksWithTempo: 0 },
  });
  const service = createLibraryService({
    repo: {
      listSources: async () => [row],
      getSource: async () => row,
      setEnabled: async (_u: string, _k: string, _s: string, enabled: boolean) =>
        void (row.enabled = enabled),
      requestRescan: async (_u: string, minMs: number, o?: { unreadForMs?: number }) => {
        rescans.asked++;
        unreadFor.push(o?.unreadForMs);
        if (clock - lastRescan < minMs) return false;
        lastRescan = clock;
        rescans.granted++;
        return true;
      },
    } as never,
    stats: {
      recount: async () => {
        calls.recounts++;
        const at = clock;
        await new Promise((r) => setImmediate(r)); // the aggregates take a while
        if (failing) throw new Error('database gone');
        const c = counts();
        const covered = stored?.changedAt == null || stored.changedAt <= at;
        stored = {
          at,
          counts: c,
          changedAt: covered ? null : stored!.changedAt,
          pendingSince: covered ? null : at,
        };
        return c;
      },
      stored: async (_u: string, knownAt?: string) => {
        calls.reads++;
        if (!stored) return undefined;
        return {
          at: String(stored.at),
          ...(knownAt === String(stored.at) ? {} : { counts: stored.counts }),
          ageMs: clock - stored.at,
          pendingMs: stored.pendingSince === null ? null : clock - stored.pendingSince,
        };
      },
      markChanged: async () => {
        if (!stored) return false;
        stored.changedAt = clock;
        stored.pendingSince ??= clock;
        return true;
      },
    },
    wake: async () => {},
    settings: { rescanIntervalMs: 1, statusRescanMinMs: 5 * 60_000, countsDebounceMs: debounceMs },
    now: () => clock,
  });
  return {
    service,
    calls,
    rescans,
    unreadFor,
    rescanAskedElsewhere: () => void (lastRescan = clock),
    setKnown: (n: number) => void (known = n),
    failRecount: (on: boolean) => void (failing = on),
    tick: (ms: number) => void (clock += ms),
  };
}

const read = (s: ReturnType<typeof harness>['service']) =>
  s.sources('u1', { timeZone: null }).then((d) => d.summary.tracks_known);
const settle = () => new Promise((r) => setTimeout(r, 20));

describe('status-page counts, stored per user', () => {
  it('the first reads share one count; later reads read the stored counts, however far apart', async () => {
    const h = harness();
    expect(await Promise.all([read(h.service), read(h.service), read(h.service)])).toEqual([10, 10, 10]);
    expect(h.calls.recounts).toBe(1);
    h.setKnown(11); // a change nobody announced: not counted yet
    for (let i = 0; i < 10; i++) {
      h.tick(15_000); // a status page polling every 15 s
      expect(await read(h.service)).toBe(10);
    }
    expect(h.calls.recounts).toBe(1);
  });

  it('a change is recounted once after the debounce, however many come in it', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const h = harness(3_000);
      expect(await read(h.service)).toBe(10);
      h.setKnown(12);
      for (let i = 0; i < 5; i++) await h.service.countsChanged('u1');
      expect(await read(h.service)).toBe(10); // before the debounce: the stored counts
      expect(h.calls.recounts).toBe(1);
      h.tick(3_000);
      await vi.advanceTimersByTimeAsync(3_000);
      vi.useRealTimers();
      await settle();
      expect(h.calls.recounts).toBe(2);
      expect(await read(h.service)).toBe(12);
    } finally {
      vi.useRealTimers();
    }
  });

  it('a user never counted is not counted on a change (the first read counts)', async () => {
    const h = harness(0);
    await h.service.countsChanged('u1');
    expect(h.calls.recounts).toBe(0);
    expect(await read(h.service)).toBe(10);
    expect(h.calls.recounts).toBe(1);
  });

  it('a change left uncounted (its process stopped), or counts too old, are recounted behind a read', async () => {
    const h = harness(60 * 60_000); // the writer's recount never comes
    expect(await read(h.service)).toBe(10);
    h.setKnown(13);
    await h.service.countsChanged('u1');
    h.tick(COUNTS_PENDING_MAX_MS);
    expect(await read(h.service)).toBe(10);
    expect(h.calls.recounts).toBe(1);
    h.tick(1);
    expect(await read(h.service)).toBe(10); // answered at once, the recount behind it
    await settle();
    expect(h.calls.recounts).toBe(2);
    expect(await read(h.service)).toBe(13);

    h.setKnown(14);
    h.tick(COUNTS_MAX_AGE_MS + 1);
    expect(await read(h.service)).toBe(13);
    await settle();
    expect(await read(h.service)).toBe(14);
    expect(h.calls.recounts).toBe(3);
  });

  it('a failed recount leaves the stored counts and the mark, and a later read tries again', async () => {
    const h = harness(0);
    expect(await read(h.service)).toBe(10);
    h.failRecount(true);
    h.setKnown(12);
    await expect(h.service.countsChanged('u1')).rejects.toThrow('database gone');
    expect(await read(h.service)).toBe(10);
    h.failRecount(false);
    h.tick(COUNTS_PENDING_MAX_MS + 1);
    expect(await read(h.service)).toBe(10);
    await settle();
    expect(await read(h.service)).toBe(12);
  });

  it('a source switch recounts at once', async () => {
    const h = harness(60_000);
    expect(await read(h.service)).toBe(10);
    h.setKnown(3);
    await h.service.changeSource(
      'u1',
      { kind: 'liked_songs', source_id: 'liked', enabled: false },
      { timeZone: null },
    );
    expect(await read(h.service)).toBe(3);
  });
});

describe('status page polls', () => {
  it('ask for a rescan when the runner comes to look, and while the page stays open only every 30 minutes', async () => {
    const h = harness();
    await h.service.statusPagePolled('u1'); // the page opened: granted
    expect(h.rescans).toEqual({ asked: 1, granted: 1 });
    for (let i = 0; i < 119; i++) {
      h.tick(15_000); // a poll every 15 s, for 29 min 45 s: no rescan, no database round trip
      await h.service.statusPagePolled('u1');
    }
    expect(h.rescans).toEqual({ asked: 1, granted: 1 });
    h.tick(15_000); // 30 minutes after the rescan: asked, granted
    await h.service.statusPagePolled('u1');
    expect(h.rescans).toEqual({ asked: 2, granted: 2 });
    // A visit asks for none of a library read in the last 5 minutes, an open page of one read in 30.
    expect(h.unreadFor).toEqual([5 * 60_000, STATUS_OPEN_RESCAN_MS]);

    // The page closed for 10 minutes and opened again: a new visit asks at once.
    h.tick(STATUS_NEW_VISIT_GAP_MS);
    await h.service.statusPagePolled('u1');
    expect(h.rescans).toEqual({ asked: 3, granted: 3 });
    // ...within the database's 5 minutes between rescans: a visit 10 minutes later, another process (or
    // the schedule) having asked a moment ago, is refused, then left alone for a minute.
    h.tick(STATUS_NEW_VISIT_GAP_MS);
    h.rescanAskedElsewhere();
    h.tick(10_000);
    await h.service.statusPagePolled('u1');
    expect(h.rescans).toEqual({ asked: 4, granted: 3 });
    h.tick(59_000);
    await h.service.statusPagePolled('u1');
    expect(h.rescans.asked).toBe(4);
    h.tick(1_000);
    await h.service.statusPagePolled('u1');
    expect(h.rescans.asked).toBe(5);
    // The direct call (a test, a tool) always asks.
    await h.service.statusPageOpened('u1');
    expect(h.rescans.asked).toBe(6);
  });

  it('a page left open 8 hours asks for 16 rescans, not 96', async () => {
    const h = harness();
    for (let t = 0; t < 8 * 60 * 60_000; t += 15_000) {
      await h.service.statusPagePolled('u1');
      h.tick(15_000);
    }
    expect(h.rescans.granted).toBe((8 * 60) / (STATUS_OPEN_RESCAN_MS / 60_000));
  });
});
