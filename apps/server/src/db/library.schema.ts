// Library tables. Shared by the whole installation (one row per Spotify object, whoever found it):
// tracks, artists (with the shared cursor of their catalog), releases (with the cursor of their track
// pages) and which releases make up an artist's catalog. Per user: the scan anchor, the sources with
// their cursors, and membership (which source holds which track or followed artist). Owned by src/library/.
import {
  bigint,
  bigserial,
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.schema.ts';

const at = (name: string) => timestamp(name, { withTimezone: true });

/** A playlist of the user's own, as `GET /me/playlists` lists it (the writer's `OwnPlaylist`). */
export interface OwnPlaylistSeen {
  id: string;
  name: string;
  /** As Spotify gives it (HTML-escaped); Pacebeat's own say what they are (matching.ts `pacebeatRange`). */
  description: string | null;
  publicUrl: string | null;
  snapshotId: string | null;
}

// ---- shared by every user ------------------------------------------------------------------------

/**
 * A Spotify track: what matching and tempo lookups need. `recording_key` is the tempo key
 * (`isrc:<ISRC>` when known, else `spotify:<id>`); catalog tracks come without ISRC until a user's
 * library shows the same track with one. The title is kept for tempo lookups and refreshed on every read.
 */
export const libraryTracks = pgTable(
  'library_tracks',
  {
    id: text('id').primaryKey(),
    isrc: text('isrc'),
    recordingKey: text('recording_key').notNull(),
    title: text('title').notNull(),
    artistIds: text('artist_ids').array().notNull(),
    durationMs: integer('duration_ms').notNull(),
    explicit: boolean('explicit').notNull(),
    /** The release it is on (its album id), when known. */
    releaseId: text('release_id'),
    /** Position on the release, for catalog order. */
    trackNumber: smallint('track_number'),
    /** The recording key a tempo lookup was queued for, and when: queued again when the key changes. */
    tempoQueuedKey: text('tempo_queued_key'),
    tempoQueuedAt: at('tempo_queued_at'),
    /**
     * The pg-boss priority it was queued at (TEMPO_PRIORITY; null: before this column, as a catalog's):
     * a runner's own song already queued in another runner's artist catalog is queued again at their
     * higher priority, not left behind the catalogs.
     */
    tempoQueuedPriority: smallint('tempo_queued_priority'),
    seenAt: at('seen_at').notNull().defaultNow(),
  },
  (t) => [
    index('library_tracks_release_idx').on(t.releaseId),
    index('library_tracks_recording_idx').on(t.recordingKey),
  ],
);

/**
 * A Spotify artist and the shared state of its catalog read: `catalog_offset` is the cursor in
 * `GET /artists/{id}/albums` (for `catalog_groups`), `catalog_read_at` when the listing and every
 * release were read, `catalog_checked_at` when it was last checked for new releases.
 */
export const libraryArtists = pgTable('library_artists', {
  id: text('id').primaryKey(),
  name: text('name').notNull().default(''),
  catalogGroups: text('catalog_groups'),
  catalogTotal: integer('catalog_total'),
  catalogOffset: integer('catalog_offset').notNull().default(0),
  catalogReadAt: at('catalog_read_at'),
  catalogCheckedAt: at('catalog_checked_at'),
  seenAt: at('seen_at').notNull().defaultNow(),
});

/** A release (album, single, compilation) and the cursor of its track pages (`tracks_read`). */
export const libraryReleases = pgTable('library_releases', {
  id: text('id').primaryKey(),
  albumType: text('album_type').notNull(),
  name: text('name').notNull().default(''),
  releaseDate: text('release_date').notNull().default(''),
  totalTracks: integer('total_tracks').notNull().default(0),
  tracksRead: integer('tracks_read').notNull().default(0),
  /** When every track page was read; null while some remain. */
  readAt: at('read_at'),
});

/** Which releases an artist's catalog listing holds (a release shared by two artists is read once). */
export const libraryArtistReleases = pgTable(
  'library_artist_releases',
  {
    artistId: text('artist_id').notNull(),
    releaseId: text('release_id').notNull(),
    /** Position in the listing (newest first within a group). */
    position: integer('position').notNull(),
  },
  (t) => [
    primaryKey({ columns: [t.artistId, t.releaseId] }),
    index('library_artist_releases_release_idx').on(t.releaseId),
  ],
);

// ---- per user ------------------------------------------------------------------------------------

/**
 * A connected user's library: the anchor every per-user row hangs from (deleting it deletes them all),
 * and the user-wide scan state. Scan writes lock it FOR SHARE, so a disconnect waits for the page being
 * written and nothing is written after it.
 */
export const libraryUsers = pgTable('library_users', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** The Spotify user id (owner of "own" playlists). */
  spotifyUserId: text('spotify_user_id').notNull(),
  createdAt: at('created_at').notNull().defaultNow(),
  /** When a rescan was last asked for (schedule, status page, enabling a source). */
  rescanRequestedAt: at('rescan_requested_at'),
  /** Playlist discovery (`GET /me/playlists`): cursor of a running pass, pass number, last finish. */
  discoveryOffset: integer('discovery_offset'),
  discoveryPass: integer('discovery_pass').notNull().default(0),
  discoveredAt: at('discovered_at'),
  /** When discovery is due again (null: not due). */
  discoveryDueAt: at('discovery_due_at').defaultNow(),
  /**
   * The user's own playlists as discovery lists them (Pacebeat's included), gathered page by page; whole
   * once `own_playlists_at` is set (cleared when a pass starts, and on connect). The writer's look for an
   * earlier connection's playlists reads this instead of `GET /me/playlists` again (bench:crowd at 1,000
   * runners: 1,891 of 7,262 Spotify calls were that list, about half of them the writer's second read).
   */
  ownPlaylists: jsonb('own_playlists').$type<OwnPlaylistSeen[]>().notNull().default([]),
  ownPlaylistsAt: at('own_playlists_at'),
  /** Membership or a switch changed since `library_user_artists` was computed. */
  artistsStale: boolean('artists_stale').notNull().default(true),
});

