// Artist catalogs on an extended-quota installation (no daily quota, a world that keeps the multi-gets):
// up to 20 of an artist's releases in one `GET /albums?ids=`, and listing pages of 50 once the app is
// known to be one; every track read as one call a release reads it.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLibraryHarness, type LibraryHarness } from '../../test/library-harness.ts';
import { priorityCode } from '../spotify/budget.ts';

let h: LibraryHarness;
beforeAll(async () => {
  h = await startLibraryHarness({ seed: 10_607, extendedQuota: true });
});
afterAll(() => h.close());

/** An artist's albums and singles (the default `include_groups`). */
function ownReleases(i: number) {
  const { catalog } = h.sandbox.world;
  return catalog.artists[i]!.releases.map((r) => catalog.releases[r]!).filter(
    (r) => r.albumType === 'album' || r.albumType === 'single',
  );
}
/** Artists with between `min` and `max` albums and singles, in world order. */
function artistsWith(count: number, min: number, max: number) {
  const out: number[] = [];
  for (let i = 1; i < h.sandbox.world.catalog.artists.length && out.length < count; i++) {
    const n = ownReleases(i).length;
    if (n >= min && n <= max) out.push(i);
  }
  if (out.length < count) throw new Error('not enough such artists in the world');
  return out;
}
const unlimited = { SPOTIFY_DAILY_QUOTA: 'unlimited' };
/** A new runner who follows these artists, connected with these settings, their library read. */
async function followAndRead(artists: number[], config: Record<string, string>) {
  const p = h.libraryProcess({ config });
  const u = h.spotifyUser();
  h.sandbox.admin.followArtists(
    u.id,
    artists.map((i) => h.sandbox.world.ids.encode('artist', i)),
  );
  const userId = await h.connect(p, u.id);
  await h.drain(p, userId);
  return { p, u, userId };
}

