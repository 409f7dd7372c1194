// Artist catalogs against the simulated Spotify: every track of every album and single of the library's
// artists, read once per installation (a second user costs no call), a release read across several
// pages (`tracks.next`), and a new release found by the low-rate check of a read catalog.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLibraryHarness, type LibraryHarness } from '../../test/library-harness.ts';
import { priorityCode, type Priority } from '../spotify/budget.ts';
import { TEMPO_PRIORITY } from '../tempo/tempo.jobs.ts';
import { DEFAULT_TARGETS, targetName } from '../playlists/matching.ts';

let h: LibraryHarness;
beforeAll(async () => {
  h = await startLibraryHarness({ seed: 10_606 });
});
afterAll(() => h.close());

/** Artists that no scan in this file has met yet, with at most `maxReleases` albums and singles. */
async function freshArtists(count: number, maxReleases = 10) {
  const met = await h.db.db.execute<{ id: string }>(sql`select id from library_artists`);
  const known = new Set(met.rows.map((r) => r.id));
  const { catalog, ids } = h.sandbox.world;
  const out: number[] = [];
  for (let i = 1; i < catalog.artists.length && out.length < count; i++) {
    const own = ownReleases(i);
    if (own.length > 0 && own.length <= maxReleases && !known.has(ids.encode('artist', i))) out.push(i);
  }
  if (out.length < count) throw new Error('not enough fresh artists in the world');
  return out;
}
/** An artist's albums and singles (the default `include_groups`), newest first as Spotify lists them. */
function ownReleases(i: number) {
  const { catalog } = h.sandbox.world;
  return catalog.artists[i]!.releases.map((r) => catalog.releases[r]!).filter(
    (r) => r.albumType === 'album' || r.albumType === 'single',
  );
}
/** A Spotify user who follows exactly these artists and has nothing else. */
function follower(artists: number[]) {
  const u = h.spotifyUser();
  h.sandbox.admin.followArtists(
    u.id,
    artists.map((i) => h.sandbox.world.ids.encode('artist', i)),
  );
  return u;
}
const catalogCalls = (spotifyUserId: string, from = 0) =>
  h
    .apiRequests(spotifyUserId)
    .slice(from)
    .map((r) => r.url)
    .filter((u) => u.includes('/artists/') || u.includes('/albums/'));

