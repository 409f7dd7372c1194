// Podcast episodes in playlists: some users keep them among their songs, and adds, replaces and
// removals accept `spotify:episode:` URIs as the OpenAPI document allows.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../index.ts';
import { spotifyClient } from '../test-support.ts';
import { ResponseValidator } from './conformance.ts';

type Item = { is_local: boolean; item: { type: string; uri: string; show?: { name: string } } | null };
type Page = { items: Item[]; total: number };

describe('podcast episodes in playlists', () => {
  let sb: Sandbox;
  let api: ReturnType<typeof spotifyClient>;
  const validator = new ResponseValidator('dm');
  beforeAll(async () => {
    sb = await startSandbox({ size: 'small', seed: 15, rateLimit: false, dailyQuota: false });
  });
  afterAll(() => sb.close());
  beforeEach(() => {
    sb.admin.reset();
    api = spotifyClient(sb, sb.admin.connect({ userId: 'ana.runs' }).access_token);
  });

  const withEpisodes = (userId: string) =>
    sb.admin
      .user(userId)
      .playlists.filter((p) => p.owner === userId)
      .map((p) => p.id)
      .filter((id) => sb.admin.playlistUris(id).some((u) => u?.startsWith('spotify:episode:')));

  it('users keep episodes among their songs; they come as episode objects with their show', async () => {
    expect(withEpisodes('ana.runs')).toHaveLength(1);
    expect(withEpisodes('ben.pace')).toHaveLength(1);
    const id = withEpisodes('ana.runs')[0]!;
    const page = await api<Page>('GET', `/playlists/${id}/items?limit=50`);
    expect(validator.validate('/playlists/{playlist_id}/items', 'GET', 200, page.body)).toEqual([]);
    const episodes = page.body.items.filter((i) => i.item?.type === 'episode');
    expect(episodes.length).toBe(3);
    for (const e of episodes) {
      expect(e.is_local).toBe(false);
      expect(e.item?.uri).toMatch(/^spotify:episode:[0-9A-Za-z]{22}$/);
      expect(e.item?.show?.name).toBeTruthy();
    }
    expect(page.body.items.filter((i) => i.item?.type === 'track').length).toBe(page.body.total - 3);
  });

  it('adds, replaces and removes episode URIs; unknown ones and other kinds are refused', async () => {
    const id = sb.admin.createPlaylist('ana.runs', { name: 'Long run', trackIds: [sb.world.trackId(4)] }).id;
    const episode = sb.admin.playlistUris(withEpisodes('ana.runs')[0]!).find((u) => u?.includes('episode'))!;
    const add = await api('POST', `/playlists/${id}/items`, { uris: [episode], position: 0 });
    expect(add.status).toBe(201);
    expect(sb.admin.playlistUris(id)).toEqual([episode, `spotify:track:${sb.world.trackId(4)}`]);
    const del = await api('DELETE', `/playlists/${id}/items`, { items: [{ uri: episode }] });
    expect(del.status).toBe(200);
    expect(sb.admin.playlistUris(id)).toEqual([`spotify:track:${sb.world.trackId(4)}`]);
    expect((await api('PUT', `/playlists/${id}/items`, { uris: [episode, episode] })).status).toBe(200);
    expect(sb.admin.playlistUris(id)).toEqual([episode, episode]);
    expect(sb.admin.playlistItems(id)).toEqual([null, null]);
    const unknown = await api('POST', `/playlists/${id}/items`, {
      uris: ['spotify:episode:0000000000000000000000'],
    });
    expect(unknown.status).toBe(400);
    const show = `spotify:show:${sb.world.ids.encode('show', 1)}`;
    expect((await api('POST', `/playlists/${id}/items`, { uris: [show] })).status).toBe(400);
  });
});
