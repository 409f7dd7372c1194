// The artist set of a user's library (whose catalogs the enabled sources ask for) and what is read from
// it: which catalog needs a call next, and which of the user's tracks still lack a tempo lookup.
import { and, eq, sql, type SQL } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { libraryUserArtists, libraryUsers } from '../db/library.schema.ts';

/**
 * The artists whose catalogs a user's enabled sources ask for, with a weight (how often the artist
 * appears in the enabled Liked Songs and playlists, plus one when followed): catalog tracks of
 * followed artists when Followed artists is enabled, of every artist of those tracks when Artist
 * catalogs is enabled.
 */
export const artistSetCte = (userId: string) => sql`
  enabled_sources as (
    select id, kind from library_sources where user_id = ${userId} and enabled),
  track_artists as (
    select x.artist_id, count(*)::int as n
    from library_source_tracks st
    join enabled_sources e on e.id = st.source_ref and e.kind in ('liked_songs', 'playlist')
    join library_tracks t on t.id = st.track_id
    cross join lateral unnest(t.artist_ids) as x(artist_id)
    where exists (select 1 from enabled_sources where kind = 'artist_catalogs')
    group by x.artist_id),
  followed as (
    select sa.artist_id from library_source_artists sa
    join enabled_sources e on e.id = sa.source_ref and e.kind = 'followed_artists'),
  artist_set as (
    select coalesce(f.artist_id, ta.artist_id) as artist_id,
           coalesce(ta.n, 0) + case when f.artist_id is null then 0 else 1 end as weight
    from track_artists ta full join followed f on f.artist_id = ta.artist_id)`;

/**
 * The catalog tracks of an artist set (`artists`, a table or CTE with `artist_id`, aliased `a`): the
 * tracks of each artist's releases that credit the artist (a compilation's other tracks are not theirs).
 */
const creditedTracks = (artists: SQL) => sql`
  ${artists} a
  join library_artist_releases ar on ar.artist_id = a.artist_id
  join library_tracks t on t.release_id = ar.release_id and a.artist_id = any(t.artist_ids)`;

/** The user's tracks (`user_tracks`): their enabled Liked Songs and playlists, and their artist set's catalogs. */
export const userTracksCte = (userId: string) => sql`
  ${artistSetCte(userId)},
  user_tracks as (
    select st.track_id from library_source_tracks st
    join enabled_sources e on e.id = st.source_ref and e.kind in ('liked_songs', 'playlist')
    union
    select t.id from ${creditedTracks(sql`artist_set`)})`;

/**
 * Whether library track `t` (aliased `t`) needs a tempo lookup queued: its recording has no cached answer
 * and no lookup was queued under its recording key in the last `staleMs` (a lost or cancelled job), or its
 * cached answer's retry time has passed (an unknown, or a tempo nobody could check yet) and it was not
 * queued since then. Each retry time is thus followed by one lookup, never a stream of them. With
 * `priority`, a recording without an answer that was queued at a lower priority needs one too (a runner's
 * song another runner queued first, for their catalog or own library: createTempoQueueing).
 */
export const needsTempoLookup = (staleMs: number, priority?: number) => {
  const stale = `${Math.round(staleMs)} milliseconds`;
  const queuedLower =
    priority === undefined ? sql`` : sql` or coalesce(t.tempo_queued_priority, 0) < ${priority}`;
  return sql`(
    (not exists (select 1 from tempo_recordings r where r.key = t.recording_key)
     and (t.tempo_queued_key is distinct from t.recording_key
          or t.tempo_queued_at <= now() - ${stale}::interval${queuedLower}))
    or exists (select 1 from tempo_recordings r
               where r.key = t.recording_key and r.retry_at <= now()
                 and (t.tempo_queued_key is distinct from t.recording_key
                      or t.tempo_queued_at is null or t.tempo_queued_at < r.retry_at)))`;
};

