// The status page's counts cache (LibraryServiceDeps.settings.statsMaxAgeMs): concurrent polls share one
// computation, counts are reused only for the set age, and a source switch in this process drops them. And
// the status page's polls, which ask the database for a rescan only when it could say yes.
import { describe, expect, it } from 'vitest';
import { createLibraryService } from './library.service.ts';

function harness(maxAge: number) {
  let clock = 1_000_000;
  let known = 10;
  // The database's answer to a rescan request: yes when the last one is at least statusRescanMinMs old.
  let lastRescan = -Infinity;
  let failing = false;
  const rescans = { asked: 0, granted: 0 };
  const calls = { members: 0, catalogs: 0, summary: 0 };
  const row = {
    id: 1,
    kind: 'liked_songs',
    sourceId: 'liked',
    enabled: true,
    readable: true,
  };
  const service = createLibraryService({
    repo: {
      listSources: async () => [row],
      getSource: async () => row,
      setEnabled: async (_u: string, _k: string, _s: string, enabled: boolean) =>
        void (row.enabled = enabled),
      requestRescan: async (_u: string, minMs: number) => {
        rescans.asked++;
        if (clock - lastRescan < minMs) return false;
        lastRescan = clock;
        rescans.granted++;
        return true;
      },
    } as never,
    stats: {
      memberCounts: async () => (calls.members++, new Map()),
      catalogCounts: async () => (calls.catalogs++, new Map()),
      summary: async () => {
        calls.summary++;
        if (failing) throw new Error('database gone');
        return { knownTracks: known, tracksWithTempo: 0 };
      },
    },
    wake: async () => {},
    settings: { rescanIntervalMs: 1, statusRescanMinMs: 5 * 60_000, statsMaxAgeMs: maxAge },
    now: () => clock,
  });
  return {
    service,
    calls,
    rescans,
    rescanAskedElsewhere: () => void (lastRescan = clock),
    setKnown: (n: number) => void (known = n),
    failSummary: (on: boolean) => void (failing = on),
    tick: (ms: number) => void (clock += ms),
  };
}

const read = (s: ReturnType<typeof harness>['service']) =>
  s.sources('u1', { timeZone: null }).then((d) => d.summary.tracks_known);

describe('status-page counts cache', () => {
  it('shares one computation between concurrent and recent reads, and recounts after the age', async () => {
    const h = harness(2_000);
    expect(await Promise.all([read(h.service), read(h.service), read(h.service)])).toEqual([10, 10, 10]);
    expect(h.calls).toEqual({ members: 1, catalogs: 1, summary: 1 });
    h.setKnown(11);
    h.tick(1_999);
    expect(await read(h.service)).toBe(10);
    h.tick(1);
    // Aged: these reads answer at once with the last counts, and start one recount between them.
    expect(await Promise.all([read(h.service), read(h.service)])).toEqual([10, 10]);
    expect(h.calls.summary).toBe(2);
    await new Promise((r) => setImmediate(r));
    expect(await read(h.service)).toBe(11);
    expect(h.calls.summary).toBe(2);
  });

  it('a read long after the last (a status page polls every 15 s) waits for new counts, not the last poll’s', async () => {
    const h = harness(2_000);
    expect(await read(h.service)).toBe(10);
    h.setKnown(40);
    h.tick(15_000);
    expect(await read(h.service)).toBe(40);
    expect(h.calls.summary).toBe(2);
    h.setKnown(41);
    h.tick(3_999); // under twice the age: the last counts, and a recount behind them
    expect(await read(h.service)).toBe(40);
    await new Promise((r) => setImmediate(r));
    expect(await read(h.service)).toBe(41);
  });

  it('a failed recount leaves the last counts, and the next aged read tries again', async () => {
    const h = harness(2_000);
    expect(await read(h.service)).toBe(10);
    h.failSummary(true);
    h.setKnown(12);
    h.tick(2_000);
    expect(await read(h.service)).toBe(10);
    await new Promise((r) => setImmediate(r));
    h.failSummary(false);
    expect(await read(h.service)).toBe(10); // the last counts, while the retry runs
    await new Promise((r) => setImmediate(r));
    expect(await read(h.service)).toBe(12);
  });

  it('a source switch drops the user’s counts at once', async () => {
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

  it('0 computes on every read', async () => {
    const h = harness(0);
    await read(h.service);
    await read(h.service);
    expect(h.calls.summary).toBe(2);
  });
});

describe('status page polls', () => {
  it('ask the database only when it could grant a rescan, and come at most a minute late', async () => {
    const h = harness(0);
    await h.service.statusPagePolled('u1'); // granted
    expect(h.rescans).toEqual({ asked: 1, granted: 1 });
    for (let i = 0; i < 19; i++) {
      h.tick(15_000); // a poll every 15 s, for 4 min 45 s: no database round trip
      await h.service.statusPagePolled('u1');
    }
    expect(h.rescans).toEqual({ asked: 1, granted: 1 });
    h.tick(15_000); // 5 minutes after the rescan: asked, granted
    await h.service.statusPagePolled('u1');
    expect(h.rescans).toEqual({ asked: 2, granted: 2 });

    // Another process (or the schedule) asked a moment ago: refused, then left alone for a minute.
    h.tick(5 * 60_000);
    h.rescanAskedElsewhere();
    h.tick(10_000);
    await h.service.statusPagePolled('u1');
    expect(h.rescans).toEqual({ asked: 3, granted: 2 });
    h.tick(59_000);
    await h.service.statusPagePolled('u1');
    expect(h.rescans.asked).toBe(3);
    h.tick(1_000);
    await h.service.statusPagePolled('u1');
    expect(h.rescans.asked).toBe(4);
    // The direct call (a test, a tool) always asks.
    await h.service.statusPageOpened('u1');
    expect(h.rescans.asked).toBe(5);
  });
});
