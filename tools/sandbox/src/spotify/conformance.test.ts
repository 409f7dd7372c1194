// Walks every Web API endpoint the product uses, in development mode and with extended quota, and
// validates each answer against the OpenAPI document (responses for the status actually returned).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../index.ts';
import { spotifyClient } from '../test-support.ts';
import { ResponseValidator } from './conformance.ts';
import type { Mode } from './openapi.ts';

interface Step {
  method: string;
  template: string;
  path: string;
  json?: unknown;
  status: number;
}

function steps(sb: Sandbox, mode: Mode): Step[] {
  const w = sb.world;
  const ana = w.user('ana.runs');
  if (!ana) throw new Error('no ana');
  const g = (ana.liked[0] as { g: number }).g;
  const track = w.trackId(g);
  const t = w.catalog.track(g);
  const album = w.ids.encode('album', t.r);
  const artist = w.ids.encode('artist', t.artists[0] as number);
  const owned = ana.playlists
    .map((p) => w.playlists[p]!)
    .find((pl) => pl.owner === ana.index && pl.entries.some((e) => e.g === undefined))!;
  const foreign = ana.playlists.map((p) => w.playlists[p]!).find((pl) => !w.canEdit(ana, pl))!;
  const pl = w.playlistId(owned.p);
  const other = w.playlistId(foreign.p);
  const uri = `spotify:track:${track}`;
  const dm = mode === 'dm';
  const s: Step[] = [
    { method: 'GET', template: '/me', path: '/me', status: 200 },
    { method: 'GET', template: '/me/tracks', path: '/me/tracks?limit=50', status: 200 },
    { method: 'GET', template: '/me/tracks', path: '/me/tracks?limit=51', status: 400 },
    { method: 'GET', template: '/me/playlists', path: '/me/playlists?limit=50', status: 200 },
    { method: 'GET', template: '/me/following', path: '/me/following?type=artist&limit=2', status: 200 },
    { method: 'GET', template: '/me/following', path: `/me/following?type=artist&limit=50`, status: 200 },
    { method: 'GET', template: '/playlists/{playlist_id}', path: `/playlists/${pl}`, status: 200 },
    { method: 'GET', template: '/playlists/{playlist_id}', path: `/playlists/${other}`, status: 200 },
    {
      method: 'GET',
      template: '/playlists/{playlist_id}',
      path: `/playlists/${pl}?fields=snapshot_id,name`,
      status: 200,
    },
    {
      method: 'GET',
      template: '/playlists/{playlist_id}/items',
      path: `/playlists/${pl}/items?limit=50`,
      status: 200,
    },
    {
      method: 'GET',
      template: '/playlists/{playlist_id}/items',
      path: `/playlists/${other}/items`,
      status: dm ? 403 : 200,
    },
    {
      method: 'POST',
      template: '/playlists/{playlist_id}/items',
      path: `/playlists/${pl}/items`,
      json: { uris: [uri] },
      status: 201,
    },
    {
      method: 'PUT',
      template: '/playlists/{playlist_id}/items',
      path: `/playlists/${pl}/items`,
      json: { range_start: 0, insert_before: 2 },
      status: 200,
    },
    {
      method: 'DELETE',
      template: '/playlists/{playlist_id}/items',
      path: `/playlists/${pl}/items`,
      json: { items: [{ uri }] },
      status: 200,
    },
    {
      method: 'PUT',
      template: '/playlists/{playlist_id}/items',
      path: `/playlists/${pl}/items`,
      json: { uris: [uri] },
      status: 200,
    },
    {
      method: 'PUT',
      template: '/playlists/{playlist_id}',
      path: `/playlists/${pl}`,
      json: { name: 'Renamed', description: 'x' },
      status: 200,
    },
    {
      method: 'POST',
      template: '/me/playlists',
      path: '/me/playlists',
      json: { name: 'Pacebeat 160-170', public: false },
      status: 201,
    },
    { method: 'GET', template: '/artists/{id}', path: `/artists/${artist}`, status: 200 },
    {
      method: 'GET',
      template: '/artists/{id}/albums',
      path: `/artists/${artist}/albums?limit=10&include_groups=album,single,appears_on,compilation`,
      status: 200,
    },
    {
      method: 'GET',
      template: '/artists/{id}/albums',
      path: `/artists/${artist}/albums?limit=11`,
      status: dm ? 400 : 200,
    },
    { method: 'GET', template: '/albums/{id}', path: `/albums/${album}`, status: 200 },
    { method: 'GET', template: '/albums/{id}/tracks', path: `/albums/${album}/tracks?limit=50`, status: 200 },
    { method: 'GET', template: '/tracks/{id}', path: `/tracks/${track}`, status: 200 },
    {
      method: 'GET',
      template: '/search',
      path: `/search?q=${encodeURIComponent(`isrc:${t.isrc}`)}&type=track`,
      status: 200,
    },
    { method: 'GET', template: '/search', path: `/search?q=a&type=track,artist,album&limit=10`, status: 200 },
    { method: 'GET', template: '/search', path: `/search?q=a&type=track&limit=11`, status: dm ? 400 : 200 },
    { method: 'GET', template: '/tracks', path: `/tracks?ids=${track}`, status: dm ? 403 : 200 },
    { method: 'GET', template: '/albums', path: `/albums?ids=${album}`, status: dm ? 403 : 200 },
    { method: 'GET', template: '/artists', path: `/artists?ids=${artist}`, status: dm ? 403 : 200 },
    {
      method: 'GET',
      template: '/audio-features',
      path: `/audio-features?ids=${track}`,
      status: dm ? 403 : 200,
    },
    {
      method: 'GET',
      template: '/audio-features/{id}',
      path: `/audio-features/${track}`,
      status: dm ? 403 : 200,
    },
    {
      method: 'GET',
      template: '/playlists/{playlist_id}/tracks',
      path: `/playlists/${pl}/tracks`,
      status: dm ? 403 : 200,
    },
    {
      method: 'POST',
      template: '/playlists/{playlist_id}/tracks',
      path: `/playlists/${pl}/tracks`,
      json: { uris: [uri] },
      status: dm ? 403 : 201,
    },
    {
      method: 'PUT',
      template: '/playlists/{playlist_id}/tracks',
      path: `/playlists/${pl}/tracks`,
      json: { uris: [uri, uri] },
      status: dm ? 403 : 200,
    },
    {
      method: 'DELETE',
      template: '/playlists/{playlist_id}/tracks',
      path: `/playlists/${pl}/tracks`,
      json: { tracks: [{ uri }] },
      status: dm ? 403 : 200,
    },
    {
      method: 'POST',
      template: '/users/{user_id}/playlists',
      path: `/users/${ana.id}/playlists`,
      json: { name: 'Old way' },
      status: dm ? 403 : 201,
    },
  ];
  return s;
}

