// The only SQL on a user's library: the anchor row, the sources with their cursors, and membership
// (which source holds which track or followed artist). Shared rows are catalog.repository.ts's.
import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { SourceKind } from '@pacebeat/contract';
import type { Db } from '../db/client.ts';
import {
  librarySourceArtists,
  librarySources,
  librarySourceTracks,
  libraryUserArtists,
  libraryUsers,
} from '../db/library.schema.ts';
import { catalogQueries } from './catalog.repository.ts';
import { LibraryGoneError } from './errors.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type SourceRow = typeof librarySources.$inferSelect;
export type LibraryUserRow = typeof libraryUsers.$inferSelect;
export type SourcePatch = Partial<Omit<SourceRow, 'id' | 'userId' | 'kind' | 'sourceId' | 'createdAt'>>;

/** A playlist as discovery lists it. */
export interface PlaylistSourceInput {
  sourceId: string;
  name: string;
  ownerName: string | null;
  readable: boolean;
  snapshot: string | null;
  total: number;
  position: number;
}

/** One row of `listMatchCandidates` (the target playlists' matching reads these). */
export interface MatchCandidate {
  trackId: string;
  recordingKey: string;
  artistIds: string[];
  durationMs: number;
  explicit: boolean;
  fromLikedSongs: boolean;
  rank: number;
}

/** The base sources every connected user has (playlists are discovered). */
export const BASE_SOURCES: Array<{ kind: SourceKind; name: string }> = [
  { kind: 'liked_songs', name: 'Liked Songs' },
  { kind: 'followed_artists', name: 'Followed artists' },
  { kind: 'artist_catalogs', name: 'Artist catalogs' },
];

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