export function createArtistSetRepository(db: Db) {
  return {
    /**
     * The next artist of the user's artist set (`refreshUserArtists` first) whose catalog needs a call:
     * catalogs not (fully) read first, then those last checked more than `recheckAfterMs` ago. `step` says
     * what the call is.
     */
    /** Computes the user's artist set again (see `library_user_artists`) when membership changed. */
    async refreshUserArtists(userId: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const stale = await tx
          .update(libraryUsers)
          .set({ artistsStale: false })
          .where(and(eq(libraryUsers.userId, userId), eq(libraryUsers.artistsStale, true)))
          .returning({ userId: libraryUsers.userId });
        if (stale.length === 0) return false;
        await tx.delete(libraryUserArtists).where(eq(libraryUserArtists.userId, userId));
        await tx.execute(sql`
          insert into library_user_artists (user_id, artist_id, weight)
          with ${artistSetCte(userId)}
          select ${userId}::uuid, artist_id, weight from artist_set`);
        return true;
      });
    },

    async nextCatalogArtist(
      userId: string,
      groups: string,
      recheckAfterMs: number,
      listAhead = 0,
    ): Promise<{ artistId: string; step: 'list' | 'releases' | 'recheck' } | undefined> {
      const age = `${Math.round(recheckAfterMs)} milliseconds`;
      // Albums bring the most songs per call: every artist's listing and albums come before anyone's
      // singles (and other release types), most frequent artists first within each. With `listAhead`,
      // the first listing page of the `listAhead` most frequent artists comes before any release is read
      // (their releases are then read a few of each at a time: nextUnreadReleasesAcross).
      const rows = await db.execute<{ artist_id: string; step: 'list' | 'releases' | 'recheck' }>(sql`
        with artist_set as (
          select artist_id, weight, row_number() over (order by weight desc, artist_id) as rank
          from library_user_artists where user_id = ${userId}),
        todo as (
          select s.artist_id, s.weight, s.rank,
                 a.catalog_groups is distinct from ${groups} or a.catalog_total is null
                   or a.catalog_offset < a.catalog_total as listing,
                 a.catalog_read_at is null as unread,
                 a.catalog_total is null as never_listed,
                 exists (select 1 from library_artist_releases ar
                         join library_releases r on r.id = ar.release_id
                         where ar.artist_id = s.artist_id and r.read_at is null and r.album_type = 'album')
                   as albums_left
          from artist_set s join library_artists a on a.id = s.artist_id
          where a.catalog_read_at is null or a.catalog_groups is distinct from ${groups}
             or a.catalog_checked_at <= now() - ${age}::interval)
        select artist_id,
               case when listing then 'list' when unread then 'releases' else 'recheck' end as step
        from todo
        order by case when never_listed and rank <= ${listAhead} then 0
                      when listing or albums_left then 1 when unread then 2 else 3 end,
                 weight desc, artist_id
        limit 1`);
      const r = rows.rows[0];
      return r ? { artistId: r.artist_id, step: r.step } : undefined;
    },

    /**
     * Up to `limit` users whose library holds one of these recordings: a track of an enabled Liked Songs or
     * playlist source, or a catalog track of their artist set. A tempo one runner's lookup found may
     * grow these users' playlists too (a library track is looked up once, by whoever queued it first).
     */
    async holdersOf(recordingKeys: string[], limit: number): Promise<string[]> {
      if (recordingKeys.length === 0) return [];
      const rows = await db.execute<{ user_id: string }>(sql`
        select user_id from (
          select a.user_id from ${creditedTracks(sql`library_user_artists`)}
          where t.recording_key in ${recordingKeys}
          union
          select s.user_id from library_tracks t
          join library_source_tracks st on st.track_id = t.id
          join library_sources s on s.id = st.source_ref and s.enabled
          where t.recording_key in ${recordingKeys}) h
        limit ${limit}`);
      return rows.rows.map((r) => r.user_id);
    },

    /**
     * How many of the user's catalog tracks are queued for a tempo lookup that has not answered yet, counted
     * up to `limit`: how far the catalogs' reading is ahead of the lookups. Queued as catalog tracks (at
     * `maxPriority` or below: a runner's own liked songs, queued at their library's priorities, are tracks of
     * their artists' releases too, and once those were listed a large library counted 300 before its first
     * catalog read), and in the last hour (an older one was lost; a scan queues it again after a day).
     */
    async catalogTracksAwaitingTempo(userId: string, limit: number, maxPriority: number): Promise<number> {
      const rows = await db.execute<{ n: number }>(sql`
        select count(*)::int as n from (
          select 1 from ${creditedTracks(sql`library_user_artists`)}
          where a.user_id = ${userId} and t.tempo_queued_key = t.recording_key
            and t.tempo_queued_at > now() - interval '1 hour'
            and coalesce(t.tempo_queued_priority, 0) <= ${maxPriority}
            and not exists (select 1 from tempo_recordings r where r.key = t.recording_key)
          limit ${limit}) x`);
      return rows.rows[0]?.n ?? 0;
    },

    /**
     * Up to `limit` tracks of the user's enabled sources that need a tempo lookup (`needsTempoLookup`): no
     * tempo yet and a lookup never queued or lost, or an answer whose retry time has passed.
     */
    async tracksWithoutTempo(userId: string, staleMs: number, limit: number): Promise<string[]> {
      const rows = await db.execute<{ id: string }>(sql`
        with ${userTracksCte(userId)}
        select t.id from user_tracks m join library_tracks t on t.id = m.track_id
        where ${needsTempoLookup(staleMs)}
        limit ${limit}`);
      return rows.rows.map((r) => r.id);
    },
  };
}
export type ArtistSetRepository = ReturnType<typeof createArtistSetRepository>;