describe('artist catalogs', () => {
  it('read every album and single once, and cost a second user nothing', async () => {
    const artists = await freshArtists(2);
    const p = h.libraryProcess();
    const a = follower(artists);
    const userA = await h.connect(p, a.id);
    await h.drain(p, userA);
    const calls = catalogCalls(a.id);
    const releases = artists.flatMap(ownReleases);
    // One listing page per artist (≤ 10 releases) and one call per release.
    expect(calls.filter((u) => u.includes('/albums?'))).toHaveLength(2);
    expect(calls.filter((u) => /\/albums\/[A-Za-z0-9]+$/.test(u)).sort()).toEqual(
      releases.map((r) => `/spotify/api/v1/albums/${h.sandbox.world.ids.encode('album', r.r)}`).sort(),
    );
    expect(
      calls.every((u) => !u.includes('include_groups=') || u.includes('include_groups=album%2Csingle')),
    ).toBe(true);
    const tracks = new Set((await p.library.listMatchCandidates(userA)).map((c) => c.trackId));
    for (const r of releases)
      for (let t = 0; t < r.trackCount; t++)
        expect(tracks.has(h.sandbox.world.trackId(r.firstG + t))).toBe(true);
    const followed = (await p.library.service.sources(userA, { timeZone: null })).sources.find(
      (s) => s.kind === 'followed_artists',
    )!;
    expect(followed.stats.known_tracks).toBe(tracks.size);

    const b = follower(artists);
    const userB = await h.connect(p, b.id);
    await h.drain(p, userB);
    expect(catalogCalls(b.id)).toEqual([]);
    expect(new Set((await p.library.listMatchCandidates(userB)).map((c) => c.trackId))).toEqual(tracks);
  });

  it('follows tracks.next when a release embeds only its first tracks', async () => {
    const [artist] = await freshArtists(1);
    const release = ownReleases(artist!).find((r) => r.trackCount >= 4)!;
    const releaseId = h.sandbox.world.ids.encode('album', release.r);
    // The world as Spotify does it for long releases: the album embeds a first page (here 3) and a `next`.
    const firstPageOnly: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (!String(input).endsWith(`/albums/${releaseId}`)) return res;
      const album = (await res.json()) as {
        tracks: { items: unknown[]; limit: number; next: string | null };
      };
      album.tracks.items = album.tracks.items.slice(0, 3);
      album.tracks.limit = 3;
      album.tracks.next = `${h.sandbox.baseUrls.spotifyApi}/albums/${releaseId}/tracks?offset=3&limit=3`;
      return new Response(JSON.stringify(album), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    };
    const p = h.libraryProcess({ spotify: { fetch: firstPageOnly } });
    const u = follower([artist!]);
    const userId = await h.connect(p, u.id);
    await h.drain(p, userId);
    expect(catalogCalls(u.id).filter((x) => x.includes(`/albums/${releaseId}`))).toEqual([
      `/spotify/api/v1/albums/${releaseId}`,
      `/spotify/api/v1/albums/${releaseId}/tracks?offset=3&limit=50`,
    ]);
    const tracks = new Set((await p.library.listMatchCandidates(userId)).map((c) => c.trackId));
    for (let t = 0; t < release.trackCount; t++)
      expect(tracks.has(h.sandbox.world.trackId(release.firstG + t))).toBe(true);
  });

  it('finds a new release when a read catalog is checked again, with one call when nothing changed', async () => {
    const [artist] = await freshArtists(1);
    const artistId = h.sandbox.world.ids.encode('artist', artist!);
    const newest = ownReleases(artist!)[0]!;
    const newestId = h.sandbox.world.ids.encode('album', newest.r);
    let released = false;
    // Before its release day the world's listing does not show it.
    const beforeRelease: typeof fetch = async (input, init) => {
      const res = await fetch(input, init);
      if (released || !String(input).includes(`/artists/${artistId}/albums`)) return res;
      const page = (await res.json()) as { items: Array<{ id: string }>; total: number };
      page.items = page.items.filter((x) => x.id !== newestId);
      page.total -= 1;
      return new Response(JSON.stringify(page), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      });
    };
    const p = h.libraryProcess({ spotify: { fetch: beforeRelease } });
    const u = follower([artist!]);
    const userId = await h.connect(p, u.id);
    await h.drain(p, userId);
    const has = async () =>
      (await p.library.listMatchCandidates(userId)).some(
        (c) => c.trackId === h.sandbox.world.trackId(newest.firstG),
      );
    expect(await has()).toBe(false);

    const checkLater = async () => {
      await h.db.db.execute(
        sql`update library_artists set catalog_checked_at = now() - interval '31 days' where id = ${artistId}`,
      );
      await p.library.service.statusPageOpened(userId); // (any unit would do the check)
      const mark = h.apiRequests(u.id).length;
      await h.drain(p, userId);
      return catalogCalls(u.id, mark);
    };
    expect(await checkLater()).toHaveLength(1); // nothing new: one listing page
    released = true;
    const calls = await checkLater();
    expect(calls).toEqual([
      expect.stringContaining(`/artists/${artistId}/albums?`),
      `/spotify/api/v1/albums/${newestId}`,
    ]);
    expect(await has()).toBe(true);
  });

  it('reads the groups the setting names', async () => {
    const [artist] = await freshArtists(1, 40);
    const p = h.libraryProcess({ config: { LIBRARY_CATALOG_GROUPS: 'compilation,album,single' } });
    const u = follower([artist!]);
    const userId = await h.connect(p, u.id);
    await h.drain(p, userId);
    const listings = catalogCalls(u.id).filter((x) => x.includes('/albums?'));
    expect(listings.length).toBeGreaterThan(0);
    for (const l of listings) expect(l).toContain('include_groups=album%2Csingle%2Ccompilation');
  });

  it("reads every artist's albums before anyone's singles", async () => {
    const artists = (await freshArtists(6, 12)).filter((i) => {
      const kinds = new Set(ownReleases(i).map((r) => r.albumType));
      return kinds.has('album') && kinds.has('single');
    });
    expect(artists.length).toBeGreaterThanOrEqual(2);
    const p = h.libraryProcess();
    const u = follower(artists.slice(0, 2));
    const userId = await h.connect(p, u.id);
    await h.drain(p, userId);
    const typeOf = new Map(
      artists
        .slice(0, 2)
        .flatMap(ownReleases)
        .map((r) => [`/spotify/api/v1/albums/${h.sandbox.world.ids.encode('album', r.r)}`, r.albumType]),
    );
    const reads = catalogCalls(u.id)
      .map((x) => typeOf.get(x))
      .filter((x) => x !== undefined);
    expect(reads.lastIndexOf('album')).toBeLessThan(reads.indexOf('single'));
    expect(reads.filter((x) => x === 'album').length).toBeGreaterThanOrEqual(2);
  });

  it("reads a runner's catalogs before others' background work until their first 50 songs are placed", async () => {
    const [early, later] = await freshArtists(2);
    // Development mode as it is, with its daily quota: no multi-get is tried (its 403 would cost a call).
    const p = h.libraryProcess({ config: { SPOTIFY_DAILY_QUOTA: '1000' } });
    /**
     * Every catalog call of a runner counted at `at` in the shared window (none at `not`), and their tempo
     * lookups queued at `lookupsAt`.
     */
    const expectCatalogs = async (
      spotifyUserId: string,
      userId: string,
      at: Priority,
      not: Priority,
      lookupsAt: number,
    ) => {
      const calls = catalogCalls(spotifyUserId).length;
      expect(calls).toBeGreaterThan(1);
      const seen = (
        await h.db.db.execute<{ priority: number; n: number }>(
          sql`select priority, count(*)::int as n from spotify_call_slots where user_key = ${userId}
              group by priority`,
        )
      ).rows.reduce((m, r) => m.set(r.priority, r.n), new Map<number, number>());
      expect(seen.get(priorityCode(at))).toBe(calls);
      expect(seen.get(priorityCode(not))).toBeUndefined();
      const lookups = new Set(h.tempoQueued.filter((q) => q.userId === userId).map((q) => q.priority));
      expect(lookups).toEqual(new Set([lookupsAt]));
    };

    // No songs placed yet: every catalog call goes at first_catalogs, and their tempo lookups before other
    // runners' catalog tracks.
    const a = follower([early!]);
    const userA = await h.connect(p, a.id);
    await h.drain(p, userA);
    await expectCatalogs(a.id, userA, 'first_catalogs', 'catalog_expansion', TEMPO_PRIORITY.firstCatalog);

    // With 50 songs placed, the catalogs wait behind everyone's writes and scans again.
    const b = follower([later!]);
    const userB = await h.connect(p, b.id);
    const repo = p.pacebeat.playlists.repo;
    await repo.createTargets(
      userB,
      DEFAULT_TARGETS.map((t, position) => ({ ...t, name: targetName(t.minBpm, t.maxBpm), position })),
    );
    const [target] = await repo.listTargets(userB);
    const batch = randomUUID();
    const placed = Array.from({ length: 50 }, (_, i) => ({
      recordingKey: `isrc:placed${i}`,
      trackId: `placed${i}`,
      bpm: target!.minBpm + 1,
    }));
    await repo.recordPending(target!.id, batch, placed);
    await repo.confirmBatch(target!.id, batch);
    await h.drain(p, userB);
    await expectCatalogs(b.id, userB, 'catalog_expansion', 'first_catalogs', TEMPO_PRIORITY.catalog);
  });

  it('reads one release a call after the multi-get is refused once (a 403 remembered)', async () => {
    // A development-mode app set up without a daily quota: it tries `GET /albums?ids=` once.
    const artists = await freshArtists(2);
    const p = h.libraryProcess({ config: { SPOTIFY_DAILY_QUOTA: 'unlimited' } });
    const u = follower(artists);
    const userId = await h.connect(p, u.id);
    await h.drain(p, userId);
    const all = h.sandbox.admin.requests({ service: 'spotify-api', userId: u.id });
    const multiGets = all.filter((r) => new URL(r.url, 'http://x').pathname.endsWith('/v1/albums'));
    expect(multiGets.map((r) => r.status)).toEqual([403]);
    expect(catalogCalls(u.id).filter((x) => /\/albums\/[A-Za-z0-9]+$/.test(x))).toHaveLength(
      artists.flatMap(ownReleases).length,
    );
    const tracks = new Set((await p.library.listMatchCandidates(userId)).map((c) => c.trackId));
    for (const r of artists.flatMap(ownReleases))
      expect(tracks.has(h.sandbox.world.trackId(r.firstG))).toBe(true);
  });
});
