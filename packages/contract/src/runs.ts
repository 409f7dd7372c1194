import { z } from 'zod';
import { Bpm, TargetName } from './playlists.ts';
import { bpmRangeProblem } from './playlists.rules.ts';
import {
  RUN_BLOCKS_MAX,
  RUN_LABEL_MAX,
  RUN_REPEAT_SEGMENTS_MAX,
  RUN_REPEAT_TIMES_MAX,
  RUN_REPEAT_TIMES_MIN,
  RUN_SEGMENT_MAX_S,
  RUN_SEGMENT_MIN_S,
  RUN_SEGMENTS_MAX,
  RUN_TEXTS,
  RUN_TOTAL_MAX_S,
  runDuration,
  segmentCount,
} from './runs.rules.ts';

// Runs: a workout's segments (a duration and a BPM range each, with repeats), built into one playlist
// from the runner's own songs.

const CONTROL = /[\p{Cc}\p{Zl}\p{Zp}]/u;

const Label = z
  .string()
  .trim()
  .max(RUN_LABEL_MAX, RUN_TEXTS.labelTooLong)
  .refine((s) => !CONTROL.test(s), RUN_TEXTS.labelControl);

export const RunSegment = z
  .object({
    duration_s: z
      .number(RUN_TEXTS.durationRange)
      .int(RUN_TEXTS.durationRange)
      .min(RUN_SEGMENT_MIN_S, RUN_TEXTS.durationRange)
      .max(RUN_SEGMENT_MAX_S, RUN_TEXTS.durationRange),
    min_bpm: Bpm,
    max_bpm: Bpm,
    label: Label.default(''),
  })
  .strict()
  .superRefine((s, ctx) => {
    const problem = bpmRangeProblem(s.min_bpm, s.max_bpm);
    if (problem) ctx.addIssue({ code: 'custom', message: problem, path: ['max_bpm'] });
  });
export type RunSegment = z.infer<typeof RunSegment>;

export const RunBlock = z.discriminatedUnion('kind', [
  RunSegment.safeExtend({ kind: z.literal('segment') }),
  z
    .object({
      kind: z.literal('repeat'),
      times: z
        .number(RUN_TEXTS.repeatTimes)
        .int(RUN_TEXTS.repeatTimes)
        .min(RUN_REPEAT_TIMES_MIN, RUN_TEXTS.repeatTimes)
        .max(RUN_REPEAT_TIMES_MAX, RUN_TEXTS.repeatTimes),
      segments: z
        .array(RunSegment)
        .min(1, RUN_TEXTS.repeatSegments)
        .max(RUN_REPEAT_SEGMENTS_MAX, RUN_TEXTS.repeatSegments),
    })
    .strict(),
]);
export type RunBlock = z.infer<typeof RunBlock>;

/** POST /api/spotify/runs and PUT /api/spotify/runs/{id}: a run as the runner saves it. */
export const RunBody = z
  .object({
    name: TargetName,
    blocks: z.array(RunBlock).min(1, RUN_TEXTS.noBlocks).max(RUN_BLOCKS_MAX, RUN_TEXTS.tooManyBlocks),
    /** Songs whose beat is half (or double) the segment's range count too (a 85 BPM song for 170 steps). */
    half_time: z.boolean().default(true),
    /** Leave out tracks Spotify marks explicit. */
    no_explicit: z.boolean().default(false),
    /** Only tracks of Liked Songs. */
    liked_only: z.boolean().default(false),
  })
  .strict()
  .refine((b) => segmentCount(b.blocks) <= RUN_SEGMENTS_MAX, {
    message: RUN_TEXTS.tooManySegments,
    path: ['blocks'],
  })
  .refine((b) => runDuration(b.blocks) <= RUN_TOTAL_MAX_S, { message: RUN_TEXTS.tooLong, path: ['blocks'] });
export type RunBody = z.infer<typeof RunBody>;

