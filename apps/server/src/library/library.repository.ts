// The only SQL on a user's library as a whole: the anchor row (created on connect, deleted on disconnect,
// held by every scan step), rescans, and the tracks matching reads. It composes the source, artist-set
// and shared-catalog queries, so services and scan steps take one repository.
import { and, eq, getTableColumns, isNotNull, sql } from 'drizzle-orm';
import type { SourceKind } from '@pacebeat/contract';
import type { Db } from '../db/client.ts';
import { librarySources, libraryUsers, type OwnPlaylistSeen } from '../db/library.schema.ts';
import { artistSetCte, createArtistSetRepository } from './artist-set.repository.ts';
import { catalogQueries } from './catalog.repository.ts';
import { LibraryGoneError } from './errors.ts';
import { createSourceRepository, sourceQueries } from './source.repository.ts';

export type { PlaylistSourceInput, SourcePatch, SourceRow } from './source.repository.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
/** The anchor row as scans read it: without the own playlists' list (the writer's, read on its own). */
export type LibraryUserRow = Omit<typeof libraryUsers.$inferSelect, 'ownPlaylists'>;
const { ownPlaylists: _ownPlaylists, ...userColumns } = getTableColumns(libraryUsers);

/** One track of a user's enabled sources, as `listMatchCandidates` lists it for the target playlists. */
export interface MatchCandidate {
  trackId: string;
  /** The tempo cache's key: `isrc:<ISRC>` or `spotify:<trackId>` (one song however many tracks carry it). */
  recordingKey: string;
  /** The track's title (what song-identity.ts compares versions by). */
  title: string;
  artistIds: string[];
  durationMs: number;
  explicit: boolean;
  fromLikedSongs: boolean;
  /** Lower is better: Liked Songs newest first, then owned/collaborative playlists, then catalog tracks. */
  rank: number;
}

/** The base sources every connected user has (playlists are discovered). */
export const BASE_SOURCES: Array<{ kind: SourceKind; name: string }> = [
  { kind: 'liked_songs', name: 'Liked Songs' },
  { kind: 'followed_artists', name: 'Followed artists' },
  { kind: 'artist_catalogs', name: 'Artist catalogs' },
];

function queries(db: Db | Tx) {
  return {
    ...catalogQueries(db),
    ...sourceQueries(db),

    async getUser(userId: string): Promise<LibraryUserRow | undefined> {
      const rows = await db.select(userColumns).from(libraryUsers).where(eq(libraryUsers.userId, userId));
      return rows[0];
    },

    /** The user's own playlists as discovery last listed them whole; null while no pass has since connect. */
    async ownPlaylistsSeen(userId: string): Promise<OwnPlaylistSeen[] | null> {
      const rows = await db
        .select({ own: libraryUsers.ownPlaylists })
        .from(libraryUsers)
        .where(and(eq(libraryUsers.userId, userId), isNotNull(libraryUsers.ownPlaylistsAt)));
      return rows[0]?.own ?? null;
    },

    async updateUser(userId: string, patch: Partial<Omit<LibraryUserRow, 'userId'>>): Promise<void> {
      await db.update(libraryUsers).set(patch).where(eq(libraryUsers.userId, userId));
    },

    /**
     * A discovery page's own playlists, added to the pass's list (which a starting pass begins anew); the
     * list is whole at the pass's end (`own_playlists_at`), and not before.
     */
    async gatherOwnPlaylists(
      userId: string,
      own: OwnPlaylistSeen[],
      pass: { starting: boolean; end: boolean },
    ): Promise<void> {
      const page = sql`${JSON.stringify(own)}::jsonb`;
      await db
        .update(libraryUsers)
        .set({
          ownPlaylists: pass.starting ? page : sql`${libraryUsers.ownPlaylists} || ${page}`,
          ownPlaylistsAt: pass.end ? sql`now()` : null,
        })
        .where(eq(libraryUsers.userId, userId));
    },
  };
}

