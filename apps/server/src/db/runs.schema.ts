// Runs: a runner's saved workouts (segments and repeats), each with its one Spotify playlist, and the
// builds made of it (the songs in playing order). Owned by src/runs/.
import { sql } from 'drizzle-orm';
import {
  boolean,
  index,
  integer,
  jsonb,
  pgTable,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.schema.ts';

/** One song of a build, as stored (the reply's RunSong, with the artists' ids for spacing). */
export interface StoredRunSong {
  trackId: string;
  recordingKey: string;
  title: string;
  artistIds: string[];
  artists: string[];
  durationMs: number;
  bpm: number;
  fit: 'as_is' | 'half_time' | 'double_time';
  segment: number;
  startS: number;
  spans: boolean;
  fresh: boolean;
}

export const runs = pgTable(
  'runs',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    name: text('name').notNull(),
    /** The run's blocks as the runner saved them (contract RunBlock[]). */
    blocks: jsonb('blocks').notNull(),
    halfTime: boolean('half_time').notNull().default(true),
    noExplicit: boolean('no_explicit').notNull().default(false),
    likedOnly: boolean('liked_only').notNull().default(false),
    /** The run's playlist in the runner's Spotify account, once made. */
    playlistId: text('playlist_id'),
    publicUrl: text('public_url'),
    /** The name and description last sent to Spotify: a build changes them only when they differ. */
    sentName: text('sent_name'),
    sentDescription: text('sent_description'),
    /** Set before `POST /me/playlists`: an unclear creation is looked for by name before making another. */
    creatingSince: timestamp('creating_since', { withTimezone: true }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [uniqueIndex('runs_user_name_key').on(t.userId, sql`lower(${t.name})`)],
);

/** A build of a run: its songs in playing order, and how its writing to Spotify went. */
export const runBuilds = pgTable(
  'run_builds',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    runId: uuid('run_id')
      .notNull()
      .references(() => runs.id, { onDelete: 'cascade' }),
    builtAt: timestamp('built_at', { withTimezone: true }).notNull().defaultNow(),
    songs: jsonb('songs').$type<StoredRunSong[]>().notNull(),
    /** written: the playlist holds these songs; waiting: not yet (the share spent); failed: Spotify refused. */
    spotifyState: text('spotify_state', { enum: ['written', 'waiting', 'failed'] }).notNull(),
    spotifyMessage: text('spotify_message'),
    spotifyCalls: integer('spotify_calls').notNull().default(0),
  },
  (t) => [index('run_builds_run_idx').on(t.runId, t.builtAt)],
);
