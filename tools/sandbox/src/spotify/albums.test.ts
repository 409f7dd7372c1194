// Albums of more than 50 tracks (box sets, large compilations): GET /albums/{id} embeds the first 50
// and a scanner must follow tracks.next. The demo user follows an artist with one.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../index.ts';
import { spotifyClient } from '../test-support.ts';
import { World } from '../world/world.ts';

type Page<T = Record<string, unknown>> = { items: T[]; next: string | null; total: number; limit: number };
type Album = Record<string, unknown> & { tracks: Page; total_tracks: number; album_type: string };

describe('albums of more than 50 tracks', () => {
  let sb: Sandbox;
  let api: ReturnType<typeof spotifyClient>;
  beforeAll(async () => {
    sb = await startSandbox({ size: 'tiny', seed: 3, rateLimit: false, dailyQuota: false });
    api = spotifyClient(sb, sb.admin.connect({ userId: 'ana.runs' }).access_token);
  });
  afterAll(() => sb.close());

  const path = (url: string) => url.slice(sb.baseUrls.spotifyApi.length);

  /** Walks a followed artist's releases the way a scanner does, looking for albums over 50 tracks. */
  async function bigAlbumsOfFollowedArtists(): Promise<string[]> {
    const followed = await api<{ artists: Page<{ id: string }> }>(
      'GET',
      '/me/following?type=artist&limit=50',
    );
    const out: string[] = [];
    for (const a of followed.body.artists.items) {
      let url: string | null = `/artists/${a.id}/albums?limit=10&include_groups=album,single,compilation`;
      while (url) {
        const page: { body: Page<{ id: string; total_tracks: number }> } = await api('GET', url);
        for (const al of page.body.items) if (al.total_tracks > 50) out.push(al.id);
        url = page.body.next ? path(page.body.next) : null;
      }
    }
    return out;
  }

  it('the demo user follows an artist with a box set; the album embeds 50 tracks and links the rest', async () => {
    const big = await bigAlbumsOfFollowedArtists();
    expect(big.length).toBeGreaterThan(0);
    const album = (await api<Album>('GET', `/albums/${big[0]}`)).body;
    expect(album.total_tracks).toBeGreaterThan(50);
    expect(album.total_tracks).toBeLessThanOrEqual(300);
    expect(album.album_type).toBe('compilation');
    expect(album.tracks.items).toHaveLength(50);
    expect(album.tracks.total).toBe(album.total_tracks);
    expect(album.tracks.next).not.toBeNull();
    const ids = album.tracks.items.map((t) => t['id'] as string);
    let next: string | null = album.tracks.next;
    while (next) {
      const page: { body: Page } = await api('GET', path(next).replace(/limit=\d+/, 'limit=50'));
      ids.push(...page.body.items.map((t) => t['id'] as string));
      next = page.body.next;
    }
    expect(ids).toHaveLength(album.total_tracks);
    expect(new Set(ids).size).toBe(ids.length);
    // A box set reissues recordings: the same ISRC as the original release's track.
    const g = sb.world.trackG(ids[60] ?? (ids.at(-1) as string)) as number;
    const original = sb.world.catalog.recordingOf(g);
    expect(original).not.toBe(g);
    expect(sb.world.catalog.track(g).isrc).toBe(sb.world.catalog.track(original).isrc);
  });

  it('every world size has box sets and large various-artists compilations, and the demo user follows one', () => {
    for (const size of ['tiny', 'small', 'default'] as const) {
      const w = new World({ seed: 20261122, size, now: Date.UTC(2026, 10, 1) });
      const big = w.catalog.releases.filter((r) => r.trackCount > 50);
      expect(big.length, size).toBeGreaterThan(0);
      expect(big.every((r) => r.trackCount <= 300)).toBe(true);
      expect(big.some((r) => r.kind === 'va')).toBe(true);
      const ana = w.user('ana.runs')!;
      const followsBox = ana.followedArtists.some((i) =>
        w.catalog.artists[i]!.releases.some((r) => w.catalog.releases[r]!.trackCount > 50),
      );
      expect(followsBox, size).toBe(true);
    }
  });
});