/**
 * The artists whose catalogs a user's enabled sources ask for, with their weight (appearances in the
 * enabled Liked Songs and playlists, plus one when followed): derived from membership, recomputed when it
 * changed (`library_users.artists_stale`), so choosing the next catalog does not aggregate the library.
 */
export const libraryUserArtists = pgTable(
  'library_user_artists',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => libraryUsers.userId, { onDelete: 'cascade' }),
    artistId: text('artist_id').notNull(),
    weight: integer('weight').notNull(),
  },
  // By artist: whose library a catalog track is in (a tempo another runner's lookup found, `holdersOf`).
  (t) => [
    primaryKey({ columns: [t.userId, t.artistId] }),
    index('library_user_artists_artist_idx').on(t.artistId),
  ],
);

/**
 * The status page's counts of a user (source-stats.repository.ts `snapshot`), stored so that a read selects
 * this row instead of aggregating the library on every poll. The processes that write recount it (debounced,
 * library.service.ts `countsChanged`); `changed_at` is the last change not yet counted, `pending_since` the
 * first (a read recounts a change left uncounted too long: the writer stopped before its recount).
 */
export const librarySourceCounts = pgTable('library_source_counts', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => libraryUsers.userId, { onDelete: 'cascade' }),
  counts: jsonb('counts').notNull(),
  /** When the counted snapshot began: changes before it are in `counts`. */
  computedAt: at('computed_at').notNull(),
  changedAt: at('changed_at'),
  pendingSince: at('pending_since'),
});

/** A source of the spec's Sources table, with its scan cursor and progress. */
export const librarySources = pgTable(
  'library_sources',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => libraryUsers.userId, { onDelete: 'cascade' }),
    kind: text('kind', {
      enum: ['liked_songs', 'playlist', 'followed_artists', 'artist_catalogs'],
    }).notNull(),
    /** The playlist id; the kind for the other kinds. */
    sourceId: text('source_id').notNull(),
    name: text('name').notNull(),
    ownerName: text('owner_name'),
    /** The user owns it or collaborates on it (false: followed only, which this app may not read). */
    readable: boolean('readable').notNull().default(true),
    enabled: boolean('enabled').notNull().default(true),
    /** Order in the user's playlist list. */
    position: integer('position').notNull().default(0),
    /** Discovery pass that last listed it (a playlist missing from a whole pass is gone). */
    seenPass: integer('seen_pass').notNull().default(0),
    /** Latest snapshot id seen, and the snapshot of the last complete read. */
    snapshot: text('snapshot'),
    readSnapshot: text('read_snapshot'),
    /** Items Spotify reported for the source. */
    total: integer('total'),
    /** The running pass: where it continues (see scan-state.ts); null when idle. */
    cursor: jsonb('cursor').$type<Record<string, unknown>>(),
    pass: integer('pass').notNull().default(0),
    pagesRead: integer('pages_read').notNull().default(0),
    pagesTotal: integer('pages_total'),
    itemsRead: integer('items_read').notNull().default(0),
    /** idle | scanning | waiting | failed | unreadable */
    state: text('state').notNull().default('idle'),
    error: text('error'),
    failures: integer('failures').notNull().default(0),
    resumesAt: at('resumes_at'),
    /** When a (re)scan of this source is due; null when not. */
    dueAt: at('due_at').defaultNow(),
    lastFinishedAt: at('last_finished_at'),
    /** When the last full pass (every page) finished. */
    fullReadAt: at('full_read_at'),
    createdAt: at('created_at').notNull().defaultNow(),
  },
  (t) => [uniqueIndex('library_sources_user_kind_source_idx').on(t.userId, t.kind, t.sourceId)],
);

/** Which tracks a Liked Songs or playlist source holds (`pass`: the pass that last saw it). */
export const librarySourceTracks = pgTable(
  'library_source_tracks',
  {
    sourceRef: bigint('source_ref', { mode: 'number' })
      .notNull()
      .references(() => librarySources.id, { onDelete: 'cascade' }),
    trackId: text('track_id').notNull(),
    /** Liked Songs: when it was liked; playlists: when it was added. */
    addedAt: at('added_at'),
    /** Position in the source as read (0 = first). */
    position: integer('position').notNull(),
    pass: integer('pass').notNull(),
  },
  // By track: whose library a track is in (`holdersOf`).
  (t) => [
    primaryKey({ columns: [t.sourceRef, t.trackId] }),
    index('library_source_tracks_track_idx').on(t.trackId),
  ],
);

/** Which artists a Followed artists source holds. */
export const librarySourceArtists = pgTable(
  'library_source_artists',
  {
    sourceRef: bigint('source_ref', { mode: 'number' })
      .notNull()
      .references(() => librarySources.id, { onDelete: 'cascade' }),
    artistId: text('artist_id').notNull(),
    position: integer('position').notNull(),
    pass: integer('pass').notNull(),
  },
  (t) => [primaryKey({ columns: [t.sourceRef, t.artistId] })],
);
