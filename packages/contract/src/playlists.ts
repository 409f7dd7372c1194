import { z } from 'zod';
import { FirstFill } from './library.ts';

// ---- editing targets (issue 15) ----------------------------------------------------------------

/** The BPM ranges a target may have (a runner's cadence, or half of it for a slow song's beat). */
export const TARGET_BPM_MIN = 60;
export const TARGET_BPM_MAX = 220;
/** The narrowest BPM range a target may have (a narrower one fits almost no song). */
export const TARGET_BPM_MIN_WIDTH = 1;
/** The longest target (and playlist) name, in characters as people count them (graphemes: 🏃‍♀️ is one). */
export const TARGET_NAME_MAX = 100;
/** A bound on the name's UTF-16 length too, so a hundred long emoji sequences stay a sane playlist name. */
export const TARGET_NAME_MAX_CODE_UNITS = 1000;
/** The longest duration limit, in seconds. */
export const TARGET_DURATION_MAX_S = 3600;

/** The refusals of a target's fields, written for people (the API answers them as `error.message`). */
export const TARGET_TEXTS = {
  nameEmpty: 'The name may not be empty.',
  nameTooLong: `The name may hold at most ${TARGET_NAME_MAX} characters.`,
  nameControl: 'The name may not hold line breaks, tabs or other control characters.',
  bpmTooLow: `BPM must be at least ${TARGET_BPM_MIN}.`,
  bpmTooHigh: `BPM must be at most ${TARGET_BPM_MAX}.`,
  bpmNotNumber: 'BPM must be a number.',
  rangeOrder: 'The lowest BPM must be below the highest.',
  rangeTooNarrow: `The highest BPM must be at least ${TARGET_BPM_MIN_WIDTH} above the lowest.`,
  durationOrder: 'The shortest duration must not exceed the longest.',
  duration: `A duration limit must be a whole number of seconds, from 0 to ${TARGET_DURATION_MAX_S}.`,
  noSuchTarget: 'You have no such target.',
} as const;

const Bpm = z
  .number(TARGET_TEXTS.bpmNotNumber)
  .min(TARGET_BPM_MIN, TARGET_TEXTS.bpmTooLow)
  .max(TARGET_BPM_MAX, TARGET_TEXTS.bpmTooHigh);

/**
 * A playlist link as Spotify gives it (`external_urls.spotify`), only when it is an https link to
 * open.spotify.com; anything else (another host, another scheme, `javascript:`) is no link at all.
 */
export function spotifyLink(url: string | null | undefined): string | null {
  if (!url) return null;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const ok =
    u.protocol === 'https:' && u.hostname === 'open.spotify.com' && !u.port && !u.username && !u.password;
  return ok ? u.href : null;
}

