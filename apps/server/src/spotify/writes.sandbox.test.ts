// Playlist writes whose answer is lost after Spotify applied them (the simulated Spotify's after-apply
// faults): the client makes one attempt and reports the unclear end, so nothing lands twice; the playlist
// writer (src/playlists/) then reads the playlist back before it adds again.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FaultRule } from '@pacebeat/sandbox';
import { startHarness, type Harness } from './sandbox-harness.test-helper.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const ctx = (userId: string) => ({ userId, purpose: 'test', priority: 'playlist_write' as const });

describe('playlist adds that landed but whose answer failed', () => {
  const cases: Array<[string, FaultRule]> = [
    ['a 500 after the add', { kind: 'status', status: 500, afterApply: true }],
    ['a reset after the add', { kind: 'reset', afterApply: true }],
    ['an answer after the client gave up', { kind: 'slow', delayMs: 1500, afterApply: true }],
  ];
  for (const [name, fault] of cases) {
    it(`${name}: the client does not repeat the add, and says its outcome is unclear`, async () => {
      const p = h.process({ settings: { SPOTIFY_TIMEOUT_SECONDS: 1 } });
      const userId = await h.newUser();
      const spotifyUser = h.sandbox.admin.createUser({ username: `w${randomUUID().slice(0, 8)}` });
      const t = h.sandbox.admin.connect({ userId: spotifyUser.id });
      await p.connect.connect(userId, { ...t, refresh_token: t.refresh_token! });
      const pl = h.sandbox.admin.createPlaylist(spotifyUser.id, { name: 'Target 150-160' });
      const ids = h.sandbox.world.user('ana.runs')!.liked.slice(0, 3);
      const uris = ids.map((l) => `spotify:track:${h.sandbox.world.trackId(l.g)}`);
      h.sandbox.admin.setFaults([
        { ...fault, service: 'spotify-api', method: 'POST', path: `/playlists/${pl.id}/items`, times: 1 },
      ]);
      try {
        await expect(p.api(ctx(userId)).addTracks(pl.id, uris)).rejects.toThrow();
      } finally {
        h.sandbox.admin.setFaults([]);
      }
      await new Promise((r) => setTimeout(r, 700)); // past a held-back answer
      expect(h.sandbox.admin.playlistItems(pl.id).map((id) => `spotify:track:${id}`)).toEqual(uris);
      const adds = h.sandbox.admin
        .requests({ service: 'spotify-api' })
        .filter((r) => r.method === 'POST' && r.url.includes(pl.id));
      expect(adds).toHaveLength(1);
      expect(adds[0]?.fault).toMatch(/after apply$/);
    });
  }
});
