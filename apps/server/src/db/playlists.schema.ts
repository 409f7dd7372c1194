// Target playlists: each user's targets (a BPM range and its Spotify playlist), every recording placed
// in (or seen in) each target's playlist, and the per-user writer lease. Owned by src/playlists/.
import type { OtherMeter } from '@pacebeat/contract';
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  pgTable,
  primaryKey,
  real,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.schema.ts';

/**
 * A target: a BPM range and, once it has its first match, a playlist in the user's Spotify account.
 * `state` is the playlist's life: pending (none yet) → creating (intent recorded before `POST /me/playlists`;
 * its outcome is unknown until confirmed) → active → deleted (the user deleted or unfollowed it: no more writes).
 */
export const playlistTargets = pgTable(
  'playlist_targets',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    /** The range [min, max) a track's tempo, its double or its half must lie in. */
    minBpm: real('min_bpm').notNull(),
    maxBpm: real('max_bpm').notNull(),
    /** The target's name, also its Spotify playlist's name. */
    name: text('name').notNull(),
    position: smallint('position').notNull().default(0),
    state: text('state', { enum: ['pending', 'creating', 'active', 'deleted'] })
      .notNull()
      .default('pending'),
    playlistId: text('playlist_id'),
    /** `external_urls.spotify` of the playlist. */
    publicUrl: text('public_url'),
    /** The playlist's snapshot_id as of our last write or read: another one means someone else changed it. */
    snapshotId: text('snapshot_id'),
    /** When `snapshotId` was last known to be current. */
    snapshotAt: timestamp('snapshot_at', { withTimezone: true }),
    /** Creation attempts so far, and when the current one (state `creating`) was recorded. */
    createAttempts: integer('create_attempts').notNull().default(0),
    creatingSince: timestamp('creating_since', { withTimezone: true }),
    /** Last time the playlist was looked for among the user's playlists (deleted or unfollowed?). */
    followCheckedAt: timestamp('follow_checked_at', { withTimezone: true }),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    lastJobFinishedAt: timestamp('last_job_finished_at', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    /**
     * The runner deleted the target in Pacebeat: no more writes, not listed; its Spotify playlist stays
     * (and is still never a library source).
     */
    archivedAt: timestamp('archived_at', { withTimezone: true }),
    /** The name the playlist was created with or last renamed to in Spotify (found by it after an unclear creation). */
    spotifyName: text('spotify_name'),
    /** Bumped by every edit of the name or range; the writer sends the playlist's details until synced catches up. */
    detailsVersion: integer('details_version').notNull().default(0),
    detailsSyncedVersion: integer('details_synced_version').notNull().default(0),
    /** Filters: leave out explicit tracks; duration limits; only tracks of Liked Songs. */
    noExplicit: boolean('no_explicit').notNull().default(false),
    minDurationMs: integer('min_duration_ms'),
    maxDurationMs: integer('max_duration_ms'),
    likedOnly: boolean('liked_only').notNull().default(false),
    /**
     * Meters other than 4/4 the runner lets into this target (3/4, 6/8, 5/4, 7/8); by default none: their
     * bar pulls against a two-step stride (tempo/meter.ts, docs/how-it-works.md).
     */
    metersIncluded: text('meters_included')
      .array()
      .$type<OtherMeter[]>()
      .notNull()
      .default(sql`'{}'::text[]`),
    /**
     * Spotify refused an add because the playlist holds its most (about 10,000 items): no more adds; new
     * matches go to the target that continues it (`continuesId` points back here).
     */
    fullAt: timestamp('full_at', { withTimezone: true }),
    /** The full target this one continues (same range and filters): what either holds is not placed again. */
    continuesId: uuid('continues_id'),
    /** Spotify refused a write with 403 (and why): no more writes to it until the runner edits the target. */
    writeRefusedAt: timestamp('write_refused_at', { withTimezone: true }),
    writeRefusal: text('write_refusal'),
    /**
     * While the user has no playlist yet (the first fill): the matches the writer has planned for this
     * target so far (the status page says how far the first fill is). Null once it is filled.
     */
    firstFillMatches: integer('first_fill_matches'),
  },
  // Ranges may overlap (even repeat, with other filters); a live target's name is unique for its user,
  // since an unclear creation is settled by finding the playlist by its name.
  (t) => [
    uniqueIndex('playlist_targets_user_name_uq')
      .on(t.userId, t.name)
      .where(sql`${t.archivedAt} is null`),
  ],
);

/**
 * One row per recording a target's playlist holds or held, keyed by recording (`isrc:…` or `spotify:…`,
 * the tempo cache's key), so a song is placed once however many tracks carry it. States:
 *   pending  — about to be added in batch `batchId` (recorded before the call; verified after a failure);
 *   added    — Pacebeat added it and it was seen or confirmed in the playlist;
 *   removed  — Pacebeat added it and the user removed it: never added again;
 *   present  — in the playlist without Pacebeat adding it (the user's own, or a playlist adopted on reconnect);
 *   rejected — Spotify refused the add (e.g. the track no longer exists): not tried again;
 *   removing — Pacebeat is removing it on the runner's request (batch `batchId`, recorded before the call);
 *   unplaced — Pacebeat removed it on request: not added again while it does not fit, added again if it does.
 * `removeRequestedAt` marks an added (or pending) row the runner asked Pacebeat to take out.
 */
export const playlistTargetTracks = pgTable(
  'playlist_target_tracks',
  {
    targetId: uuid('target_id')
      .notNull()
      .references(() => playlistTargets.id, { onDelete: 'cascade' }),
    recordingKey: text('recording_key').notNull(),
    /** The Spotify track id added (or seen). */
    trackId: text('track_id').notNull(),
    state: text('state', {
      enum: ['pending', 'added', 'removed', 'present', 'rejected', 'removing', 'unplaced'],
    }).notNull(),
    batchId: uuid('batch_id'),
    /** Order within the batch (the order of the URIs sent). */
    seq: integer('seq').notNull().default(0),
    /** The tempo it was placed with. */
    bpm: real('bpm'),
    recordedAt: timestamp('recorded_at', { withTimezone: true }).notNull().defaultNow(),
    addedAt: timestamp('added_at', { withTimezone: true }),
    removedAt: timestamp('removed_at', { withTimezone: true }),
    removeRequestedAt: timestamp('remove_requested_at', { withTimezone: true }),
  },
  (t) => [
    primaryKey({ columns: [t.targetId, t.recordingKey] }),
    index('playlist_target_tracks_batch_idx').on(t.targetId, t.batchId),
    index('playlist_target_tracks_added_idx').on(t.targetId, t.addedAt),
  ],
);

/** At most one playlist writer per user at a time, across processes: a lease that expires if its holder dies. */
export const playlistWriterLeases = pgTable('playlist_writer_leases', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  holder: text('holder').notNull(),
  until: timestamp('until', { withTimezone: true }).notNull(),
});
