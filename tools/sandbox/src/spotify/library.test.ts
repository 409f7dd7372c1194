// "Deleting" a playlist is unfollowing it: DELETE /me/library (every app) or the old
// DELETE /playlists/{id}/followers (extended quota). The playlist leaves /me/playlists, its owner can
// still change it by id, and following it again restores it. GET /users/{id} is extended quota only.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../index.ts';
import { PRODUCT_SCOPES } from '../admin/admin.ts';
import { spotifyClient } from '../test-support.ts';
import { ResponseValidator } from './conformance.ts';

type Page = { items: Array<{ id: string }>; total: number };

describe('unfollowing ("deleting") playlists, the library endpoints and user profiles', () => {
  let sb: Sandbox;
  let api: ReturnType<typeof spotifyClient>;
  beforeAll(async () => {
    sb = await startSandbox({ size: 'tiny', seed: 16, rateLimit: false, dailyQuota: false });
  });
  afterAll(() => sb.close());
  beforeEach(() => {
    sb.admin.reset();
    api = spotifyClient(sb, sb.admin.connect({ userId: 'ana.runs' }).access_token);
  });

  const listed = async () => (await api<Page>('GET', '/me/playlists?limit=50')).body.items.map((p) => p.id);
  const newTarget = () => sb.admin.createPlaylist('ana.runs', { name: 'Pacebeat 160-170' }).id;
  const track = (g: number) => `spotify:track:${sb.world.trackId(g)}`;

  it('development mode: DELETE /me/library hides the playlist, the owner can still change it, PUT restores it', async () => {
    const id = newTarget();
    expect(await listed()).toContain(id);
    expect((await api('DELETE', `/playlists/${id}/followers`)).status).toBe(403);
    const del = await api('DELETE', `/me/library?uris=spotify:playlist:${id}`);
    expect(del.status).toBe(200);
    expect(await listed()).not.toContain(id);
    expect((await api('GET', `/me/library/contains?uris=spotify:playlist:${id}`)).body).toEqual([false]);
    const read = await api<{ items: { total: number } }>('GET', `/playlists/${id}`);
    expect(read.status).toBe(200);
    expect((await api('POST', `/playlists/${id}/items`, { uris: [track(3)] })).status).toBe(201);
    expect(sb.admin.playlistItems(id)).toEqual([sb.world.trackId(3)]);
    expect((await api('PUT', `/me/library?uris=spotify:playlist:${id}`)).status).toBe(200);
    expect((await listed())[0]).toBe(id);
    expect((await api('GET', `/me/library/contains?uris=spotify:playlist:${id}`)).body).toEqual([true]);
  });

  it('extended quota: DELETE and PUT /playlists/{id}/followers unfollow and follow again', async () => {
    sb.admin.setConfig({ extendedQuota: true });
    const id = newTarget();
    expect((await api('DELETE', `/playlists/${id}/followers`)).status).toBe(200);
    expect(await listed()).not.toContain(id);
    expect((await api('PUT', `/playlists/${id}/followers`, { public: false })).status).toBe(200);
    expect((await listed())[0]).toBe(id);
    expect((await api('DELETE', '/playlists/not-an-id/followers')).status).toBe(400);
  });

  it('saves tracks with user-library-modify only, refuses unsupported URIs and more than 40', async () => {
    expect((await api('PUT', `/me/library?uris=${track(7)}`)).status).toBe(403);
    const lib = spotifyClient(
      sb,
      sb.admin.connect({ userId: 'ana.runs', scopes: [...PRODUCT_SCOPES, 'user-library-modify'] })
        .access_token,
    );
    const before = (await lib<Page>('GET', '/me/tracks')).body.total;
    expect((await lib('PUT', `/me/library?uris=${track(7)}`)).status).toBe(200);
    expect((await lib<Page>('GET', '/me/tracks')).body.total).toBe(before + 1);
    expect((await lib('GET', `/me/library/contains?uris=${track(7)},${track(8)}`)).body).toEqual([
      true,
      false,
    ]);
    const artist = `spotify:artist:${sb.world.ids.encode('artist', 1)}`;
    expect((await lib('PUT', `/me/library?uris=${artist}`)).status).toBe(400);
    const many = Array.from({ length: 41 }, (_, k) => track(k)).join(',');
    expect((await lib('PUT', `/me/library?uris=${many}`)).status).toBe(400);
  });

  it('GET /users/{id}: 403 in development mode, the public profile with extended quota', async () => {
    expect((await api('GET', '/users/ben.pace')).status).toBe(403);
    sb.admin.setConfig({ extendedQuota: true });
    const ben = await api<Record<string, unknown>>('GET', '/users/ben.pace');
    expect(ben.status).toBe(200);
    expect(ben.body).toMatchObject({ id: 'ben.pace', display_name: 'Ben Pace', type: 'user' });
    expect(new ResponseValidator('eq').validate('/users/{user_id}', 'GET', 200, ben.body)).toEqual([]);
    expect((await api('GET', '/users/nobody-here')).status).toBe(404);
  });
});
