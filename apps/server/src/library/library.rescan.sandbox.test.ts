// Rescans against the simulated Spotify: after the world changes (new liked songs, an edited playlist,
// new and dropped follows, a new release) a rescan reads only what changed; with nothing changed it
// costs one call per source. Counted in the sandbox's request log.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { priorityCode } from '../spotify/budget.ts';
import { startLibraryHarness, type LibraryHarness, type LibraryProcess } from '../../test/library-harness.ts';

let h: LibraryHarness;
let p: LibraryProcess;
beforeAll(async () => {
  // 200 artists, so a test late in the file still finds an artist no scan has met.
  h = await startLibraryHarness({ seed: 10_404, size: 'small' });
  p = h.libraryProcess();
});
afterAll(() => h.close());

/** Successful requests of a user since `from` (an index into the user's log). */
const since = (spotifyUserId: string, from: number) => h.apiRequests(spotifyUserId).slice(from);
const paths = (rs: Array<{ url: string }>) => rs.map((r) => r.url.replace(/^\/spotify\/api\/v1/, ''));

/** The rescan the schedule would ask for now (as if the last one was long ago). */
async function rescan(userId: string) {
  await h.db.db.execute(
    sql`update library_users set rescan_requested_at = now() - interval '7 hours' where user_id = ${userId}`,
  );
  expect(await p.library.service.statusPageOpened(userId)).toBe(true);
  await h.drain(p, userId);
}

/** Tracks of the world no user has liked, to like now. */
function unlikedTracks(n: number, spotifyUserId: string): string[] {
  const liked = new Set(h.sandbox.world.user(spotifyUserId)!.liked.map((l) => l.g));
  const out: string[] = [];
  for (let g = 1; out.length < n; g += 7) if (!liked.has(g)) out.push(h.sandbox.world.trackId(g));
  return out;
}

