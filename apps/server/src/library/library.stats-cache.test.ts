// The status page's counts cache (LibraryServiceDeps.settings.statsMaxAgeMs): concurrent polls share one
// computation, counts are reused only for the set age, and a source switch in this process drops them.
import { describe, expect, it } from 'vitest';
import { createLibraryService } from './library.service.ts';

function harness(maxAge: number) {
  let clock = 1_000_000;
  let known = 10;
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
    } as never,
    stats: {
      memberCounts: async () => (calls.members++, new Map()),
      catalogCounts: async () => (calls.catalogs++, new Map()),
      summary: async () => (calls.summary++, { knownTracks: known, tracksWithTempo: 0 }),
    },
    wake: async () => {},
    settings: { rescanIntervalMs: 1, statusRescanMinMs: 1, statsMaxAgeMs: maxAge },
    now: () => clock,
  });
  return {
    service,
    calls,
    setKnown: (n: number) => void (known = n),
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
    expect(await read(h.service)).toBe(11);
    expect(h.calls.summary).toBe(2);
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
