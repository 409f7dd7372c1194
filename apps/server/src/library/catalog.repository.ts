// The only SQL on the library's shared rows: tracks, artists with their catalog cursors, releases with
// their track cursors, and which releases make up an artist's catalog. Nothing here belongs to a user:
// a catalog another user's scan already read is simply there.
import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  libraryArtistReleases,
  libraryArtists,
  libraryReleases,
  libraryTracks,
} from '../db/library.schema.ts';
import { needsTempoLookup } from './artist-set.repository.ts';
import type { ArtistRef, LibraryRelease, LibraryTrack } from './spotify-items.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type ArtistRow = typeof libraryArtists.$inferSelect;
export type ReleaseRow = typeof libraryReleases.$inferSelect;

/** What a tempo lookup needs of a track (tempo.service.ts `TrackInput`), plus its key. */
export interface TempoCandidate {
  spotifyId: string;
  isrc: string | null;
  artists: string[];
  title: string;
  durationMs: number;
  recordingKey: string;
}

/** The shared-row queries, on the pool or inside a scan's transaction. */
export function catalogQueries(db: Db | Tx) {
  return {
    /**
     * Inserts or refreshes tracks. An ISRC once known is kept (album tracks come without one), and with it
     * the `isrc:` recording key; a release id once known is kept.
     */
    async upsertTracks(tracks: LibraryTrack[]): Promise<void> {
      const unique = [...new Map(tracks.map((t) => [t.id, t])).values()];
      if (unique.length === 0) return;
      await db
        .insert(libraryTracks)
        .values(
          unique.map((t) => ({
            id: t.id,
            isrc: t.isrc,
            recordingKey: t.recordingKey,
            title: t.title,
            artistIds: t.artists.map((a) => a.id),
            durationMs: t.durationMs,
            explicit: t.explicit,
            releaseId: t.releaseId,
            trackNumber: t.trackNumber,
          })),
        )
        .onConflictDoUpdate({
          target: libraryTracks.id,
          set: {
            isrc: sql`coalesce(excluded.isrc, ${libraryTracks.isrc})`,
            recordingKey: sql`case when excluded.isrc is not null then excluded.recording_key else ${libraryTracks.recordingKey} end`,
            title: sql`excluded.title`,
            artistIds: sql`excluded.artist_ids`,
            durationMs: sql`excluded.duration_ms`,
            explicit: sql`excluded.explicit`,
            releaseId: sql`coalesce(excluded.release_id, ${libraryTracks.releaseId})`,
            trackNumber: sql`coalesce(excluded.track_number, ${libraryTracks.trackNumber})`,
            seenAt: sql`now()`,
          },
        });
    },

    /** Inserts artists or refreshes their names. */
    async upsertArtists(artists: ArtistRef[]): Promise<void> {
      const unique = [...new Map(artists.map((a) => [a.id, a])).values()];
      if (unique.length === 0) return;
      await db
        .insert(libraryArtists)
        .values(unique.map((a) => ({ id: a.id, name: a.name.slice(0, 500) })))
        .onConflictDoUpdate({
          target: libraryArtists.id,
          set: { name: sql`excluded.name`, seenAt: sql`now()` },
        });
    },

    async getArtist(artistId: string): Promise<ArtistRow | undefined> {
      const rows = await db.select().from(libraryArtists).where(eq(libraryArtists.id, artistId));
      return rows[0];
    },

    /**
     * Records one page of an artist's releases listing: the releases, their link to the artist, and the
     * listing's cursor (`offset` is where the next page starts). `restart` forgets an older listing first
     * (other groups, or a catalog that changed).
     */
    async saveListingPage(
      artistId: string,
      page: { groups: string; offset: number; total: number; releases: LibraryRelease[]; restart: boolean },
    ): Promise<void> {
      if (page.restart)
        await db.delete(libraryArtistReleases).where(eq(libraryArtistReleases.artistId, artistId));
      if (page.releases.length > 0) {
        await db
          .insert(libraryReleases)
          .values(page.releases)
          .onConflictDoUpdate({
            target: libraryReleases.id,
            set: { name: sql`excluded.name`, totalTracks: sql`excluded.total_tracks` },
          });
        await db
          .insert(libraryArtistReleases)
          .values(page.releases.map((r, i) => ({ artistId, releaseId: r.id, position: page.offset + i })))
          .onConflictDoNothing();
      }
      const end = page.offset + page.releases.length;
      await db
        .update(libraryArtists)
        .set({
          catalogGroups: page.groups,
          catalogTotal: page.total,
          catalogOffset: end,
          catalogReadAt: null,
        })
        .where(eq(libraryArtists.id, artistId));
    },

    /** The artist's next releases whose tracks are not all read: albums first, then in listing order. */
    async nextUnreadReleases(artistId: string, limit: number): Promise<ReleaseRow[]> {
      const rows = await db
        .select({ r: libraryReleases })
        .from(libraryArtistReleases)
        .innerJoin(libraryReleases, eq(libraryReleases.id, libraryArtistReleases.releaseId))
        .where(and(eq(libraryArtistReleases.artistId, artistId), isNull(libraryReleases.readAt)))
        .orderBy(sql`${libraryReleases.albumType} <> 'album'`, asc(libraryArtistReleases.position))
        .limit(limit);
      return rows.map((x) => x.r);
    },

    /**
     * Up to `limit` releases not yet read of the user's artist set, in rounds: each artist's first
     * `perArtist` (in listing order, counting what is read) before any artist's next, the most frequent
     * artists first within a round; every artist's albums before anyone's singles, as `nextCatalogArtist`. A runner short of their first 50 gets songs of many
     * artists early instead of one artist's whole catalog, which the artist spread holds back.
     */
    async nextUnreadReleasesAcross(userId: string, limit: number, perArtist: number): Promise<ReleaseRow[]> {
      const ids = await db.execute<{ id: string }>(sql`
        select id from (
          select r.id, r.read_at, r.album_type, s.weight, s.artist_id,
                 row_number() over (partition by s.artist_id
                                    order by r.album_type <> 'album', ar.position) as k
          from library_user_artists s
          join library_artist_releases ar on ar.artist_id = s.artist_id
          join library_releases r on r.id = ar.release_id
          where s.user_id = ${userId}) x
        where read_at is null
        order by album_type <> 'album', (k - 1) / ${perArtist}, weight desc, artist_id, k
        limit ${limit * 2}`);
      // A release of two artists of the set comes twice: its first place counts.
      const order = [...new Set(ids.rows.map((r) => r.id))].slice(0, limit);
      if (order.length === 0) return [];
      const rows = await db.select().from(libraryReleases).where(inArray(libraryReleases.id, order));
      const byId = new Map(rows.map((r) => [r.id, r]));
      return order.flatMap((id) => byId.get(id) ?? []);
    },

    /** Records a release's track page: `tracksRead` is where the next page starts; `done` when none follows. */
    async saveReleaseProgress(
      releaseId: string,
      p: { tracksRead: number; totalTracks: number; done: boolean },
    ): Promise<void> {
      await db
        .update(libraryReleases)
        .set({
          tracksRead: p.tracksRead,
          totalTracks: p.totalTracks,
          readAt: p.done ? sql`now()` : null,
        })
        .where(eq(libraryReleases.id, releaseId));
    },

    /** The listing and every release were read (or checked): the catalog is complete as of now. */
    async markCatalogRead(artistId: string): Promise<void> {
      await db
        .update(libraryArtists)
        .set({ catalogReadAt: sql`now()`, catalogCheckedAt: sql`now()` })
        .where(eq(libraryArtists.id, artistId));
    },

    /** A check for new releases found none: only the check time moves. */
    async markCatalogChecked(artistId: string): Promise<void> {
      await db
        .update(libraryArtists)
        .set({ catalogCheckedAt: sql`now()` })
        .where(eq(libraryArtists.id, artistId));
    },

    /** Releases already linked to an artist, of those ids. */
    async knownReleases(artistId: string, releaseIds: string[]): Promise<Set<string>> {
      if (releaseIds.length === 0) return new Set();
      const rows = await db
        .select({ id: libraryArtistReleases.releaseId })
        .from(libraryArtistReleases)
        .where(
          and(
            eq(libraryArtistReleases.artistId, artistId),
            inArray(libraryArtistReleases.releaseId, releaseIds),
          ),
        );
      return new Set(rows.map((r) => r.id));
    },

    /**
     * Of these tracks, those that need a tempo lookup (`needsTempoLookup`: not known yet and not queued, or
     * a known answer's retry time has passed), and those without an answer that were queued at a lower
     * `priority` than this (another runner's catalog, before this runner liked them): what a tempo lookup
     * needs of each (artist names in credit order).
     */
    async tracksNeedingTempo(trackIds: string[], staleMs: number, priority = 0): Promise<TempoCandidate[]> {
      if (trackIds.length === 0) return [];
      const rows = await db.execute<{
        id: string;
        isrc: string | null;
        recording_key: string;
        title: string;
        duration_ms: number;
        artists: string[] | null;
      }>(sql`
        select t.id, t.isrc, t.recording_key, t.title, t.duration_ms,
               array(select coalesce(a.name, '') from unnest(t.artist_ids) with ordinality as x(id, n)
                     left join library_artists a on a.id = x.id order by x.n) as artists
        from library_tracks t
        where t.id in ${trackIds} and ${needsTempoLookup(staleMs, priority)}`);
      return rows.rows.map((r) => ({
        spotifyId: r.id,
        isrc: r.isrc,
        artists: r.artists ?? [],
        title: r.title,
        durationMs: r.duration_ms,
        recordingKey: r.recording_key,
      }));
    },

    /** Notes that lookups were queued for these tracks under their current recording keys, at `priority`. */
    async markTempoQueued(trackIds: string[], priority = 0): Promise<void> {
      if (trackIds.length === 0) return;
      await db
        .update(libraryTracks)
        .set({
          tempoQueuedKey: sql`${libraryTracks.recordingKey}`,
          tempoQueuedAt: sql`now()`,
          tempoQueuedPriority: priority,
        })
        .where(inArray(libraryTracks.id, trackIds));
    },
  };
}

export function createCatalogRepository(db: Db) {
  return catalogQueries(db);
}
export type CatalogQueries = ReturnType<typeof catalogQueries>;
export type CatalogRepository = ReturnType<typeof createCatalogRepository>;