describe('rescans', () => {
  it('with nothing changed: one call for discovery, Liked Songs and Followed artists, none for playlists', async () => {
    const u = h.spotifyUser({ liked: 120, owned: 2, followedArtists: 3, favouriteArtists: 4 });
    const userId = await h.connect(p, u.id);
    await p.library.service.changeSource(
      userId,
      { kind: 'artist_catalogs', source_id: 'artist_catalogs', enabled: false },
      { timeZone: null },
    );
    await h.drain(p, userId);
    const mark = h.apiRequests(u.id).length;
    await rescan(userId);
    expect(paths(since(u.id, mark)).sort()).toEqual(
      [
        '/me/following?type=artist&limit=50',
        '/me/playlists?offset=0&limit=50',
        '/me/tracks?offset=0&limit=50',
      ].sort(),
    );
  });

  it("reads a new runner's followed artists with their first pages, a rescan's as a background scan", async () => {
    const u = h.spotifyUser({ liked: 5, followedArtists: 3, favouriteArtists: 2 });
    const userId = await h.connect(p, u.id);
    await h.drain(p, userId);
    // The ledger of the user's followed-artists calls: purpose and priority code, with how many.
    const followed = async () =>
      (
        await h.db.db.execute<{ purpose: string; priority: number; calls: number }>(
          sql`select purpose, priority, calls from spotify_call_ledger
              where user_key = ${userId} and purpose like 'scan:followed%' order by purpose`,
        )
      ).rows;
    // Before any catalog (none is read before them), so with Liked Songs' first pages, not behind the writes.
    expect(await followed()).toEqual([
      { purpose: 'scan:followed-first', priority: priorityCode('first_pages'), calls: 1 },
    ]);
    await rescan(userId);
    expect(await followed()).toEqual([
      { purpose: 'scan:followed', priority: priorityCode('library_scan'), calls: 1 },
      { purpose: 'scan:followed-first', priority: priorityCode('first_pages'), calls: 1 },
    ]);
  });

  it('an open status page asks for none while the first read (or the last rescan) is still under way', async () => {
    const u = h.spotifyUser({ liked: 120, owned: 1, followedArtists: 2, favouriteArtists: 3 });
    const userId = await h.connect(p, u.id);
    // Five minutes on (the connect counts as the last ask), with the first read still waiting for Spotify.
    const fiveMinutesOn = () =>
      h.db.db.execute(
        sql`update library_users set rescan_requested_at = now() - interval '6 minutes' where user_id = ${userId}`,
      );
    await fiveMinutesOn();
    // Discovery, Liked Songs and Followed artists are still to be read: asking again would add nothing.
    expect(await p.library.service.statusPageOpened(userId)).toBe(false);
    await p.library.scans.runUnit(userId); // part of the way (5 calls)
    expect(await p.library.service.statusPageOpened(userId)).toBe(false);
    await h.drain(p, userId);
    await fiveMinutesOn();
    const mark = h.apiRequests(u.id).length;
    expect(await p.library.service.statusPageOpened(userId)).toBe(true); // read: a rescan may be asked
    await h.drain(p, userId);
    expect(paths(since(u.id, mark))).toContain('/me/tracks?offset=0&limit=50');
  });

  it('a status page open as a new runner’s first read ends asks for no second read minutes later', async () => {
    const u = h.spotifyUser({ liked: 60, owned: 1, followedArtists: 2, favouriteArtists: 3 });
    const userId = await h.connect(p, u.id, { catalogs: false });
    await h.drain(p, userId);
    // Five minutes after the connect's ask, one after the read ended: a visit (a process's first poll).
    const age = (column: string, table: string, minutes: number) =>
      h.db.db.execute(
        sql.raw(
          `update ${table} set ${column} = now() - interval '${minutes} minutes' where user_id = '${userId}'`,
        ),
      );
    await age('rescan_requested_at', 'library_users', 6);
    await age('discovered_at', 'library_users', 1);
    await age('last_finished_at', 'library_sources', 1);
    const asked = () =>
      h.db.db.execute<{ at: string }>(
        sql`select rescan_requested_at::text as at from library_users where user_id = ${userId}`,
      );
    const before = (await asked()).rows[0]!.at;
    await h.libraryProcess().library.service.statusPagePolled(userId);
    expect((await asked()).rows[0]!.at).toBe(before);
    // Read six minutes ago: a visit asks.
    await age('discovered_at', 'library_users', 6);
    await age('last_finished_at', 'library_sources', 6);
    const mark = h.apiRequests(u.id).length;
    await h.libraryProcess().library.service.statusPagePolled(userId);
    expect((await asked()).rows[0]!.at).not.toBe(before);
    await h.drain(p, userId);
    expect(paths(since(u.id, mark))).toContain('/me/tracks?offset=0&limit=50');
  });

  it('reads new liked songs newest first, stopping at the first page with nothing new', async () => {
    const u = h.spotifyUser({ liked: 140, favouriteArtists: 4 });
    const userId = await h.connect(p, u.id, { catalogs: false });
    await h.drain(p, userId);
    const fresh = unlikedTracks(60, u.id);
    h.sandbox.admin.like(u.id, fresh);
    const mark = h.apiRequests(u.id).length;
    const queued = h.tempoQueued.length;
    await rescan(userId);
    const reads = paths(since(u.id, mark)).filter((x) => x.startsWith('/me/tracks'));
    // 60 new: page 1 all new, page 2 has 10 new, page 3 nothing new.
    expect(reads).toEqual([
      '/me/tracks?offset=0&limit=50',
      '/me/tracks?offset=50&limit=50',
      '/me/tracks?offset=100&limit=50',
    ]);
    const liked = (await p.library.service.sources(userId, { timeZone: null })).sources[0]!;
    expect(liked.stats.known_tracks).toBe(200);
    // Their tempo lookups are queued (now, or earlier if a catalog read had met the track already).
    const queuedIds = new Set(h.tempoQueued.map((q) => q.track.spotifyId));
    for (const id of fresh) expect(queuedIds.has(id)).toBe(true);
    expect(h.tempoQueued.length).toBeGreaterThan(queued);
  });

  it('unliked songs leave Liked Songs through a full pass', async () => {
    const u = h.spotifyUser({ liked: 70, favouriteArtists: 3 });
    const userId = await h.connect(p, u.id, { catalogs: false });
    await h.drain(p, userId);
    const gone = h.sandbox.world.trackId(h.sandbox.world.user(u.id)!.liked[3]!.g);
    h.sandbox.admin.unlike(u.id, [gone]);
    // A full pass is due at most weekly: the last one is old enough here.
    await h.db.db.execute(
      sql`update library_sources set full_read_at = now() - interval '8 days' where user_id = ${userId}`,
    );
    await rescan(userId);
    await rescan(userId); // the incremental check found more held than listed; now the full pass
    const candidates = await p.library.listMatchCandidates(userId);
    expect(candidates.filter((c) => c.fromLikedSongs)).toHaveLength(69);
    expect(candidates.find((c) => c.trackId === gone)?.fromLikedSongs ?? false).toBe(false);
  });

  it('reads only the playlist whose snapshot changed, and drops a removed track from it', async () => {
    const u = h.spotifyUser({ liked: 20, owned: 3, ownedSize: [10, 20], favouriteArtists: 3 });
    const userId = await h.connect(p, u.id, { catalogs: false });
    await h.drain(p, userId);
    const [edited, ...others] = u.playlists;
    const before = h.sandbox.admin.playlistItems(edited!.id).filter((x): x is string => x !== null);
    const added = unlikedTracks(2, u.id);
    h.sandbox.admin.addToPlaylist(edited!.id, added);
    h.sandbox.admin.removeFromPlaylist(edited!.id, [before[0]!]);
    const mark = h.apiRequests(u.id).length;
    await rescan(userId);
    const reads = paths(since(u.id, mark)).filter((x) => x.startsWith('/playlists/'));
    expect(reads.every((x) => x.startsWith(`/playlists/${edited!.id}/items`))).toBe(true);
    expect(reads.length).toBeGreaterThan(0);
    for (const o of others) expect(reads.some((x) => x.includes(o.id))).toBe(false);
    const candidates = new Set((await p.library.listMatchCandidates(userId)).map((c) => c.trackId));
    for (const id of added) expect(candidates.has(id)).toBe(true);
    const source = (await p.library.service.sources(userId, { timeZone: null })).sources.find(
      (s) => s.source_id === edited!.id,
    )!;
    const now = new Set(h.sandbox.admin.playlistItems(edited!.id).filter((x): x is string => x !== null));
    expect(source.stats.known_tracks).toBe(now.size);
  });

  it('a new playlist appears and a deleted one goes', async () => {
    const u = h.spotifyUser({ liked: 5, owned: 1, favouriteArtists: 2 });
    const userId = await h.connect(p, u.id, { catalogs: false });
    await h.drain(p, userId);
    const created = h.sandbox.admin.createPlaylist(u.id, {
      name: 'New intervals',
      trackIds: unlikedTracks(3, u.id),
    });
    await rescan(userId);
    let ids = (await p.library.service.sources(userId, { timeZone: null })).sources.map((s) => s.source_id);
    expect(ids).toContain(created.id);
    // "Deleting" is unfollowing it: the world drops it from the user's list.
    h.sandbox.world.user(u.id)!.playlists = h.sandbox.world
      .user(u.id)!
      .playlists.filter((x) => h.sandbox.world.playlistId(x) !== created.id);
    await rescan(userId);
    ids = (await p.library.service.sources(userId, { timeZone: null })).sources.map((s) => s.source_id);
    expect(ids).not.toContain(created.id);
  });

  it('followed artists: a new follow and an unfollow are found; the catalog of the new one is read', async () => {
    const u = h.spotifyUser({ liked: 3, followedArtists: 3, favouriteArtists: 3 });
    const userId = await h.connect(p, u.id);
    await h.drain(p, userId);
    const world = h.sandbox.world;
    const followed = world.user(u.id)!.followedArtists;
    const dropped = world.ids.encode('artist', followed[0]!);
    // An artist no scan has met yet (catalogs are shared: a read one would cost nothing).
    const met = await h.db.db.execute<{ id: string }>(sql`select id from library_artists`);
    const known = new Set(met.rows.map((r) => r.id));
    const fresh = [...Array(world.catalog.artists.length).keys()].find(
      (i) =>
        i > 0 &&
        !known.has(world.ids.encode('artist', i)) &&
        (world.catalog.artists[i]?.releases.length ?? 0) > 0,
    )!;
    const freshId = world.ids.encode('artist', fresh);
    h.sandbox.admin.unfollowArtists(u.id, [dropped]);
    h.sandbox.admin.followArtists(u.id, [freshId]);
    const mark = h.apiRequests(u.id).length;
    await rescan(userId);
    const after = paths(since(u.id, mark));
    expect(after.some((x) => x.startsWith(`/artists/${freshId}/albums`))).toBe(true);
    const followedSource = (await p.library.service.sources(userId, { timeZone: null })).sources.find(
      (s) => s.kind === 'followed_artists',
    )!;
    expect(followedSource.progress.items_total).toBe(3);
    const candidates = await p.library.listMatchCandidates(userId);
    const own = world.catalog.artists[fresh]!.releases.map((r) => world.catalog.releases[r]!);
    const album = own.find((r) => r.albumType === 'album' || r.albumType === 'single')!;
    expect(candidates.some((c) => c.trackId === world.trackId(album.firstG))).toBe(true);
  });
});
