// Extended quota: only the old field names (`tracks`, `track`), as Spotify left those apps unchanged,
// and audio-features only for an app that used it before 2024-11-27 (a setting).
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../index.ts';
import { spotifyClient } from '../test-support.ts';
import { ResponseValidator } from './conformance.ts';

type Obj = Record<string, unknown>;

describe('extended quota', () => {
  let sb: Sandbox;
  let api: ReturnType<typeof spotifyClient>;
  const validator = new ResponseValidator('eq');
  beforeAll(async () => {
    sb = await startSandbox({ size: 'tiny', seed: 14, extendedQuota: true, rateLimit: false });
  });
  afterAll(() => sb.close());
  beforeEach(() => {
    sb.admin.reset();
    api = spotifyClient(sb, sb.admin.connect({ userId: 'ana.runs' }).access_token);
  });

  const owned = () => {
    const ana = sb.world.user('ana.runs')!;
    const p = ana.playlists.find((x) => sb.world.playlists[x]!.owner === ana.index)!;
    return sb.world.playlistId(p);
  };

  it('sends only the old names: playlists have `tracks`, their items `track`', async () => {
    const id = owned();
    const full = (await api<Obj>('GET', `/playlists/${id}`)).body;
    expect(full['items']).toBeUndefined();
    const tracks = full['tracks'] as { items: Obj[]; total: number };
    expect(tracks.total).toBeGreaterThan(0);
    expect(tracks.items.every((i) => 'track' in i && !('item' in i))).toBe(true);
    expect(validator.validate('/playlists/{playlist_id}', 'GET', 200, full)).toEqual([]);

    const page = (await api<{ items: Obj[] }>('GET', `/playlists/${id}/items?limit=50`)).body;
    expect(page.items.every((i) => 'track' in i && !('item' in i))).toBe(true);

    const mine = (await api<{ items: Obj[] }>('GET', '/me/playlists?limit=50')).body;
    expect(mine.items.every((p) => typeof p['tracks'] === 'object' && !('items' in p))).toBe(true);

    const created = await api<Obj>('POST', '/me/playlists', { name: 'Pacebeat 170-180' });
    expect(created.status).toBe(201);
    expect(created.body['items']).toBeUndefined();
    expect(created.body['tracks']).toMatchObject({ total: 0 });
  });

  it('answers audio-features 403 for an app that did not use it before 2024-11-27, and keeps the rest', async () => {
    const track = sb.world.trackId(sb.world.user('ana.runs')!.liked[0]!.g);
    expect((await api('GET', `/audio-features?ids=${track}`)).status).toBe(200);
    sb.admin.setConfig({ audioFeaturesAccess: false });
    const several = await api('GET', `/audio-features?ids=${track}`);
    expect(several.status).toBe(403);
    expect(several.body).toEqual({ error: { status: 403 } });
    expect(validator.validate('/audio-features', 'GET', 403, several.body)).toEqual([]);
    expect((await api('GET', `/audio-features/${track}`)).status).toBe(403);
    expect((await api('GET', `/tracks?ids=${track}`)).status).toBe(200);
  });
});