export function createLibraryRepository(db: Db) {
  const { getSource, setEnabled } = createSourceRepository(db);
  return {
    ...queries(db),
    ...createArtistSetRepository(db),
    getSource,
    setEnabled,

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
              // Whole again once this connection's discovery has read them (a pass under way goes on).
              ownPlaylistsAt: null,
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

    /**
     * Asks for a rescan unless one was asked for less than `minIntervalMs` ago, or the last one (or the
     * connect's first read) has not read discovery, Liked Songs and Followed artists yet: those become due
     * (playlists follow from discovery's snapshots). True when it was asked. (An open status page asked
     * every 5 minutes while a new runner's first read still waited for Spotify's rate: a third of a
     * 100-runner storm's calls re-read what was being read.) With `unreadForMs`, also unless discovery,
     * Liked Songs or Followed artists finished a read that recently (a status page open while a new
     * runner's first read ended asked for a second one minutes later: 80 of 100 runners in bench:crowd).
     */
    async requestRescan(
      userId: string,
      minIntervalMs: number,
      o: { unreadForMs?: number } = {},
    ): Promise<boolean> {
      const since = `${Math.max(0, Math.round(minIntervalMs))} milliseconds`;
      const read = `${Math.max(0, Math.round(o.unreadForMs ?? 0))} milliseconds`;
      const recently = o.unreadForMs
        ? sql`and (u.discovered_at is null or u.discovered_at <= now() - ${read}::interval)
              and not exists (select 1 from library_sources s where s.user_id = u.user_id and s.enabled
                and s.kind in ('liked_songs', 'followed_artists') and s.last_finished_at > now() - ${read}::interval)`
        : sql``;
      // One statement (the user's row and their sources' due times change together): a status page asks
      // on its polls, and a transaction of three round trips held a serve connection across each.
      const rows = await db.execute<{ asked: boolean }>(sql`
        with asked as (
          update library_users u set rescan_requested_at = now(), discovery_due_at = coalesce(u.discovery_due_at, now())
          where u.user_id = ${userId}
            and (u.rescan_requested_at is null or u.rescan_requested_at <= now() - ${since}::interval)
            and u.discovery_due_at is null and u.discovery_offset is null
            and not exists (select 1 from library_sources s where s.user_id = u.user_id and s.enabled
                  and s.kind in ('liked_songs', 'followed_artists') and (s.due_at is not null or s.cursor is not null))
            ${recently}
          returning u.user_id),
        due as (
          update library_sources s set due_at = coalesce(s.due_at, now()), failures = 0
          from asked a
          where s.user_id = a.user_id and s.kind in ('liked_songs', 'followed_artists', 'artist_catalogs'))
        select exists (select 1 from asked) as asked`);
      return rows.rows[0]?.asked === true;
    },

    /**
     * "Refresh now" of one source: it becomes due at once (its failures forgotten); a playlist is read
     * again after discovery, which learns whether its snapshot changed. False when the user has no such source.
     */
    async refreshSource(userId: string, kind: SourceKind, sourceId: string): Promise<boolean> {
      return db.transaction(async (tx) => {
        const rows = await tx
          .update(librarySources)
          .set({ dueAt: sql`now()`, failures: 0 })
          .where(
            and(
              eq(librarySources.userId, userId),
              eq(librarySources.kind, kind),
              eq(librarySources.sourceId, sourceId),
            ),
          )
          .returning({ id: librarySources.id });
        if (rows.length === 0) return false;
        if (kind === 'playlist')
          await tx
            .update(libraryUsers)
            .set({ discoveryDueAt: sql`coalesce(${libraryUsers.discoveryDueAt}, now())` })
            .where(eq(libraryUsers.userId, userId));
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
     * Tracks of the user's ENABLED sources, for matching: one row per track, best-ranked first (Liked
     * Songs newest first, then owned/collaborative playlists in the user's order, then followed-artist and
     * catalog tracks, most frequent artists first and newest releases first).
     */
    async listMatchCandidates(userId: string): Promise<MatchCandidate[]> {
      const rows = await db.execute<{
        track_id: string;
        recording_key: string;
        title: string;
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
        select t.id as track_id, t.recording_key, t.title, t.artist_ids, t.duration_ms, t.explicit,
               b.tier = 0 as from_liked, row_number() over (order by b.tier, b.ord) as rank
        from best b join library_tracks t on t.id = b.track_id
        order by rank`);
      return rows.rows.map((r) => ({
        trackId: r.track_id,
        recordingKey: r.recording_key,
        title: r.title,
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
