// Tempo tables: the shared tempo cache (one row per recording, for all users) and each outside tempo
// service's pacing and cooldown, shared by every process. Owned by src/tempo/.
import type { Meter } from '@pacebeat/contract';
import { index, integer, jsonb, pgTable, real, text, timestamp } from 'drizzle-orm/pg-core';

/** One alternative tempo seen for a recording, with where it came from. */
export interface TempoAlternative {
  bpm: number;
  source: string;
  confidence: number;
  /** The time signature this source gives (3/4, 4/4, …), when it gives one. */
  meter?: Meter;
}

/**
 * The tempo of a recording, keyed `isrc:<ISRC>` when the ISRC is known, else `spotify:<track id>`.
 * A row with `bpm` null is a negative result: `reason` says why, and it is looked up again after `retryAt`.
 */
export const tempoRecordings = pgTable(
  'tempo_recordings',
  {
    key: text('key').primaryKey(),
    isrc: text('isrc'),
    spotifyId: text('spotify_id'),
    bpm: real('bpm'),
    /** spotify | reccobeats | deezer | getsongbpm | estimator; null when unknown. */
    source: text('source'),
    confidence: real('confidence').notNull().default(0),
    alternatives: jsonb('alternatives').$type<TempoAlternative[]>().notNull().default([]),
    reason: text('reason'),
    /** 4/4 | 3/4 | 6/8 | 5/4 | 7/8 (tempo/meter.ts); null when no source or audio said. */
    meter: text('meter').$type<Meter>(),
    /** How sure (0..1): the posterior of `meter` given the labels and the audio. */
    meterConfidence: real('meter_confidence').notNull().default(0),
    retryAt: timestamp('retry_at', { withTimezone: true }),
    attempts: integer('attempts').notNull().default(1),
    resolvedAt: timestamp('resolved_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('tempo_recordings_retry_at_idx').on(t.retryAt)],
);

/**
 * Pacing per outside tempo service (GCRA): `nextAt` is the theoretical arrival time of the next call;
 * `cooldownUntil` is set from a 429, a quota answer or repeated failures. Shared by every process.
 */
export const tempoServiceLimits = pgTable('tempo_service_limits', {
  service: text('service').primaryKey(),
  nextAt: timestamp('next_at', { withTimezone: true }).notNull(),
  cooldownUntil: timestamp('cooldown_until', { withTimezone: true }),
  cooldownReason: text('cooldown_reason'),
});
