// A runner's own choices about their tracks: tempo and meter corrections and exclusions. They belong to the user
// (not to the shared tempo cache), so a rescan or a new answer from a tempo source never undoes them.
// Owned by src/choices/; matching reads them through the playlists module's RunnerChoices port.
import type { Meter } from '@pacebeat/contract';
import { index, pgTable, primaryKey, real, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './accounts.schema.ts';

/** The tempo a runner set for a recording (keyed like the tempo cache: `isrc:…` or `spotify:…`). */
export const tempoCorrections = pgTable(
  'tempo_corrections',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    recordingKey: text('recording_key').notNull(),
    bpm: real('bpm').notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.recordingKey] })],
);

/** The meter a runner set for a recording ("this one is in 4/4"), keyed like a tempo correction. */
export const meterCorrections = pgTable(
  'meter_corrections',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    recordingKey: text('recording_key').notNull(),
    meter: text('meter').$type<Meter>().notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.recordingKey] })],
);

/**
 * A recording (`kind` track, `key` its recording key) or an artist (`kind` artist, `key` the Spotify
 * artist id) the runner keeps out of every target. `label` is what the Excluded list shows (the title or
 * the artist's name when it was excluded; `detail` a track's artists), so the list reads well even if the library forgets the track.
 */
export const trackExclusions = pgTable(
  'track_exclusions',
  {
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    kind: text('kind', { enum: ['track', 'artist'] }).notNull(),
    key: text('key').notNull(),
    label: text('label').notNull().default(''),
    /** For a track: its artists' names, as they were. */
    detail: text('detail').notNull().default(''),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    primaryKey({ columns: [t.userId, t.kind, t.key] }),
    index('track_exclusions_user_created_idx').on(t.userId, t.createdAt),
  ],
);
