// Reading a playlist that holds podcast episodes among its songs: the episodes are left out of the
// playlist's tracks, in both app modes.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './sandbox-harness.test-helper.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

describe('playlist items', () => {
  it('leaves out podcast episodes, in development mode and with extended quota', async () => {
    const p = h.process();
    const userId = await h.newUser();
    const su = h.sandbox.admin.createUser({ username: `e${randomUUID().slice(0, 8)}` });
    const t = h.sandbox.admin.connect({ userId: su.id });
    await p.connect.connect(userId, { ...t, refresh_token: t.refresh_token! });
    // Ana's playlists hold songs and podcast episodes: copy them (local files cannot be added).
    const ana = h.sandbox.admin.user('ana.runs');
    const uris = ana.playlists
      .filter((pl) => pl.owner === 'ana.runs')
      .flatMap((pl) => h.sandbox.admin.playlistUris(pl.id))
      .filter((u): u is string => u !== null && !u.startsWith('spotify:local:'));
    expect(uris.some((u) => u.startsWith('spotify:episode:'))).toBe(true);
    const pl = h.sandbox.admin.createPlaylist(su.id, { name: 'Mixed' });
    for (let i = 0; i < uris.length; i += 100)
      await p
        .api({ userId, purpose: 'test', priority: 'interactive' })
        .addTracks(pl.id, uris.slice(i, i + 100));
    const want = uris.filter((u) => u.startsWith('spotify:track:'));
    for (const extendedQuota of [false, true]) {
      h.sandbox.admin.setConfig({ extendedQuota });
      const got: string[] = [];
      for (let offset = 0; ; offset += 50) {
        const page = await p
          .api({ userId, purpose: 'test', priority: 'interactive' })
          .playlistTracks(pl.id, offset);
        got.push(...page.tracks.map((x) => `spotify:track:${x.id}`));
        if (!page.next) break;
      }
      expect(got).toEqual(want);
    }
    h.sandbox.admin.setConfig({ extendedQuota: false });
  });
});
