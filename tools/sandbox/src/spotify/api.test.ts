// Web API semantics in development mode: 403s, limits, paging, snapshot ids, shapes.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../index.ts';
import { spotifyClient } from '../test-support.ts';
import { NOT_REGISTERED_MESSAGES } from './messages.ts';
import type { Playlist } from '../world/library.ts';

type Page = { items: Array<Record<string, unknown>>; next: string | null; total: number; limit: number };

describe('Spotify Web API (development mode)', () => {
  let sb: Sandbox;
  let api: ReturnType<typeof spotifyClient>;
  beforeAll(async () => {
    sb = await startSandbox({ size: 'small', seed: 11, rateLimit: false, dailyQuota: false });
  });
  afterAll(() => sb.close());
  beforeEach(() => {
    sb.admin.reset();
    api = spotifyClient(sb, sb.admin.connect({ userId: 'ana.runs' }).access_token);
  });

  const ana = () => sb.world.user('ana.runs')!;
  const playlists = () => ana().playlists.map((p) => sb.world.playlists[p] as Playlist);
  const ownedId = () =>
    sb.world.playlistId(playlists().find((p) => p.owner === ana().index && p.entries.length > 3)!.p);

  it('walks liked songs, playlists and followed artists to the end with their page sizes', async () => {
    let url: string | null = '/me/tracks?limit=50';
    const seen = new Set<string>();
    while (url) {
      const res: { body: Page } = await api<Page>('GET', url);
      for (const it of res.body.items) seen.add((it['track'] as { id: string }).id);
      url = res.body.next ? res.body.next.slice(sb.baseUrls.spotifyApi.length) : null;
    }
    expect(seen.size).toBe(ana().liked.length);
    const artists: string[] = [];
    let f: string | null = '/me/following?type=artist&limit=3';
    while (f) {
      const res: { body: { artists: Page & { cursors: { after: string | null } } } } = await api('GET', f);
      artists.push(...res.body.artists.items.map((a) => a['id'] as string));
      f = res.body.artists.next ? res.body.artists.next.slice(sb.baseUrls.spotifyApi.length) : null;
    }
    expect(artists).toHaveLength(ana().followedArtists.length);
    expect(new Set(artists).size).toBe(artists.length);
    const pls = await api<Page>('GET', '/me/playlists?limit=50');
    expect(pls.body.total).toBe(ana().playlists.length);
  });

  it('answers 403 for users not on the app\u2019s user list, missing scopes and an owner without Premium', async () => {
    const frank = spotifyClient(sb, sb.admin.connect({ userId: 'frank' }).access_token);
    const refused = (await frank<{ error: { status: number; message: string } }>('GET', '/me')).body;
    expect(refused.error.status).toBe(403);
    expect(NOT_REGISTERED_MESSAGES).toContain(refused.error.message);
    const noScopes = spotifyClient(sb, sb.admin.connect({ userId: 'ana.runs', scopes: [] }).access_token);
    expect((await noScopes('GET', '/me')).status).toBe(200);
    expect((await noScopes('GET', '/me/tracks')).body).toEqual({
      error: { status: 403, message: 'Insufficient client scope' },
    });
    expect((await noScopes('GET', '/me/following?type=artist')).status).toBe(403);
    sb.admin.setConfig({ ownerHasPremium: false });
    expect((await api('GET', '/me')).status).toBe(403);
  });

  it('hides items of playlists the user neither owns nor collaborates on, and refuses changes to them', async () => {
    const foreign = playlists().find((p) => !sb.world.canEdit(ana(), p))!;
    const id = sb.world.playlistId(foreign.p);
    const meta = await api('GET', `/playlists/${id}`);
    expect(meta.status).toBe(200);
    expect(meta.body['items']).toBeUndefined();
    expect(meta.body['name']).toBe(foreign.name);
    expect((await api('GET', `/playlists/${id}/items`)).status).toBe(403);
    const uri = `spotify:track:${sb.world.trackId(0)}`;
    const add = await api('POST', `/playlists/${id}/items`, { uris: [uri] });
    expect(add.body).toEqual({
      error: { status: 403, message: "You cannot add tracks to a playlist you don't own." },
    });
    const collab = playlists().find((p) => p.collaborative && p.owner !== ana().index)!;
    expect((await api<Page>('GET', `/playlists/${sb.world.playlistId(collab.p)}/items`)).body.total).toBe(
      collab.entries.length,
    );
    expect(
      (await api('POST', `/playlists/${sb.world.playlistId(collab.p)}/items`, { uris: [uri] })).status,
    ).toBe(201);
  });

  it('lists local files (is_local) and taken-down tracks (item: null) among playlist items', async () => {
    const pl = playlists().find((p) => p.owner === ana().index && p.entries.some((e) => e.local))!;
    const page = await api<Page>('GET', `/playlists/${sb.world.playlistId(pl.p)}/items?limit=50`);
    const local = page.body.items.filter((i) => i['is_local'] === true);
    expect(local.length).toBe(2);
    expect((local[0]?.['item'] as { uri: string }).uri).toMatch(/^spotify:local:/);
    expect(page.body.items.filter((i) => i['item'] === null && i['is_local'] === false)).toHaveLength(1);
  });

  it('answers 403 on the old /tracks paths and multi-get endpoints', async () => {
    const id = ownedId();
    for (const path of [
      `/playlists/${id}/tracks`,
      `/tracks?ids=${sb.world.trackId(1)}`,
      `/artists?ids=${sb.world.ids.encode('artist', 1)}`,
      `/audio-features/${sb.world.trackId(1)}`,
    ]) {
      expect((await api('GET', path)).status, path).toBe(403);
    }
  });

  it('changes snapshot_id on every playlist change and keeps order, duplicates and positions', async () => {
    const id = ownedId();
    const s0 = (await api('GET', `/playlists/${id}?fields=snapshot_id`)).body;
    expect(Object.keys(s0)).toEqual(['snapshot_id']);
    const uri = `spotify:track:${sb.world.trackId(5)}`;
    const add = await api('POST', `/playlists/${id}/items`, { uris: [uri, uri], position: 0 });
    expect(add.status).toBe(201);
    expect(add.body['snapshot_id']).not.toBe(s0['snapshot_id']);
    const first = await api<Page>('GET', `/playlists/${id}/items?limit=2&fields=items(item(uri))`);
    expect(first.body.items).toEqual([{ item: { uri } }, { item: { uri } }]);
    const del = await api('DELETE', `/playlists/${id}/items`, { items: [{ uri }] });
    expect(del.body['snapshot_id']).not.toBe(add.body['snapshot_id']);
    const ren = await api('PUT', `/playlists/${id}`, { name: 'Tempo 170' });
    expect(ren.status).toBe(200);
    const s3 = (await api('GET', `/playlists/${id}`)).body;
    expect(s3['name']).toBe('Tempo 170');
    expect(s3['snapshot_id']).not.toBe(del.body['snapshot_id']);
    const tooMany = await api('POST', `/playlists/${id}/items`, {
      uris: Array.from({ length: 101 }, () => uri),
    });
    expect(tooMany.status).toBe(400);
    const bad = await api('POST', `/playlists/${id}/items`, { uris: ['spotify:track:nope'] });
    expect(bad.body).toEqual({ error: { status: 400, message: 'Invalid track uri: spotify:track:nope' } });
  });

  it('answers 400, never 500, to bodies that are missing, empty or not JSON', async () => {
    const id = ownedId();
    expect((await api('POST', '/me/playlists')).status).toBe(400);
    expect((await api('POST', '/me/playlists', { name: '  ' })).status).toBe(400);
    expect((await api('DELETE', `/playlists/${id}/items`)).status).toBe(400);
    expect((await api('DELETE', `/playlists/${id}/items`, { items: [] })).status).toBe(400);
    expect((await api('POST', `/playlists/${id}/items`)).status).toBe(400);
    expect(
      (await api('PUT', `/playlists/${id}/items`, { range_start: 99999, insert_before: 0 })).status,
    ).toBe(400);
    const raw = await fetch(`${sb.baseUrls.spotifyApi}/me/playlists`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${sb.admin.connect({ userId: 'ana.runs' }).access_token}`,
        'content-type': 'application/json',
      },
      body: '{"name": ',
    });
    expect(raw.status).toBe(400);
    expect(await raw.json()).toEqual({ error: { status: 400, message: 'Error parsing json' } });
  });

  it('creates playlists with POST /me/playlists (201, id, snapshot_id, link) that the user can fill', async () => {
    const res = await api('POST', '/me/playlists', {
      name: 'Pacebeat 170-180',
      public: false,
      description: 'by Pacebeat',
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: 'Pacebeat 170-180',
      public: false,
      collaborative: false,
      items: { total: 0 },
    });
    expect((res.body['external_urls'] as { spotify: string }).spotify).toMatch(
      /^https:\/\/open\.spotify\.com\/playlist\//,
    );
    const list = await api<Page>('GET', '/me/playlists?limit=1');
    expect(list.body.items[0]?.['id']).toBe(res.body['id']);
  });

  it('limits artist albums to 10 per page (default 5) and has no album_group or ISRC where development mode lacks them', async () => {
    const busy = sb.world.catalog.artists.find((a) => a.releases.length > 12)!;
    const id = sb.world.ids.encode('artist', busy.i);
    const def = await api<Page>('GET', `/artists/${id}/albums`);
    expect(def.body.limit).toBe(5);
    expect(def.body.items).toHaveLength(5);
    expect((await api('GET', `/artists/${id}/albums?limit=11`)).body).toEqual({
      error: { status: 400, message: 'Invalid limit' },
    });
    const singles = await api<Page>('GET', `/artists/${id}/albums?include_groups=single&limit=10`);
    expect(singles.body.items.every((a) => a['album_type'] === 'single')).toBe(true);
    const album = await api<{ tracks: Page; id: string }>(
      'GET',
      `/albums/${sb.world.ids.encode('album', busy.releases[0] as number)}`,
    );
    expect(album.body.tracks.items[0]?.['external_ids']).toBeUndefined();
    const track = await api('GET', `/tracks/${album.body.tracks.items[0]?.['id']}`);
    expect((track.body['external_ids'] as { isrc: string }).isrc).toMatch(/^[A-Z]{2}[A-Z0-9]{3}\d{7}$/);
  });

  it('searches by isrc:, artist: and track: with at most 10 results', async () => {
    const t = sb.world.catalog.track(sb.world.catalog.releases[3]!.firstG);
    const artist = sb.world.catalog.artists[t.artists[0] as number]!.name;
    const byIsrc = await api<{ tracks: Page }>(
      'GET',
      `/search?type=track&q=${encodeURIComponent(`isrc:${t.isrc}`)}`,
    );
    expect(byIsrc.body.tracks.items[0]?.['id']).toBe(sb.world.trackId(t.g));
    const q = `artist:"${artist}" track:"${t.name}"`;
    const byName = await api<{ tracks: Page }>(
      'GET',
      `/search?type=track&limit=10&q=${encodeURIComponent(q)}`,
    );
    expect(byName.body.tracks.items.map((x) => x['name'])).toContain(t.name);
    expect((await api('GET', `/search?type=track&limit=20&q=a`)).status).toBe(400);
  });

  it('answers 401 without a token and 400 for malformed ids', async () => {
    const anon = spotifyClient(sb, '');
    expect((await anon('GET', '/me')).body).toEqual({ error: { status: 401, message: 'No token provided' } });
    expect((await api('GET', '/tracks/xyz')).body).toEqual({
      error: { status: 400, message: 'Invalid base62 id' },
    });
    expect((await api('GET', '/tracks/0000000000000000000000')).status).toBe(404);
  });

  it('answers 400 Invalid base62 id for a malformed playlist id on every playlist endpoint, 404 for an unknown one', async () => {
    const invalid = { error: { status: 400, message: 'Invalid base62 id' } };
    for (const bad of ['xyz', 'abc-def_ghi', '37i9dQZF1DXcBWIGoYBM5M0'])
      expect((await api('GET', `/playlists/${bad}`)).body, bad).toEqual(invalid);
    expect((await api('GET', '/playlists/nope/items')).body).toEqual(invalid);
    const uri = `spotify:track:${sb.world.trackId(1)}`;
    expect((await api('POST', '/playlists/nope/items', { uris: [uri] })).body).toEqual(invalid);
    expect((await api('PUT', '/playlists/nope', { name: 'x' })).body).toEqual(invalid);
    expect((await api('DELETE', '/playlists/nope/items', { items: [{ uri }] })).body).toEqual(invalid);
    expect((await api('GET', '/playlists/0000000000000000000000')).status).toBe(404);
  });
});