function queries(db: Db | Tx) {
  return {
    ...catalogQueries(db),

    async getUser(userId: string): Promise<LibraryUserRow | undefined> {
      const rows = await db.select().from(libraryUsers).where(eq(libraryUsers.userId, userId));
      return rows[0];
    },

    async updateUser(userId: string, patch: Partial<Omit<LibraryUserRow, 'userId'>>): Promise<void> {
      await db.update(libraryUsers).set(patch).where(eq(libraryUsers.userId, userId));
    },

    /** Membership or a switch changed: the artist set is computed again before the next catalog step. */
    async markArtistsStale(userId: string): Promise<void> {
      await db.update(libraryUsers).set({ artistsStale: true }).where(eq(libraryUsers.userId, userId));
    },

    /** A user's sources: base sources first, then playlists in the user's order. */
    async listSources(userId: string): Promise<SourceRow[]> {
      return db
        .select()
        .from(librarySources)
        .where(eq(librarySources.userId, userId))
        .orderBy(
          sql`case ${librarySources.kind} when 'liked_songs' then 0 when 'playlist' then 1 when 'followed_artists' then 2 else 3 end`,
          librarySources.position,
          librarySources.id,
        );
    },

    async updateSource(userId: string, id: number, patch: SourcePatch): Promise<void> {
      await db
        .update(librarySources)
        .set(patch)
        .where(and(eq(librarySources.userId, userId), eq(librarySources.id, id)));
    },

    /** Adds or refreshes a source's tracks as seen by `pass`; answers how many were new to it. */
    async addSourceTracks(
      sourceRef: number,
      pass: number,
      entries: Array<{ trackId: string; addedAt: Date | null; position: number }>,
    ): Promise<number> {
      const unique = [...new Map(entries.map((e) => [e.trackId, e])).values()];
      if (unique.length === 0) return 0;
      const rows = await db
        .insert(librarySourceTracks)
        .values(unique.map((e) => ({ ...e, sourceRef, pass })))
        .onConflictDoUpdate({
          target: [librarySourceTracks.sourceRef, librarySourceTracks.trackId],
          set: { pass, position: sql`excluded.position`, addedAt: sql`excluded.added_at` },
        })
        .returning({ inserted: sql<boolean>`(xmax = 0)` });
      return rows.filter((r) => r.inserted).length;
    },

    async countSourceTracks(sourceRef: number): Promise<number> {
      const rows = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(librarySourceTracks)
        .where(eq(librarySourceTracks.sourceRef, sourceRef));
      return rows[0]?.n ?? 0;
    },

    /** After a complete pass: drops the tracks that pass did not see (removed from the source). */
    async sweepSourceTracks(sourceRef: number, pass: number): Promise<number> {
      const rows = await db
        .delete(librarySourceTracks)
        .where(and(eq(librarySourceTracks.sourceRef, sourceRef), lt(librarySourceTracks.pass, pass)))
        .returning({ trackId: librarySourceTracks.trackId });
      return rows.length;
    },

    /** Adds or refreshes followed artists as seen by `pass`; answers how many were new. */
    async addSourceArtists(
      sourceRef: number,
      pass: number,
      entries: Array<{ artistId: string; position: number }>,
    ): Promise<number> {
      const unique = [...new Map(entries.map((e) => [e.artistId, e])).values()];
      if (unique.length === 0) return 0;
      const rows = await db
        .insert(librarySourceArtists)
        .values(unique.map((e) => ({ ...e, sourceRef, pass })))
        .onConflictDoUpdate({
          target: [librarySourceArtists.sourceRef, librarySourceArtists.artistId],
          set: { pass, position: sql`excluded.position` },
        })
        .returning({ inserted: sql<boolean>`(xmax = 0)` });
      return rows.filter((r) => r.inserted).length;
    },

    async countSourceArtists(sourceRef: number): Promise<number> {
      const rows = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(librarySourceArtists)
        .where(eq(librarySourceArtists.sourceRef, sourceRef));
      return rows[0]?.n ?? 0;
    },

    async sweepSourceArtists(sourceRef: number, pass: number): Promise<number> {
      const rows = await db
        .delete(librarySourceArtists)
        .where(and(eq(librarySourceArtists.sourceRef, sourceRef), lt(librarySourceArtists.pass, pass)))
        .returning({ artistId: librarySourceArtists.artistId });
      return rows.length;
    },

    /**
     * Records playlists listed by a discovery pass (name, owner, snapshot, size, order). A new playlist is
     * enabled when the user may read it; one that became unreadable is switched off.
     */
    async upsertPlaylistSources(userId: string, pass: number, lists: PlaylistSourceInput[]): Promise<void> {
      if (lists.length === 0) return;
      await db
        .insert(librarySources)
        .values(
          lists.map((p) => ({
            userId,
            kind: 'playlist' as const,
            sourceId: p.sourceId,
            name: p.name,
            ownerName: p.ownerName,
            readable: p.readable,
            enabled: p.readable,
            position: p.position,
            seenPass: pass,
            snapshot: p.snapshot,
            total: p.total,
            state: p.readable ? 'idle' : 'unreadable',
            dueAt: null,
          })),
        )
        .onConflictDoUpdate({
          target: [librarySources.userId, librarySources.kind, librarySources.sourceId],
          set: {
            name: sql`excluded.name`,
            ownerName: sql`excluded.owner_name`,
            readable: sql`excluded.readable`,
            enabled: sql`${librarySources.enabled} and excluded.readable`,
            position: sql`excluded.position`,
            seenPass: sql`excluded.seen_pass`,
            snapshot: sql`excluded.snapshot`,
            total: sql`excluded.total`,
            state: sql`case when excluded.readable then (case when ${librarySources.state} = 'unreadable' then 'idle' else ${librarySources.state} end) else 'unreadable' end`,
          },
        });
    },

    /** After a complete discovery pass: playlists it did not list are gone (deleted or unfollowed). */
    async sweepPlaylistSources(userId: string, pass: number): Promise<number> {
      const rows = await db
        .delete(librarySources)
        .where(
          and(
            eq(librarySources.userId, userId),
            eq(librarySources.kind, 'playlist'),
            lt(librarySources.seenPass, pass),
          ),
        )
        .returning({ id: librarySources.id });
      if (rows.length > 0)
        await db.update(libraryUsers).set({ artistsStale: true }).where(eq(libraryUsers.userId, userId));
      return rows.length;
    },
  };
}

