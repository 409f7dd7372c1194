// Reads for the runner's track pages: a target of the user's, the tracks Pacebeat placed in it (a page at a
// time), the titles and artists of tracks, and which targets hold what Pacebeat added of a recording or an
// artist (for removals on request). Read-only; the playlists writer owns these tables' writes.
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { libraryArtists, libraryTracks } from '../db/library.schema.ts';
import { playlistTargets, playlistTargetTracks } from '../db/playlists.schema.ts';

export type TargetOfUser = Pick<
  typeof playlistTargets.$inferSelect,
  | 'id'
  | 'name'
  | 'minBpm'
  | 'maxBpm'
  | 'publicUrl'
  | 'state'
  | 'noExplicit'
  | 'minDurationMs'
  | 'maxDurationMs'
  | 'likedOnly'
  | 'metersIncluded'
>;

export interface PlacedRow {
  trackId: string;
  recordingKey: string;
  state: 'added' | 'pending';
  bpm: number | null;
  addedAt: Date | null;
}

export interface TrackInfo {
  id: string;
  recordingKey: string;
  title: string;
  artistIds: string[];
}

/** What Pacebeat added (or is adding) of a recording to one of the user's targets. */
export interface AddedPair {
  targetId: string;
  recordingKey: string;
}

const ADDED_STATES = ['added', 'pending'] as const;