describe('artist catalogs with extended quota', () => {
  it('reads up to 20 releases a call and, once the app is known to have the multi-gets, lists 50 a page', async () => {
    const artists = artistsWith(2, 21, 45);
    const { p, u, userId } = await followAndRead(artists, unlimited);
    const urls = h.apiRequests(u.id).map((r) => new URL(r.url, 'http://x'));
    const multiGets = urls.filter((x) => x.pathname.endsWith('/albums') && !x.pathname.includes('/artists/'));
    const listings = urls.filter((x) => /\/artists\/[^/]+\/albums$/.test(x.pathname));
    const singleReads = urls.filter((x) => /\/albums\/[^/]+(\/tracks)?$/.test(x.pathname));

    // Every release in exactly one multi-get of at most 20, none read alone.
    const asked = multiGets.flatMap((x) => x.searchParams.get('ids')!.split(','));
    const releases = artists.flatMap(ownReleases);
    expect([...asked].sort()).toEqual(releases.map((r) => h.sandbox.world.ids.encode('album', r.r)).sort());
    expect(multiGets.every((x) => x.searchParams.get('ids')!.split(',').length <= 20)).toBe(true);
    // (A new runner's releases go a few of each artist a call, so a call may hold both artists' releases.)
    expect(multiGets.length).toBeGreaterThanOrEqual(Math.ceil(releases.length / 20));
    expect(multiGets.length).toBeLessThanOrEqual(
      artists.reduce((n, i) => n + Math.ceil(ownReleases(i).length / 20), 0),
    );
    expect(singleReads).toEqual([]);

    // Before the first multi-get the app's kind is unknown (10 a page); after it, 50.
    const firstMultiGet = urls.indexOf(multiGets[0]!);
    expect(
      listings.filter((x) => urls.indexOf(x) < firstMultiGet).map((x) => x.searchParams.get('limit')),
    ).toEqual(expect.arrayContaining(['10']));
    const after = listings.filter((x) => urls.indexOf(x) > firstMultiGet);
    expect(after.length).toBeGreaterThan(0);
    expect(after.every((x) => x.searchParams.get('limit') === '50')).toBe(true);

    const tracks = new Set((await p.library.listMatchCandidates(userId)).map((c) => c.trackId));
    for (const r of releases)
      for (let t = 0; t < r.trackCount; t++)
        expect(tracks.has(h.sandbox.world.trackId(r.firstG + t))).toBe(true);
  });

  it("reads a new runner's catalogs in breadth: their artists' listings first, then a few releases of each a call", async () => {
    const artists = artistsWith(9, 6, 20).slice(3);
    const { u } = await followAndRead(artists, unlimited);
    const urls = h.apiRequests(u.id).map((r) => new URL(r.url, 'http://x'));
    const isListing = (x: URL) => /\/artists\/[^/]+\/albums$/.test(x.pathname);
    const isMultiGet = (x: URL) => x.pathname.endsWith('/albums') && !isListing(x);
    const multiGets = urls.filter(isMultiGet);
    expect(multiGets.length).toBeGreaterThanOrEqual(2);
    // Until a multi-get has answered, the app's kind is unknown (a listing asks for 10 a page): the first
    // artist goes alone. Then every other artist is listed (50 a page) before the next release is read...
    const [first, second] = [urls.indexOf(multiGets[0]!), urls.indexOf(multiGets[1]!)];
    const between = urls.slice(first + 1, second);
    expect(between.every(isListing)).toBe(true);
    expect(new Set(between.map((x) => x.pathname)).size).toBe(artists.length - 1);
    expect(between.every((x) => x.searchParams.get('limit') === '50')).toBe(true);
    // ... and the next multi-get holds releases of every one of them, none with more than its share.
    const artistOf = new Map(
      artists.flatMap((i) =>
        ownReleases(i).map((r) => [h.sandbox.world.ids.encode('album', r.r), i] as const),
      ),
    );
    const ids = multiGets[1]!.searchParams.get('ids')!.split(',');
    expect(ids).toHaveLength(20);
    const perArtist = new Map<number, number>();
    for (const id of ids) perArtist.set(artistOf.get(id)!, (perArtist.get(artistOf.get(id)!) ?? 0) + 1);
    expect(perArtist.size).toBe(artists.length - 1);
    expect(Math.max(...perArtist.values())).toBeLessThanOrEqual(Math.ceil(20 / (artists.length - 1)) + 1);
  });

  it("reads a new runner's catalogs first only while their lookups keep up: 300 tracks ahead at most", async () => {
    // Four artists no other test reads, with well over 300 tracks between them.
    const artists = artistsWith(6, 21, 45).slice(2);
    const { p, userId } = await followAndRead(artists, unlimited);
    // The harness records the lookups without running them: every catalog track read waits for its tempo.
    const queued = h.tempoQueued.filter((q) => q.userId === userId).length;
    expect(queued).toBeGreaterThan(400);
    const slots = (
      await h.db.db.execute<{ priority: number }>(
        sql`select priority from spotify_call_slots where user_key = ${userId} order by id`,
      )
    ).rows.map((r) => r.priority);
    const first = priorityCode('first_catalogs');
    const later = priorityCode('catalog_expansion');
    // The first calls at first_catalogs; once 300 tracks wait, the rest at catalog_expansion, none back.
    expect(slots.filter((x) => x === first).length).toBeGreaterThan(0);
    expect(slots.filter((x) => x === later).length).toBeGreaterThan(0);
    expect(slots.lastIndexOf(first)).toBeLessThan(slots.indexOf(later));
    // When the lookups have answered (here: queued over an hour ago, as a lost job), first again.
    await h.db.db.execute(sql`update library_tracks set tempo_queued_at = now() - interval '2 hours'`);
    await h.db.db.execute(
      sql`update library_artists set catalog_checked_at = now() - interval '31 days' where id = ${h.sandbox.world.ids.encode('artist', artists[0]!)}`,
    );
    await p.library.service.statusPageOpened(userId);
    await h.drain(p, userId);
    const after = (
      await h.db.db.execute<{ priority: number }>(
        sql`select priority from spotify_call_slots where user_key = ${userId} order by id`,
      )
    ).rows.map((r) => r.priority);
    expect(after.length).toBeGreaterThan(slots.length);
    expect(
      after
        .slice(slots.length)
        .filter((x) => x === later || x === first)
        .at(-1),
    ).toBe(first);
  });

  it('asks for no multi-get on an installation with a daily quota (development mode)', async () => {
    const [artist] = artistsWith(1, 3, 10);
    const { u } = await followAndRead([artist!], { SPOTIFY_DAILY_QUOTA: '1000' });
    const paths = h.apiRequests(u.id).map((r) => new URL(r.url, 'http://x').pathname);
    expect(paths.filter((x) => x.endsWith('/v1/albums'))).toEqual([]);
    expect(paths.filter((x) => /\/v1\/albums\/[^/]+$/.test(x))).toHaveLength(ownReleases(artist!).length);
  });
});
