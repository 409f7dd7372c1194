// The admin HTTP API: users and libraries change while the sandbox runs; the log and counters see every call.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../index.ts';
import { http, spotifyClient } from '../test-support.ts';

describe('admin API', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ size: 'tiny', seed: 9, rateLimit: false, dailyQuota: false });
  });
  afterAll(() => sb.close());
  beforeEach(() => sb.admin.reset());

  const admin = <T = Record<string, unknown>>(method: string, path: string, json?: unknown) =>
    http<T>(`${sb.baseUrls.admin}${path}`, { method, ...(json !== undefined ? { json } : {}) });

  it('creates users with generated libraries and connects them', async () => {
    const created = await admin('POST', '/users', {
      username: 'zoe',
      displayName: 'Zoë',
      liked: 12,
      followedArtists: 3,
      owned: 1,
    });
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ id: 'zoe', likedSongs: 12, followedArtists: 3 });
    const tokens = await admin<{ access_token: string }>('POST', '/connect', { userId: 'zoe' });
    const api = spotifyClient(sb, tokens.body.access_token);
    expect((await api<{ total: number }>('GET', '/me/tracks')).body.total).toBe(12);
    expect((await admin('POST', '/users', { username: 'zoe' })).status).toBe(400);
  });

  it('changes a library while running: likes, unlikes, follows, playlist items', async () => {
    const api = spotifyClient(sb, sb.admin.connect({ userId: 'chloe' }).access_token);
    const t1 = sb.world.trackId(10);
    const t2 = sb.world.trackId(11);
    await admin('POST', '/users/chloe/liked', { trackIds: [t1, t2] });
    const liked = await api<{ total: number; items: Array<{ track: { id: string } }> }>('GET', '/me/tracks');
    expect(liked.body.total).toBe(2);
    await admin('DELETE', '/users/chloe/liked', { trackIds: [t1] });
    expect((await api<{ total: number }>('GET', '/me/tracks')).body.total).toBe(1);
    await admin('POST', '/users/chloe/following', { artistIds: [sb.world.ids.encode('artist', 3)] });
    expect(
      (await api<{ artists: { total: number } }>('GET', '/me/following?type=artist')).body.artists.total,
    ).toBe(1);
    const pl = await admin<{ id: string; snapshotId: string }>('POST', '/users/chloe/playlists', {
      name: 'Runs',
      trackIds: [t1],
    });
    const added = await admin<{ snapshotId: string }>('POST', `/playlists/${pl.body.id}/items`, {
      trackIds: [t2],
    });
    expect(added.body.snapshotId).not.toBe(pl.body.snapshotId);
    const items = await api<{ total: number }>('GET', `/playlists/${pl.body.id}/items`);
    expect(items.body.total).toBe(2);
    expect(
      (await admin<{ trackIds: string[] }>('GET', `/playlists/${pl.body.id}/items`)).body.trackIds,
    ).toEqual([t1, t2]);
    expect((await admin('POST', '/users/nobody/liked', { trackIds: [t1] })).status).toBe(404);
  });

  it('counts the previews it synthesised (a preview asked twice is made once)', async () => {
    const before = (await admin<{ generated: number; fromDisk: number }>('GET', '/previews')).body;
    // The first track Deezer has with a preview.
    let preview = '';
    for (let i = 0; i < 50 && !preview; i++) {
      const t = sb.admin.track(sb.world.trackId(i));
      const d = await http<{ preview?: string }>(`${sb.baseUrls.deezer}/track/isrc:${t.isrc}`);
      preview = d.body.preview ?? '';
    }
    expect(preview).not.toBe('');
    for (let i = 0; i < 2; i++) expect((await fetch(preview)).status).toBe(200);
    const after = (await admin<{ generated: number; fromDisk: number }>('GET', '/previews')).body;
    expect(after.generated + after.fromDisk - before.generated - before.fromDisk).toBe(1);
  });

  it('logs requests and counts them per endpoint', async () => {
    const api = spotifyClient(sb, sb.admin.connect({ userId: 'ana.runs' }).access_token);
    await api('GET', '/me');
    await api('GET', '/me');
    await api('GET', '/me/tracks?limit=51');
    const counters = (
      await admin<Record<string, { count: number; statuses: Record<string, number> }>>('GET', '/counters')
    ).body;
    expect(counters['GET /spotify/api/v1/me']).toEqual({ count: 2, statuses: { '200': 2 } });
    expect(counters['GET /spotify/api/v1/me/tracks']).toEqual({ count: 1, statuses: { '400': 1 } });
    const log = (
      await admin<Array<{ url: string; userId: string; clientId: string }>>(
        'GET',
        '/requests?service=spotify-api',
      )
    ).body;
    expect(log.map((r) => r.url)).toEqual([
      '/spotify/api/v1/me',
      '/spotify/api/v1/me',
      '/spotify/api/v1/me/tracks?limit=51',
    ]);
    expect(log[0]).toMatchObject({ userId: 'ana.runs', clientId: 'pacebeat-demo' });
    expect(sb.admin.count('/spotify/api/v1/me', 'GET')).toBe(2);
    await admin('DELETE', '/requests');
    expect((await admin<unknown[]>('GET', '/requests')).body).toEqual([]);
  });

  it('registers and unregisters users for an app, at most five', async () => {
    const api = spotifyClient(sb, sb.admin.connect({ userId: 'frank' }).access_token);
    expect((await api('GET', '/me')).status).toBe(403);
    expect((await admin('PUT', '/users/frank/registration', { registered: true })).status).toBe(409);
    await admin('PUT', '/users/eli/registration', { registered: false });
    expect((await admin('PUT', '/users/frank/registration', { registered: true })).status).toBe(200);
    expect((await api('GET', '/me')).status).toBe(200);
  });

  it('tells the truth about a track and resets the world', async () => {
    const id = sb.world.trackId(20);
    const truth = (await admin<{ trueTempo: number; isrc: string; songId: string }>('GET', `/tracks/${id}`))
      .body;
    expect(truth.trueTempo).toBe(sb.world.catalog.tempoOf(20).bpm);
    expect(truth.songId).toBe(sb.world.songOf(id));
    // A single's version of an album song: one song, two recordings.
    const [g, v] = [...sb.world.catalog.versions][0]!;
    const single = sb.world.trackId(g);
    const song = (
      await admin<{ songId: string; tracks: Array<{ id: string; isrc: string; role: string }> }>(
        'GET',
        `/songs/${single}`,
      )
    ).body;
    expect(song.songId).toBe(sb.world.trackId(v.of));
    expect(song.tracks[0]).toMatchObject({
      id: song.songId,
      role: v.kind === 'album-version' ? 'album version' : 'original',
    });
    const role = sb.world.catalog.songRole(g);
    expect(['single', 'radio edit', 'single version', 'mono']).toContain(role);
    expect(song.tracks.find((x) => x.id === single)).toMatchObject({ role });
    expect(new Set(song.tracks.map((x) => x.isrc)).size).toBeGreaterThan(1);
    expect((await admin('GET', `/tracks/${single}`)).body).toMatchObject({
      songId: song.songId,
      songRole: role,
    });
    await admin('POST', '/users/chloe/liked', { trackIds: [id] });
    await admin('POST', '/reset');
    expect(sb.admin.user('chloe').likedSongs).toBe(0);
  });
});

describe('admin API with a token (as `npm run sandbox` starts it)', () => {
  it('answers only requests with the token; the simulated services need none', async () => {
    const sb = await startSandbox({ size: 'tiny', seed: 9, adminToken: 'tok-123' });
    try {
      const world = (headers: Record<string, string>) => fetch(`${sb.baseUrls.admin}/world`, { headers });
      expect((await world({})).status).toBe(401);
      expect((await world({ authorization: 'Bearer tok-12' })).status).toBe(401);
      expect((await world({ authorization: 'Bearer tok-1234' })).status).toBe(401);
      const connect = await fetch(`${sb.baseUrls.admin}/connect`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ userId: 'ana.runs' }),
      });
      expect(connect.status).toBe(401);
      expect((await world({ authorization: 'Bearer tok-123' })).status).toBe(200);
      const token = sb.admin.connect({ userId: sb.admin.users()[0]!.id }).access_token;
      expect((await spotifyClient(sb, token)<{ total: number }>('GET', '/me/tracks')).status).toBe(200);
    } finally {
      await sb.close();
    }
  });
});
