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
  /** Of this source's songs (`stats.known_tracks`), how many have a tempo Pacebeat trusts so far. */
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
  /** `known_tracks` (songs: one per recording, however many tracks carry it) is absent while unknown. */
  stats: z.object({ known_tracks: z.number().int().nonnegative().optional() }),
  progress: SourceProgress,
});
export type Source = z.infer<typeof Source>;

/** GET /api/spotify/sources */
export const SourcesReply = z.object({
  data: z.object({
    sources: z.array(Source),
    /** The whole library at a glance: songs (one per recording) of the enabled sources, and how many have a
     *  tempo Pacebeat trusts: the same figures as GET tempo_histogram's. */
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

// ---- refresh now and the tempo chart -----------------------------------------------------------

/** POST /api/spotify/refresh: a rescan of one source (kind and source_id) or, empty, of everything. */
export const RefreshBody = z
  .object({ kind: SourceKind.optional(), source_id: z.string().trim().min(1).max(200).optional() })
  .strict()
  .refine((b) => (b.kind === undefined) === (b.source_id === undefined), {
    message: 'Give both kind and source_id for one source, or neither for everything.',
  });
export type RefreshBody = z.infer<typeof RefreshBody>;

export const RefreshReply = z.object({
  data: z.object({
    /** False when a rescan of everything was asked for less than a minute ago (it is already queued). */
    queued: z.boolean(),
    /** Unix seconds when it can start: now, or when Spotify's budget allows again. */
    runs_at: z.number().int(),
    runs_at_str: z.string(),
    /** Says in words when it runs. */
    message: z.string(),
  }),
});
export type RefreshReply = z.infer<typeof RefreshReply>;

/** The octave every tempo is folded into (by halving or doubling) for the chart: running cadences. */
export const TEMPO_FOLD = { min: 110, max: 220 } as const;

/** GET /api/spotify/tempo_histogram: the user's tracks per folded BPM (1 BPM bins, aggregated on the server). */
export const TempoHistogramReply = z.object({
  data: z.object({
    fold: z.object({ min: z.number(), max: z.number() }),
    /** Only bins with tracks, by BPM ascending; `bpm` is the bin's lower edge. */
    bins: z.array(z.object({ bpm: z.number().int(), tracks: z.number().int().nonnegative() })),
    /** Tracks of the enabled sources with a tempo Pacebeat trusts, and those without. */
    tracks_with_tempo: z.number().int().nonnegative(),
    tracks_without_tempo: z.number().int().nonnegative(),
  }),
});
export type TempoHistogramReply = z.infer<typeof TempoHistogramReply>;

/**
 * GET /api/spotify/targets, `first_fill`: while the runner has no playlist yet, how far the first
 * fill is: Pacebeat creates the playlists at once when `matches` reaches `needed`, or with fewer a few
 * seconds after the first match (the writer's `firstFillWaitMs`, 15 s). Null once a playlist exists.
 */
export const FirstFill = z.object({
  /** Songs matched to the runner's paces so far (a song fitting two paces counts twice, as it is placed). */
  matches: z.number().int().nonnegative(),
  needed: z.number().int().positive(),
});
export type FirstFill = z.infer<typeof FirstFill>;
