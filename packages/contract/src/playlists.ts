import { z } from 'zod';
import { FirstFill } from './library.ts';
import { OtherMeter } from './tempo.ts';
import {
  TARGET_BPM_MIN,
  TARGET_BPM_MAX,
  TARGET_DURATION_MAX_S,
  TARGET_TEXTS,
  bpmRangeProblem,
  targetNameProblem,
} from './playlists.rules.ts';

// ---- editing targets ---------------------------------------------------------------------------

/** A BPM a target's (or a run part's) range may start or end at. */
export const Bpm = z
  .number(TARGET_TEXTS.bpmNotNumber)
  .min(TARGET_BPM_MIN, TARGET_TEXTS.bpmTooLow)
  .max(TARGET_BPM_MAX, TARGET_TEXTS.bpmTooHigh);

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
  /**
   * The meters other than 4/4 this target takes (3/4, 6/8, 5/4, 7/8); empty by default: their bar pulls
   * against a two-step stride.
   */
  meters_included: z
    .array(OtherMeter)
    .max(OtherMeter.options.length)
    .refine((m) => new Set(m).size === m.length, 'must not name a meter twice'),
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