export function createTrackListsRepository(db: Db) {
  const targetCols = {
    id: playlistTargets.id,
    name: playlistTargets.name,
    minBpm: playlistTargets.minBpm,
    maxBpm: playlistTargets.maxBpm,
    publicUrl: playlistTargets.publicUrl,
    state: playlistTargets.state,
    // Its filters: the waiting and skipped lists apply them as the writer does.
    noExplicit: playlistTargets.noExplicit,
    minDurationMs: playlistTargets.minDurationMs,
    maxDurationMs: playlistTargets.maxDurationMs,
    likedOnly: playlistTargets.likedOnly,
    metersIncluded: playlistTargets.metersIncluded,
  };
  return {
    /** The target if it is the user's (undefined for another user's or none). */
    async targetOf(userId: string, targetId: string): Promise<TargetOfUser | undefined> {
      const rows = await db
        .select(targetCols)
        .from(playlistTargets)
        .where(and(eq(playlistTargets.id, targetId), eq(playlistTargets.userId, userId)));
      return rows[0];
    },

    async targetsOf(userId: string): Promise<TargetOfUser[]> {
      return db
        .select(targetCols)
        .from(playlistTargets)
        .where(eq(playlistTargets.userId, userId))
        .orderBy(asc(playlistTargets.position), asc(playlistTargets.minBpm));
    },

    /** A page of what Pacebeat placed in a target (added, or being added), newest first. */
    async placedPage(
      targetId: string,
      offset: number,
      limit: number,
    ): Promise<{ rows: PlacedRow[]; total: number }> {
      const where = and(
        eq(playlistTargetTracks.targetId, targetId),
        inArray(playlistTargetTracks.state, [...ADDED_STATES]),
      );
      const rows = await db
        .select({
          trackId: playlistTargetTracks.trackId,
          recordingKey: playlistTargetTracks.recordingKey,
          state: playlistTargetTracks.state,
          bpm: playlistTargetTracks.bpm,
          addedAt: playlistTargetTracks.addedAt,
        })
        .from(playlistTargetTracks)
        .where(where)
        .orderBy(
          sql`${playlistTargetTracks.addedAt} desc nulls first`,
          desc(playlistTargetTracks.recordedAt),
          desc(playlistTargetTracks.seq),
          asc(playlistTargetTracks.recordingKey),
        )
        .limit(limit)
        .offset(offset);
      const [count] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(playlistTargetTracks)
        .where(where);
      return { rows: rows as PlacedRow[], total: count?.n ?? 0 };
    },

    /** Titles and artists of tracks, by Spotify id. */
    async tracks(trackIds: string[]): Promise<Map<string, TrackInfo>> {
      if (trackIds.length === 0) return new Map();
      const rows = await db
        .select({
          id: libraryTracks.id,
          recordingKey: libraryTracks.recordingKey,
          title: libraryTracks.title,
          artistIds: libraryTracks.artistIds,
        })
        .from(libraryTracks)
        .where(inArray(libraryTracks.id, trackIds));
      return new Map(rows.map((r) => [r.id, r]));
    },

    /**
     * One track carrying the recording in the user's library (to name it), or undefined when their library
     * has none: a track of one of their sources, a catalog track of their artist set, or a track Pacebeat
     * placed in one of their targets. Another user's library is never looked at.
     */
    async trackInLibrary(userId: string, recordingKey: string): Promise<TrackInfo | undefined> {
      const rows = await db.execute<{
        id: string;
        recording_key: string;
        title: string;
        artist_ids: string[];
      }>(
        sql`select t.id, t.recording_key, t.title, t.artist_ids
            from library_tracks t
            where t.recording_key = ${recordingKey}
              and (exists (select 1 from library_source_tracks st
                           join library_sources s on s.id = st.source_ref
                           where s.user_id = ${userId} and st.track_id = t.id)
                   or exists (select 1 from library_user_artists ua
                              join library_artist_releases ar on ar.artist_id = ua.artist_id
                              where ua.user_id = ${userId} and ar.release_id = t.release_id
                                and ua.artist_id = any(t.artist_ids))
                   or exists (select 1 from playlist_target_tracks p
                              join playlist_targets g on g.id = p.target_id
                              where g.user_id = ${userId} and p.recording_key = t.recording_key))
            order by t.id
            limit 1`,
      );
      const r = rows.rows[0];
      return r && { id: r.id, recordingKey: r.recording_key, title: r.title, artistIds: r.artist_ids };
    },

    /**
     * The artist's name when the artist is in the user's library (undefined otherwise): followed, in their
     * artist set, or an artist of one of their sources' tracks, of their artist set's catalog tracks or of
     * a track Pacebeat placed for them. Another user's library is never looked at.
     */
    async artistInLibrary(userId: string, artistId: string): Promise<string | undefined> {
      const rows = await db.execute<{ name: string }>(
        sql`select a.name from library_artists a
            where a.id = ${artistId}
              and (exists (select 1 from library_user_artists ua
                           where ua.user_id = ${userId} and ua.artist_id = a.id)
                   or exists (select 1 from library_source_artists sa
                              join library_sources s on s.id = sa.source_ref
                              where s.user_id = ${userId} and sa.artist_id = a.id)
                   or exists (select 1 from library_sources s
                              join library_source_tracks st on st.source_ref = s.id
                              join library_tracks t on t.id = st.track_id
                              where s.user_id = ${userId} and a.id = any(t.artist_ids))
                   or exists (select 1 from playlist_targets g
                              join playlist_target_tracks p on p.target_id = g.id
                              join library_tracks t on t.id = p.track_id
                              where g.user_id = ${userId} and a.id = any(t.artist_ids))
                   or exists (select 1 from library_user_artists ua
                              join library_artist_releases ar on ar.artist_id = ua.artist_id
                              join library_tracks t on t.release_id = ar.release_id
                              where ua.user_id = ${userId} and ua.artist_id = any(t.artist_ids)
                                and a.id = any(t.artist_ids)))`,
      );
      return rows.rows[0]?.name;
    },

    /** Artists' names by id (an artist the library has no name for is absent). */
    async artistNames(artistIds: string[]): Promise<Map<string, string>> {
      if (artistIds.length === 0) return new Map();
      const rows = await db
        .select({ id: libraryArtists.id, name: libraryArtists.name })
        .from(libraryArtists)
        .where(inArray(libraryArtists.id, artistIds));
      return new Map(rows.map((r) => [r.id, r.name]));
    },

    /** Where Pacebeat added (or is adding) these recordings, in the user's targets. */
    async addedOfRecordings(userId: string, recordingKeys: string[]): Promise<AddedPair[]> {
      if (recordingKeys.length === 0) return [];
      return db
        .select({ targetId: playlistTargetTracks.targetId, recordingKey: playlistTargetTracks.recordingKey })
        .from(playlistTargetTracks)
        .innerJoin(playlistTargets, eq(playlistTargets.id, playlistTargetTracks.targetId))
        .where(
          and(
            eq(playlistTargets.userId, userId),
            inArray(playlistTargetTracks.recordingKey, recordingKeys),
            inArray(playlistTargetTracks.state, [...ADDED_STATES]),
          ),
        );
    },

    /** Where Pacebeat added (or is adding) tracks of this artist, in the user's targets. */
    async addedOfArtist(userId: string, artistId: string): Promise<AddedPair[]> {
      return db
        .select({ targetId: playlistTargetTracks.targetId, recordingKey: playlistTargetTracks.recordingKey })
        .from(playlistTargetTracks)
        .innerJoin(playlistTargets, eq(playlistTargets.id, playlistTargetTracks.targetId))
        .innerJoin(libraryTracks, eq(libraryTracks.id, playlistTargetTracks.trackId))
        .where(
          and(
            eq(playlistTargets.userId, userId),
            inArray(playlistTargetTracks.state, [...ADDED_STATES]),
            sql`${artistId} = any(${libraryTracks.artistIds})`,
          ),
        );
    },
  };
}

export type TrackListsRepository = ReturnType<typeof createTrackListsRepository>;
