// A runner who disconnects and connects again the same day has often used their share of the day already.
// Their own library's first read (Liked Songs, playlists, followed artists) is what they wait for, so it
// goes beyond that share; the artist catalogs still wait. Simulated Spotify, real test PostgreSQL.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLibraryHarness, type LibraryHarness, type LibraryProcess } from '../../test/library-harness.ts';

let h: LibraryHarness;
let p: LibraryProcess;
beforeAll(async () => {
  h = await startLibraryHarness({ seed: 10_404 });
  // The installation's day: 400 calls; two runners today share 360 of them (180 each).
  p = h.libraryProcess({ config: { SPOTIFY_DAILY_QUOTA: '400' } });
});
afterAll(() => h.close());

const sourcesOf = async (userId: string) =>
  (await p.library.service.sources(userId, { timeZone: null })).sources;

/** Fills the runner's share of the day with calls made before, as a morning's first connect would. */
async function spendShare(userId: string, other: string) {
  const rows = await h.db.db.execute<{ budget: string }>(
    sql`select distinct budget from spotify_call_slots where user_key = ${userId}`,
  );
  const budget = rows.rows[0]!.budget;
  await h.db.db.execute(sql`
    insert into spotify_call_slots (budget, at, priority, user_key)
    select ${budget}, clock_timestamp() - interval '2 hours', 2, u
    from (values (${userId}), (${other})) as r(u), generate_series(1, 180)
    where u = ${userId} or generate_series = 1`);
}

describe('a reconnect the same day', () => {
  it('reads the runner’s own library at once, whatever their share; the catalogs wait for the share', async () => {
    const other = await h.connect(p, h.spotifyUser({ username: 'same-day-other', liked: 5 }).id, {
      catalogs: false,
    });
    const u = h.spotifyUser({
      username: 'same-day-runner',
      liked: 260,
      owned: 3,
      ownedSize: [60, 80],
      followedArtists: 60,
    });
    const userId = await h.connect(p, u.id);
    await spendShare(userId, other);
    // Today's refusal for an ordinary scan: the share is used.
    expect((await p.spotify.connect.workWait('library_scan', userId))?.reason).toBe('share');

    const { deferred } = await h.drain(p, userId);
    const sources = await sourcesOf(userId);
    const spotifyUser = h.sandbox.admin.user(u.id);
    const liked = sources.find((s) => s.kind === 'liked_songs')!;
    expect(liked.stats.known_tracks).toBe(spotifyUser.likedSongs);
    expect(liked.progress.state).toBe('idle');
    const readable = sources.filter((s) => s.kind === 'playlist' && s.enabled);
    expect(readable.length).toBeGreaterThan(0);
    for (const s of readable) expect(s.progress.state, s.name).toBe('idle');
    const followed = sources.find((s) => s.kind === 'followed_artists')!;
    expect(followed.progress.state).toBe('idle');
    expect(followed.timestamp_last_job_finished).not.toBeNull();
    // The catalogs are no first read of the runner's own library: they wait for the share.
    expect(deferred).toBeDefined();
    expect(deferred!.getTime()).toBeGreaterThan(Date.now() + 20 * 3600_000);
    expect(sources.find((s) => s.kind === 'artist_catalogs')!.progress.state).toBe('waiting');
  });
});