export function createLibraryRepository(db: Db) {
  return {
    ...queries(db),

    /** Creates (or keeps) a connected user's library with its base sources; everything becomes due. */
    async connect(userId: string, spotifyUserId: string): Promise<void> {
      await db.transaction(async (tx) => {
        await tx
          .insert(libraryUsers)
          .values({ userId, spotifyUserId, rescanRequestedAt: sql`now()` })
          .onConflictDoUpdate({
            target: libraryUsers.userId,
            set: {
              spotifyUserId,
              discoveryDueAt: sql`now()`,
              rescanRequestedAt: sql`now()`,
              artistsStale: true,
            },
          });
        await tx
          .insert(librarySources)
          .values(BASE_SOURCES.map((s) => ({ userId, kind: s.kind, sourceId: s.kind, name: s.name })))
          .onConflictDoNothing();
        await tx
          .update(librarySources)
          .set({ dueAt: sql`now()`, failures: 0 })
          .where(eq(librarySources.userId, userId));
      });
    },

    /** Deletes a user's library (sources, cursors, membership); waits for a scan page being written. */
    async deleteUser(userId: string): Promise<boolean> {
      const rows = await db
        .delete(libraryUsers)
        .where(eq(libraryUsers.userId, userId))
        .returning({ userId: libraryUsers.userId });
      return rows.length > 0;
    },

    async getSource(userId: string, kind: SourceKind, sourceId: string): Promise<SourceRow | undefined> {
      const rows = await db
        .select()
        .from(librarySources)
        .where(
          and(
            eq(librarySources.userId, userId),
            eq(librarySources.kind, kind),
            eq(librarySources.sourceId, sourceId),
          ),
        );
      return rows[0];
    },

    /** Switches a source; enabling makes it due now (unless a pass is under way). Undefined when not the user's. */
    async setEnabled(
      userId: string,
      kind: SourceKind,
      sourceId: string,
      enabled: boolean,
    ): Promise<SourceRow | undefined> {
      const rows = await db
        .update(librarySources)
        // A pass that was running when the source was switched off just continues.
        .set(
          enabled
            ? {
                enabled,
                dueAt: sql`case when ${librarySources.cursor} is null then now() else ${librarySources.dueAt} end`,
                failures: 0,
              }
            : { enabled },
        )
        .where(
          and(
            eq(librarySources.userId, userId),
            eq(librarySources.kind, kind),
            eq(librarySources.sourceId, sourceId),
          ),
        )
        .returning();
      if (rows[0])
        await db.update(libraryUsers).set({ artistsStale: true }).where(eq(libraryUsers.userId, userId));
      return rows[0];
    },

    /**
     * Asks for a rescan unless one was asked for less than `minIntervalMs` ago: discovery, Liked Songs and
     * Followed artists become due (playlists follow from discovery's snapshots). True when it was asked.
     */
    async requestRescan(userId: string, minIntervalMs: number): Promise<boolean> {
      return db.transaction(async (tx) => {
        const since = `${Math.max(0, Math.round(minIntervalMs))} milliseconds`;
        const rows = await tx
          .update(libraryUsers)
          .set({
            rescanRequestedAt: sql`now()`,
            discoveryDueAt: sql`coalesce(${libraryUsers.discoveryDueAt}, now())`,
          })
          .where(
            and(
              eq(libraryUsers.userId, userId),
              sql`(${libraryUsers.rescanRequestedAt} is null or ${libraryUsers.rescanRequestedAt} <= now() - ${since}::interval)`,
            ),
          )
          .returning({ userId: libraryUsers.userId });
        if (rows.length === 0) return false;
        await tx
          .update(librarySources)
          .set({ dueAt: sql`coalesce(${librarySources.dueAt}, now())`, failures: 0 })
          .where(
            and(
              eq(librarySources.userId, userId),
              inArray(librarySources.kind, ['liked_songs', 'followed_artists', 'artist_catalogs']),
            ),
          );
        return true;
      });
    },

    /**
     * Users with a live Spotify connection whose last rescan was asked for at least `intervalMs` ago, and
     * connected users without a library yet (connected before libraries existed, or a failed hook).
     */
    async usersDueForRescan(
      intervalMs: number,
    ): Promise<Array<{ userId: string; spotifyUserId: string; hasLibrary: boolean }>> {
      const rows = await db.execute<{ user_id: string; spotify_user_id: string; has_library: boolean }>(sql`
        select a.user_id, a.spotify_user_id, u.user_id is not null as has_library
        from spotify_accounts a left join library_users u on u.user_id = a.user_id
        where a.disabled_reason is null
          and (u.user_id is null or u.rescan_requested_at is null
               or u.rescan_requested_at <= now() - ${`${Math.round(intervalMs)} milliseconds`}::interval)`);
      return rows.rows.map((r) => ({
        userId: r.user_id,
        spotifyUserId: r.spotify_user_id,
        hasLibrary: r.has_library,
      }));
    },

    /**
     * Runs one scan step's writes in a transaction that holds the user's library row FOR SHARE: a
     * disconnect waits for it, and after a disconnect it throws LibraryGoneError and writes nothing.
     */
    async inScan<T>(userId: string, fn: (q: ReturnType<typeof queries>) => Promise<T>): Promise<T> {
      return db.transaction(async (tx) => {
        const held = await tx
          .select({ userId: libraryUsers.userId })
          .from(libraryUsers)
          .where(eq(libraryUsers.userId, userId))
          .for('share');
        if (held.length === 0) throw new LibraryGoneError(userId);
        return fn(queries(tx));
      });
    },

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
    ): Promise<{ artistId: string; step: 'list' | 'releases' | 'recheck' } | undefined> {
      const age = `${Math.round(recheckAfterMs)} milliseconds`;
      // Albums bring the most songs per call: every artist's listing and albums come before anyone's
      // singles (and other release types), most frequent artists first within each.
      const rows = await db.execute<{ artist_id: string; step: 'list' | 'releases' | 'recheck' }>(sql`
        with artist_set as (select artist_id, weight from library_user_artists where user_id = ${userId}),
        todo as (
          select s.artist_id, s.weight,
                 a.catalog_groups is distinct from ${groups} or a.catalog_total is null
                   or a.catalog_offset < a.catalog_total as listing,
                 a.catalog_read_at is null as unread,
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
        order by case when listing or albums_left then 0 when unread then 1 else 2 end, weight desc, artist_id
        limit 1`);
      const r = rows.rows[0];
      return r ? { artistId: r.artist_id, step: r.step } : undefined;
    },

    /**
     * Up to `limit` tracks of the user's enabled sources that have no tempo yet and whose lookup was never
     * queued under their recording key, or was queued more than `staleMs` ago (a lost or cancelled job).
     */
    async tracksWithoutTempo(userId: string, staleMs: number, limit: number): Promise<string[]> {
      const stale = `${Math.round(staleMs)} milliseconds`;
      const rows = await db.execute<{ id: string }>(sql`
        with ${artistSetCte(userId)},
        mine as (
          select st.track_id from library_source_tracks st
          join enabled_sources e on e.id = st.source_ref and e.kind in ('liked_songs', 'playlist')
          union
          select t.id from artist_set a
          join library_artist_releases ar on ar.artist_id = a.artist_id
          join library_tracks t on t.release_id = ar.release_id and a.artist_id = any(t.artist_ids))
        select t.id from mine m join library_tracks t on t.id = m.track_id
        where (t.tempo_queued_key is distinct from t.recording_key
               or t.tempo_queued_at <= now() - ${stale}::interval)
          and not exists (select 1 from tempo_recordings r where r.key = t.recording_key)
        limit ${limit}`);
      return rows.rows.map((r) => r.id);
    },

    /**
     * Tracks of the user's ENABLED sources, for matching: one row per track, best-ranked first (Liked
     * Songs newest first, then owned/collaborative playlists in the user's order, then followed-artist and
     * catalog tracks, most frequent artists first and newest releases first).
     */
    async listMatchCandidates(userId: string): Promise<MatchCandidate[]> {
      const rows = await db.execute<{
        track_id: string;
        recording_key: string;
        artist_ids: string[];
        duration_ms: number;
        explicit: boolean;
        from_liked: boolean;
        rank: string;
      }>(sql`
        with ${artistSetCte(userId)},
        ranked as (
          select st.track_id, 0 as tier,
                 row_number() over (order by st.added_at desc nulls last, st.position) as ord
          from library_source_tracks st
          join enabled_sources e on e.id = st.source_ref and e.kind = 'liked_songs'
          union all
          select st.track_id, 1 as tier, row_number() over (order by s.position, s.id, st.position) as ord
          from library_source_tracks st
          join library_sources s on s.id = st.source_ref
          join enabled_sources e on e.id = s.id and e.kind = 'playlist'
          union all
          select t.id, 2 as tier,
                 row_number() over (order by a.weight desc, a.artist_id, r.release_date desc, r.id,
                                             t.track_number) as ord
          from artist_set a
          join library_artist_releases ar on ar.artist_id = a.artist_id
          join library_releases r on r.id = ar.release_id
          join library_tracks t on t.release_id = r.id and a.artist_id = any(t.artist_ids)),
        best as (
          select distinct on (track_id) track_id, tier, ord from ranked order by track_id, tier, ord)
        select t.id as track_id, t.recording_key, t.artist_ids, t.duration_ms, t.explicit,
               b.tier = 0 as from_liked, row_number() over (order by b.tier, b.ord) as rank
        from best b join library_tracks t on t.id = b.track_id
        order by rank`);
      return rows.rows.map((r) => ({
        trackId: r.track_id,
        recordingKey: r.recording_key,
        artistIds: r.artist_ids,
        durationMs: r.duration_ms,
        explicit: r.explicit,
        fromLikedSongs: r.from_liked,
        rank: Number(r.rank),
      }));
    },
  };
}
export type LibraryRepository = ReturnType<typeof createLibraryRepository>;
export type LibraryQueries = ReturnType<typeof queries>;
