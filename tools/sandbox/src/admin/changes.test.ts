// The admin API changes the world as users and artists do, for tests of scans and playlist upkeep.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../index.ts';
import { http, spotifyClient } from '../test-support.ts';

type Page = { items: Array<Record<string, unknown>>; total: number };

describe('admin: users and artists change the world', () => {
  let sb: Sandbox;
  let api: ReturnType<typeof spotifyClient>;
  beforeAll(async () => {
    sb = await startSandbox({ size: 'tiny', seed: 17, rateLimit: false, dailyQuota: false });
  });
  afterAll(() => sb.close());
  beforeEach(() => {
    sb.admin.reset();
    api = spotifyClient(sb, sb.admin.connect({ userId: 'ana.runs' }).access_token);
  });
  const admin = <T = Record<string, unknown>>(method: string, path: string, json?: unknown) =>
    http<T>(`${sb.baseUrls.admin}${path}`, { method, ...(json !== undefined ? { json } : {}) });
  const ids = (n: number) => Array.from({ length: n }, (_, k) => sb.world.trackId(100 + k));

  it('a user deletes (unfollows) a playlist, edits one, and removes items by position or URI', async () => {
    const pl = sb.admin.createPlaylist('ana.runs', { name: 'Target', trackIds: ids(4) });
    expect((await admin('DELETE', `/users/ana.runs/followed-playlists/${pl.id}`)).status).toBe(200);
    const mine = await api<Page>('GET', '/me/playlists?limit=50');
    expect(mine.body.items.map((p) => p['id'])).not.toContain(pl.id);

    const edited = await admin<{ snapshotId: string }>('PUT', `/playlists/${pl.id}`, {
      name: 'Renamed by hand',
      description: 'mine now',
      trackIds: ids(3).reverse(),
    });
    expect(edited.status).toBe(200);
    expect(edited.body.snapshotId).not.toBe(pl.snapshotId);
    const read = await api<Record<string, unknown>>('GET', `/playlists/${pl.id}`);
    expect(read.body).toMatchObject({ name: 'Renamed by hand', description: 'mine now' });
    expect(sb.admin.playlistItems(pl.id)).toEqual(ids(3).reverse());

    await admin('DELETE', `/playlists/${pl.id}/items`, { positions: [0] });
    expect(sb.admin.playlistItems(pl.id)).toEqual(ids(2).reverse());
    await admin('DELETE', `/playlists/${pl.id}/items`, { uris: [`spotify:track:${ids(1)[0]}`] });
    expect(sb.admin.playlistItems(pl.id)).toEqual([ids(2)[1]]);
    expect((await admin('DELETE', `/playlists/${pl.id}/items`, { positions: [9] })).status).toBe(400);
  });

  it('a user likes songs at a given time; they come first in /me/tracks', async () => {
    const at = new Date(Date.now() + 60_000).toISOString().replace(/\.\d{3}Z$/, 'Z');
    await admin('POST', '/users/ana.runs/liked', { trackIds: [ids(1)[0]], addedAt: at });
    const liked = await api<{ items: Array<{ added_at: string; track: { id: string } }> }>(
      'GET',
      '/me/tracks',
    );
    expect(liked.body.items[0]).toMatchObject({ added_at: at, track: { id: ids(1)[0] } });
  });

  it('an artist puts out a new release: first in their albums, with its tracks and their true tempo', async () => {
    const artist = sb.world.ids.encode('artist', sb.world.user('ana.runs')!.followedArtists[0]!);
    const res = await admin<{ albumId: string; trackIds: string[] }>('POST', `/artists/${artist}/releases`, {
      name: 'Brand New Day',
      tracks: [{ name: 'First Light', bpm: 172 }, { name: 'Second Wind', durationMs: 201_000 }, {}],
    });
    expect(res.status).toBe(201);
    expect(res.body.trackIds).toHaveLength(3);
    const albums = await api<Page>('GET', `/artists/${artist}/albums?include_groups=album&limit=10`);
    expect(albums.body.items[0]).toMatchObject({
      id: res.body.albumId,
      name: 'Brand New Day',
      total_tracks: 3,
    });
    const album = await api<{ tracks: Page }>('GET', `/albums/${res.body.albumId}`);
    expect(album.body.tracks.items.map((t) => t['name']).slice(0, 2)).toEqual(['First Light', 'Second Wind']);
    expect(album.body.tracks.items[1]?.['duration_ms']).toBe(201_000);
    expect(sb.admin.track(res.body.trackIds[0]!).trueTempo).toBe(172);
    const isrc = sb.admin.track(res.body.trackIds[0]!).isrc;
    const found = await api<{ tracks: Page }>('GET', `/search?type=track&q=isrc:${isrc}`);
    expect(found.body.tracks.items.map((t) => t['id'])).toEqual([res.body.trackIds[0]]);
    sb.admin.reset(); // back to the generated catalog (and no tokens)
    api = spotifyClient(sb, sb.admin.connect({ userId: 'ana.runs' }).access_token);
    expect((await api('GET', `/albums/${res.body.albumId}`)).status).toBe(404);
  });
});