for (const mode of ['dm', 'eq'] as const) {
  describe(`OpenAPI conformance (${mode === 'dm' ? 'development mode' : 'extended quota'})`, () => {
    let sb: Sandbox;
    let token: string;
    const validator = new ResponseValidator(mode);

    beforeAll(async () => {
      sb = await startSandbox({
        size: 'tiny',
        seed: 7,
        extendedQuota: mode === 'eq',
        rateLimit: false,
        dailyQuota: false,
      });
      token = sb.admin.connect({ userId: 'ana.runs' }).access_token;
    });
    afterAll(() => sb.close());

    it('answers every endpoint with a body that validates against the document', async () => {
      const call = spotifyClient(sb, token);
      const problems: string[] = [];
      for (const st of steps(sb, mode)) {
        const res = await call(st.method, st.path, st.json);
        if (res.status !== st.status)
          problems.push(
            `${st.method} ${st.path}: status ${res.status}, expected ${st.status}: ${JSON.stringify(res.body).slice(0, 200)}`,
          );
        for (const p of validator.validate(st.template, st.method, res.status, res.body))
          problems.push(`${st.method} ${st.path} ${res.status}: ${p}`);
      }
      expect(problems).toEqual([]);
    });

    it('answers 401 and 429 in the documented error shape', async () => {
      const anon = await spotifyClient(sb, 'not-a-token')('GET', '/me/tracks');
      expect(anon.status).toBe(401);
      expect(validator.validate('/me/tracks', 'GET', 401, anon.body)).toEqual([]);
      sb.admin.setFaults([{ kind: 'status', status: 429, path: '/me/playlists', times: 1 }]);
      const limited = await spotifyClient(sb, token)('GET', '/me/playlists');
      sb.admin.setFaults([]);
      expect(limited.status).toBe(429);
      expect(validator.validate('/me/playlists', 'GET', 429, limited.body)).toEqual([]);
    });

    it('uses the shapes of its mode', async () => {
      const call = spotifyClient(sb, token);
      const ana = sb.world.user('ana.runs')!;
      const pl = sb.world.playlistId(
        ana.playlists.find(
          (p) => sb.world.playlists[p]!.owner === ana.index && sb.world.playlists[p]!.entries.length > 0,
        )!,
      );
      const full = (await call<Record<string, unknown>>('GET', `/playlists/${pl}`)).body;
      const items = (await call<{ items: Array<Record<string, unknown>> }>('GET', `/playlists/${pl}/items`))
        .body;
      const me = (await call<Record<string, unknown>>('GET', '/me')).body;
      const artist = (
        await call<{ items: Array<Record<string, unknown>> }>(
          'GET',
          `/artists/${sb.world.ids.encode('artist', 1)}/albums`,
        )
      ).body;
      expect(me['account_id']).toBeTypeOf('string');
      if (mode === 'dm') {
        expect(full['items']).toBeTypeOf('object');
        expect(items.items[0]?.['item']).toBeTypeOf('object');
        expect(full['tracks']).toBeUndefined();
        expect(items.items[0]?.['track']).toBeUndefined();
        expect(me['email']).toBeUndefined();
        expect(artist.items[0]?.['album_group']).toBeUndefined();
      } else {
        expect(full['tracks']).toBeTypeOf('object');
        expect(full['items']).toBeUndefined();
        expect(items.items[0]?.['track']).toBeTypeOf('object');
        expect(items.items[0]?.['item']).toBeUndefined();
        expect(me['email']).toBeTypeOf('string');
        expect(artist.items[0]?.['album_group']).toBeTypeOf('string');
      }
    });

    it('in strict mode rejects unknown query parameters, and always bodies that break the schema, in Spotify\u2019s error shape', async () => {
      const call = spotifyClient(sb, token);
      sb.admin.setConfig({ strictRequests: true });
      const unknown = await call('GET', '/me/tracks?colour=red');
      sb.admin.setConfig({ strictRequests: false });
      expect(unknown.status).toBe(400);
      expect(unknown.body).toEqual({ error: { status: 400, message: 'Unknown parameter: colour' } });
      const badBody = await call('POST', '/me/playlists', { public: true });
      expect(badBody.status).toBe(400);
      expect(validator.validate('/me/playlists', 'POST', 400, badBody.body)).toEqual([]);
    });
  });
}
