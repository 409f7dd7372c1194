import { z } from 'zod';

/** The kinds of source a library scan reads (spec §3 "Source": `kind`). */
export const SourceKind = z.enum(['liked_songs', 'playlist', 'followed_artists', 'artist_catalogs']);
export type SourceKind = z.infer<typeof SourceKind>;

/** Where a source's scan stands, for the status page's progress (beyond the spec). */
export const SourceProgress = z.object({
  /** idle: nothing to do; scanning: pages queued or being read; waiting: paused by Spotify's budget or a
   *  cooldown; failed: the last scan gave up (see `error`); unreadable: Spotify lets this app not read it. */
  state: z.enum(['idle', 'scanning', 'waiting', 'failed', 'unreadable']),
  /** Pages read in the current (or last) scan, and pages known to exist (null while unknown). */
  pages_read: z.number().int().nonnegative(),
  pages_total: z.number().int().nonnegative().nullable(),
  /** Items (tracks, artists or releases) read so far, and the total Spotify reported (null while unknown). */
  items_read: z.number().int().nonnegative(),
  items_total: z.number().int().nonnegative().nullable(),
  /** Of this source's tracks, how many have a tempo so far. */
  tracks_with_tempo: z.number().int().nonnegative(),
  /** When a waiting scan resumes (unix seconds), or null. */
  resumes_at: z.number().int().nullable(),
  /** Plain-language reason of a failure, or null. */
  error: z.string().nullable(),
});
export type SourceProgress = z.infer<typeof SourceProgress>;

/** One row of the spec's "Sources" table, with the spec's field names. */
export const Source = z.object({
  kind: SourceKind,
  source_id: z.string(),
  name: z.string(),
  /** HTML made by the server: everything that came from Spotify or the user is escaped. */
  front_tooltip: z.string().optional(),
  enabled: z.boolean(),
  /** False when the source cannot be enabled (a playlist the user only follows). */
  can_enable: z.boolean(),
  /** Unix seconds, or null before the first scan finished. */
  timestamp_last_job_finished: z.number().int().nullable(),
  /** Formatted in the user's time zone; null when the timestamp is. */
  timestamp_last_job_finished_str: z.string().nullable(),
  /** `known_tracks` is absent while unknown. */
  stats: z.object({ known_tracks: z.number().int().nonnegative().optional() }),
  progress: SourceProgress,
});
export type Source = z.infer<typeof Source>;

/** GET /api/spotify/sources */
export const SourcesReply = z.object({
  data: z.object({
    sources: z.array(Source),
    /** The whole library at a glance: distinct tracks known, and how many have a tempo. */
    summary: z.object({
      tracks_known: z.number().int().nonnegative(),
      tracks_with_tempo: z.number().int().nonnegative(),
      tracks_without_tempo: z.number().int().nonnegative(),
    }),
  }),
});
export type SourcesReply = z.infer<typeof SourcesReply>;

/** POST /api/spotify/source_change (spec §7). */
export const SourceChangeBody = z.object({
  kind: SourceKind,
  source_id: z.string().trim().min(1).max(200),
  enabled: z.boolean(),
});
export type SourceChangeBody = z.infer<typeof SourceChangeBody>;

export const SourceChangeReply = z.object({ data: z.object({ source: Source }) });
export type SourceChangeReply = z.infer<typeof SourceChangeReply>;