export const RunParams = z.object({ id: z.uuid(RUN_TEXTS.noSuchRun) });
export type RunParams = z.infer<typeof RunParams>;

/** How a song's tempo meets its segment: as it is, or its beat doubled (half-time) or halved. */
export const RunFit = z.enum(['as_is', 'half_time', 'double_time']);
export type RunFit = z.infer<typeof RunFit>;

/** One song of a built run, in playing order. */
export const RunSong = z.object({
  track_id: z.string(),
  recording_key: z.string(),
  title: z.string(),
  artists: z.array(z.string()),
  duration_ms: z.number().int(),
  /** The tempo it was chosen with (the runner's correction, or the checked tempo). */
  bpm: z.number(),
  fit: RunFit,
  /** The segment whose tempo it has: the one it mostly covers. */
  segment: z.number().int(),
  /** Seconds from the start of the run. */
  start_s: z.number(),
  /** It plays across a change of segment (the segment's tempo is that of the part it mostly covers). */
  spans: z.boolean(),
  /** Not used by the run's last builds. */
  fresh: z.boolean(),
});
export type RunSong = z.infer<typeof RunSong>;

/** A segment of the unfolded run, with the songs of the runner's library that fit it. */
export const PlannedRunSegment = z.object({
  index: z.number().int(),
  label: z.string(),
  start_s: z.number().int(),
  duration_s: z.number().int(),
  min_bpm: z.number(),
  max_bpm: z.number(),
  round: z.number().int().nullable(),
  /** Songs of the runner's library whose checked tempo fits (exclusions and filters applied). */
  pool: z.number().int(),
});

export const RunSpotifyState = z.enum(['written', 'waiting', 'failed']);

export const RunBuild = z.object({
  /** Unix seconds. */
  built_at: z.number().int(),
  songs: z.array(RunSong),
  /** The songs' total length, against the plan's `planned_s`. */
  total_s: z.number().int(),
  /** The largest distance between a planned change of segment and the nearest song boundary, in seconds. */
  boundary_max_s: z.number().int(),
  spotify: z.object({
    state: RunSpotifyState,
    /** A sentence for the runner when it is not in Spotify yet (the share spent, a refusal). */
    message: z.string().nullable(),
    /** Spotify calls this build's writing cost. */
    calls: z.number().int(),
  }),
});
export type RunBuild = z.infer<typeof RunBuild>;

export const Run = z.object({
  run_id: z.string(),
  name: z.string(),
  blocks: z.array(RunBlock),
  half_time: z.boolean(),
  no_explicit: z.boolean(),
  liked_only: z.boolean(),
  /** The run's playlist in Spotify (`external_urls.spotify`), once built. */
  public_url: z.string().nullable(),
  planned_s: z.number().int(),
  /** The plan in words (also the playlist's description). */
  description: z.string(),
  segments: z.array(PlannedRunSegment),
  /** Where the library has too few songs, a sentence each with what would help; empty when it has enough. */
  pool_notes: z.array(z.string()),
  build: RunBuild.nullable(),
});
export type Run = z.infer<typeof Run>;

export const RunReply = z.object({ data: z.object({ run: Run }) });
export type RunReply = z.infer<typeof RunReply>;

export const RunSummary = z.object({
  run_id: z.string(),
  name: z.string(),
  planned_s: z.number().int(),
  segments: z.number().int(),
  public_url: z.string().nullable(),
  /** Unix seconds of the last build, or null. */
  built_at: z.number().int().nullable(),
});
export type RunSummary = z.infer<typeof RunSummary>;

/** GET /api/spotify/runs */
export const RunsReply = z.object({ data: z.object({ runs: z.array(RunSummary) }) });
export type RunsReply = z.infer<typeof RunsReply>;

/** DELETE /api/spotify/runs/{id}: gone from Pacebeat; its Spotify playlist stays. */
export const RunDeletedReply = z.object({ data: z.object({ deleted: z.literal(true) }) });
export type RunDeletedReply = z.infer<typeof RunDeletedReply>;
