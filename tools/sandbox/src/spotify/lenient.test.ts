// As lenient as Spotify by default: unknown query parameters are ignored, an empty body with a JSON
// content type and a JSON body sent as text/plain are accepted, and search's own `next` link (which
// says `query=`) works as given. Strict mode, for tests that want it, refuses the first three.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../index.ts';
import { spotifyClient } from '../test-support.ts';

describe('lenient like Spotify, strict on request', () => {
  let sb: Sandbox;
  let token: string;
  beforeAll(async () => {
    sb = await startSandbox({ size: 'tiny', seed: 19, rateLimit: false, dailyQuota: false });
  });
  afterAll(() => sb.close());
  beforeEach(() => {
    sb.admin.reset();
    token = sb.admin.connect({ userId: 'ana.runs' }).access_token;
  });

  const raw = (method: string, path: string, body: string | undefined, contentType?: string) =>
    fetch(`${sb.baseUrls.spotifyApi}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, ...(contentType ? { 'content-type': contentType } : {}) },
      ...(body !== undefined ? { body } : {}),
    });
  const target = () => sb.admin.createPlaylist('ana.runs', { name: 'Target' }).id;
  const track = (g: number) => `spotify:track:${sb.world.trackId(g)}`;

  /** Follows a search's `next` links as given, collecting track ids. */
  async function walkSearch(q: string): Promise<{ ids: string[]; total: number }> {
    const api = spotifyClient(sb, token);
    let path: string | null = `/search?type=track&limit=5&q=${encodeURIComponent(q)}`;
    const ids: string[] = [];
    let total = 0;
    for (let page = 0; path && page < 4; page++) {
      const res: {
        status: number;
        body: { tracks: { items: Array<{ id: string }>; next: string | null; total: number } };
      } = await api('GET', path);
      expect(res.status).toBe(200);
      ids.push(...res.body.tracks.items.map((t) => t.id));
      total = res.body.tracks.total;
      path = res.body.tracks.next ? res.body.tracks.next.slice(sb.baseUrls.spotifyApi.length) : null;
    }
    return { ids, total };
  }

  it('by default ignores unknown parameters and takes empty JSON bodies and text/plain JSON bodies', async () => {
    expect(sb.admin.config().strictRequests).toBe(false);
    expect((await raw('GET', '/me/tracks?colour=red&limit=2', undefined)).status).toBe(200);
    const id = target();
    const add = await raw('POST', `/playlists/${id}/items?uris=${track(3)}`, '', 'application/json');
    expect(add.status).toBe(201);
    const created = await raw('POST', '/me/playlists', JSON.stringify({ name: 'Plain' }), 'text/plain');
    expect(created.status).toBe(201);
    expect(((await created.json()) as { name: string }).name).toBe('Plain');
    const broken = await raw('POST', '/me/playlists', '{"name": ', 'application/json');
    expect(broken.status).toBe(400);
    expect(await broken.json()).toEqual({ error: { status: 400, message: 'Error parsing json' } });
  });

  it('search’s own next link (query=…) works as given, in both modes', async () => {
    for (const strictRequests of [false, true]) {
      sb.admin.setConfig({ strictRequests });
      const { ids, total } = await walkSearch('a');
      expect(total).toBeGreaterThan(15);
      expect(ids).toHaveLength(20);
      expect(new Set(ids).size).toBe(20);
    }
  });

  it('strict mode refuses unknown parameters, empty JSON bodies and bodies not sent as JSON', async () => {
    sb.admin.setConfig({ strictRequests: true });
    const unknown = await raw('GET', '/me/tracks?colour=red', undefined);
    expect(unknown.status).toBe(400);
    expect(await unknown.json()).toEqual({ error: { status: 400, message: 'Unknown parameter: colour' } });
    const id = target();
    expect(
      (await raw('POST', `/playlists/${id}/items?uris=${track(3)}`, '', 'application/json')).status,
    ).toBe(400);
    expect((await raw('POST', '/me/playlists', JSON.stringify({ name: 'Plain' }), 'text/plain')).status).toBe(
      400,
    );
    expect(sb.admin.playlistItems(id)).toEqual([]);
  });
});
