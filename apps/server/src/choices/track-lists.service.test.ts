// The Waiting and Skipped lists are computed over the whole library: one user's burst of reads must not run
// side by side, and a read never gets a list computed before it arrived.
import { describe, expect, it } from 'vitest';
import type { MatchCandidate } from '../playlists/candidates.ts';
import { candidate } from '../playlists/candidates.test-helper.ts';
import type { CachedTempo } from '../tempo/tempo.repository.ts';
import { SongSet } from '../playlists/song-identity.ts';
import { createTrackListsService } from './track-lists.service.ts';
import type { TargetOfUser } from './track-lists.repository.ts';

const target: TargetOfUser = {
  id: 't1',
  name: 'Pacebeat 170–180 BPM',
  minBpm: 170,
  maxBpm: 180,
  publicUrl: null,
  state: 'active',
  noExplicit: false,
  minDurationMs: null,
  maxDurationMs: null,
  metersIncluded: [],
  likedOnly: false,
};

function service() {
  let running = 0;
  const seen = { loads: 0, most: 0 };
  let library: MatchCandidate[] = [];
  const svc = createTrackListsService({
    lists: {
      targetOf: async (_u, id) => (id === 't1' || id === 't2' ? { ...target, id } : undefined),
      placedPage: async () => ({ rows: [], total: 0 }),
      tracks: async () => new Map(),
      artistNames: async () => new Map(),
    },
    listMatchCandidates: async () => {
      seen.loads++;
      seen.most = Math.max(seen.most, ++running);
      const snapshot = library;
      await new Promise((r) => setTimeout(r, 10));
      running--;
      return snapshot;
    },
    // No source knows any of their tempos: every track is skipped as unknown, none waits.
    tempos: {
      getByKeys: async (keys) =>
        new Map(keys.map((k) => [k, { bpm: null, confidence: 0, source: null } as unknown as CachedTempo])),
    },
    placedSongs: async () => new Map([['t1', new SongSet()]]),
    runnerChoices: async () => ({
      corrections: new Map(),
      meterCorrections: new Map(),
      excludedRecordings: new Set(),
      excludedArtists: new Set(),
    }),
  });
  const song = (n: number) => candidate(n, { recordingKey: `spotify:track${n}` });
  return { svc, seen, setLibrary: (n: number) => (library = Array.from({ length: n }, (_, i) => song(i))) };
}

const q = (list: 'waiting' | 'skipped', offset = 0) => ({ list, offset, limit: 25 });

describe('Waiting and Skipped under a burst of reads', () => {
  it('eight reads in flight: one computation at a time, and reads of the same list share one', async () => {
    const { svc, seen, setLibrary } = service();
    setLibrary(30);
    const lists = Array.from({ length: 8 }, (_, i): 'skipped' | 'waiting' =>
      i % 4 < 2 ? 'skipped' : 'waiting',
    );
    const replies = await Promise.all(
      lists.map((list, i) => svc.targetTracks('u1', i % 2 ? 't2' : 't1', q(list, i % 3))),
    );
    expect(replies.map((r) => r.total)).toEqual(lists.map((l) => (l === 'skipped' ? 30 : 0)));
    expect(seen.most).toBe(1);
    expect(seen.loads).toBe(4); // four lists (two targets × two lists), not eight reads
  });

  it('a read never gets a list computed before it arrived', async () => {
    const { svc, setLibrary } = service();
    setLibrary(5);
    const first = svc.targetTracks('u1', 't1', q('skipped'));
    await new Promise((r) => setTimeout(r, 2)); // the first computation runs, over five tracks
    setLibrary(7); // the runner's library changes
    const second = svc.targetTracks('u1', 't1', q('skipped'));
    expect((await first).total).toBe(5);
    expect((await second).total).toBe(7);
  });

  it('another user’s target still answers 404 without queueing anything', async () => {
    const { svc, seen } = service();
    await expect(svc.targetTracks('u1', 'nope', q('waiting'))).rejects.toMatchObject({ statusCode: 404 });
    expect(seen.loads).toBe(0);
  });
});
