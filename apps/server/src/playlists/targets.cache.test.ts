// GET targets with the per-process cache: one read per user until the writer, an edit or another process
// changes that user's targets (NOTIFY `targets:<userId>`), never another user's rows.
import { describe, expect, it } from 'vitest';
import { fakeFeed } from '../cache/fake-feed.test-helper.ts';
import { createLiveCache } from '../cache/live-cache.ts';
import {
  createPlaylistsService,
  type PlaylistsServiceDeps,
  type TargetsWithStats,
} from './playlists.service.ts';

function setup() {
  const feed = fakeFeed();
  const names = new Map<string, string>([
    ['u1', 'Easy'],
    ['u2', 'Tempo'],
  ]);
  let reads = 0;
  const repo = {
    listTargetsWithStats: async (userId: string) => {
      reads++;
      return [
        {
          target: {
            id: `t-${userId}`,
            name: names.get(userId)!,
            minBpm: 150,
            maxBpm: 160,
            state: 'pending',
            lastJobFinishedAt: null,
            minDurationMs: null,
            maxDurationMs: null,
            fullAt: null,
            writeRefusedAt: null,
          },
          stats: { tracksAdded: 0, tracksAdded7Days: 0 },
        },
      ] as unknown as TargetsWithStats;
    },
  } as unknown as PlaylistsServiceDeps['repo'];
  const cache = createLiveCache<TargetsWithStats>({ feed, maxAgeMs: 5000 });
  const service = createPlaylistsService({ repo, cache });
  const nameOf = async (userId: string) => (await service.targets(userId, null))[0]!.target;
  return { feed, names, nameOf, reads: () => reads };
}

describe('targets cache', () => {
  it("answers from the cache until the user's targets change, per user", async () => {
    const s = setup();
    expect(await s.nameOf('u1')).toBe('Easy');
    expect(await s.nameOf('u2')).toBe('Tempo');
    s.names.set('u1', 'Easy run');
    expect(await s.nameOf('u1')).toBe('Easy');
    expect(s.reads()).toBe(2);
    s.feed.notify('targets:u1');
    expect(await s.nameOf('u1')).toBe('Easy run');
    expect(await s.nameOf('u2')).toBe('Tempo');
    expect(s.reads()).toBe(3);
  });
});