/** Why a BPM range is refused, in plain words, or null when it is fine. */
export function bpmRangeProblem(min: number, max: number): string | null {
  if (!(min < max)) return TARGET_TEXTS.rangeOrder;
  if (max - min < TARGET_BPM_MIN_WIDTH) return TARGET_TEXTS.rangeTooNarrow;
  return null;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** How many characters a person sees in `text` (grapheme clusters: 🏃‍♀️, é and 🇫🇷 count one each). */
export function graphemeCount(text: string): number {
  return [...segmenter.segment(text)].length;
}

/**
 * What breaks a playlist name: control characters (line breaks, tabs), line and paragraph separators,
 * lone surrogates, and the invisible bidirectional overrides that make a name read other than it is.
 * Not the joiners, variation selectors and tags inside emoji sequences (🏃‍♀️, ❤️, 🏴󠁧󠁢󠁳󠁣󠁴󠁿).
 */
const BREAKS_A_NAME = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/u;

/** Why a (trimmed) name is refused, in plain words, or null when it is fine. */
export function targetNameProblem(name: string): string | null {
  if (name.length === 0) return TARGET_TEXTS.nameEmpty;
  if (BREAKS_A_NAME.test(name)) return TARGET_TEXTS.nameControl;
  if (name.length > TARGET_NAME_MAX_CODE_UNITS || graphemeCount(name) > TARGET_NAME_MAX)
    return TARGET_TEXTS.nameTooLong;
  return null;
}

/** A target's name: the runner's text, shown escaped everywhere and sent to Spotify as the playlist's name. */
export const TargetName = z
  .string()
  .trim()
  .superRefine((name, ctx) => {
    const problem = targetNameProblem(name);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  });

const DurationS = z
  .number(TARGET_TEXTS.duration)
  .int(TARGET_TEXTS.duration)
  .min(0, TARGET_TEXTS.duration)
  .max(TARGET_DURATION_MAX_S, TARGET_TEXTS.duration)
  .nullable();

/** A target's filters: what is left out of its playlist. */
export const TargetFilters = z.object({
  /** Leave out tracks Spotify marks explicit. */
  no_explicit: z.boolean(),
  /** Shortest and longest track, in seconds; null: no limit. */
  min_duration_s: DurationS,
  max_duration_s: DurationS,
  /** Only tracks of Liked Songs (not playlists or the artist catalogs). */
  liked_only: z.boolean(),
});
export type TargetFilters = z.infer<typeof TargetFilters>;

/** One row of the spec's "Target playlists" table, with the spec's field names (§3). */
export const Target = z.object({
  /** Pacebeat's id of the target (beyond the spec: a stable key for the page and later edits). */
  target_id: z.string(),
  /** The target's name (also its Spotify playlist's name). */
  target: z.string(),
  /** The playlist's `external_urls.spotify`, or null until the playlist exists. */
  public_url: z.string().nullable(),
  /** Unix seconds of the last finished write job, or null. */
  timestamp_last_job_finished: z.number().int().nullable(),
  /** Formatted in the user's time zone; null when the timestamp is. */
  timestamp_last_job_finished_str: z.string().nullable(),
  bpms: z.object({ min: z.number(), max: z.number() }),
  /** The target's filters (beyond the spec). */
  filters: TargetFilters.optional(),
  /** Absent while unknown (the page then shows N/A). */
  stats: z
    .object({
      tracks_added: z.number().int().nonnegative(),
      tracks_added_7days: z.number().int().nonnegative(),
    })
    .optional(),
});
export type Target = z.infer<typeof Target>;

/** GET /api/spotify/targets */
export const TargetsReply = z.object({
  data: z.object({ targets: z.array(Target), first_fill: FirstFill.nullable().optional() }),
});
export type TargetsReply = z.infer<typeof TargetsReply>;

const durationsOrdered = (f: Partial<TargetFilters> | undefined) =>
  f?.min_duration_s == null || f.max_duration_s == null || f.min_duration_s <= f.max_duration_s;

/** POST /api/spotify/targets: a new target (name: "Pacebeat {min}–{max} BPM" when absent). */
export const NewTargetBody = z
  .object({
    name: TargetName.optional(),
    min_bpm: Bpm,
    max_bpm: Bpm,
    filters: TargetFilters.partial().strict().optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    const problem = bpmRangeProblem(b.min_bpm, b.max_bpm);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['max_bpm'] });
  })
  .refine((b) => durationsOrdered(b.filters), {
    message: TARGET_TEXTS.durationOrder,
    path: ['filters', 'max_duration_s'],
  });
export type NewTargetBody = z.infer<typeof NewTargetBody>;

/** PATCH /api/spotify/targets/{id}: what changes (the range is checked against the stored one). */
export const TargetEditBody = z
  .object({
    name: TargetName.optional(),
    min_bpm: Bpm.optional(),
    max_bpm: Bpm.optional(),
    filters: TargetFilters.partial().strict().optional(),
  })
  .strict()
  .superRefine((b, ctx) => {
    const problem =
      b.min_bpm === undefined || b.max_bpm === undefined ? null : bpmRangeProblem(b.min_bpm, b.max_bpm);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['max_bpm'] });
  })
  .refine((b) => durationsOrdered(b.filters), {
    message: TARGET_TEXTS.durationOrder,
    path: ['filters', 'max_duration_s'],
  });
export type TargetEditBody = z.infer<typeof TargetEditBody>;

export const TargetParams = z.object({ id: z.uuid(TARGET_TEXTS.noSuchTarget) });
export type TargetParams = z.infer<typeof TargetParams>;

/** One target after a change. */
export const TargetReply = z.object({ data: z.object({ target: Target }) });
export type TargetReply = z.infer<typeof TargetReply>;

/** DELETE /api/spotify/targets/{id}: the target is gone from Pacebeat; its Spotify playlist stays. */
export const TargetDeletedReply = z.object({ data: z.object({ deleted: z.literal(true) }) });
export type TargetDeletedReply = z.infer<typeof TargetDeletedReply>;

/** POST /api/spotify/targets/{id}/remove_unfitting: tracks marked; Pacebeat removes those that no longer fit. */
export const RemoveUnfittingReply = z.object({ data: z.object({ marked: z.number().int().nonnegative() }) });
export type RemoveUnfittingReply = z.infer<typeof RemoveUnfittingReply>;
