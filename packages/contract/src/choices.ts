import { z } from 'zod';
import { SudoQuery } from './common.ts';
import { Meter } from './tempo.ts';
import { CORRECTION_MIN_BPM, CORRECTION_MAX_BPM } from './choices.rules.ts';

// A runner's control over their tracks: what each target holds, waits for and
// skipped, tempo corrections and exclusions.

/** A recording as the tempo cache keys it: `isrc:<ISRC>` or `spotify:<track id>`. */
export const RecordingKey = z
  .string()
  .regex(/^(isrc:[A-Z0-9]{5,32}|spotify:[A-Za-z0-9]{1,64})$/, 'must be isrc:<ISRC> or spotify:<track id>');

/** A Spotify id (base62). */
export const SpotifyId = z.string().regex(/^[A-Za-z0-9]{1,64}$/, 'must be a Spotify id');

/** Where a tempo came from: a source of the resolver, or the runner's own correction. */
export const TempoSourceName = z.enum([
  'spotify',
  'reccobeats',
  'deezer',
  'getsongbpm',
  'estimator',
  'correction',
]);
export type TempoSourceName = z.infer<typeof TempoSourceName>;

/** How a tempo meets a target's range: as it is, doubled (a half-time song) or halved (double time). */
export const Fold = z.enum(['none', 'double', 'half']);
export type Fold = z.infer<typeof Fold>;

/** Why a track that could fit a target is not placed. */
export const SkipReason = z.enum([
  'unknown_tempo',
  'uncertain',
  'excluded_track',
  'excluded_artist',
  // The target's filters: explicit, too short or long, not from Liked Songs.
  'explicit',
  'duration',
  'not_liked',
  // Its meter (a bar of 3, 5 or 7, or a 6/8) pulls against a two-step stride; a target can let it in.
  'meter_3_4',
  'meter_6_8',
  'meter_5_4',
  'meter_7_8',
]);
export type SkipReason = z.infer<typeof SkipReason>;

export const TrackList = z.enum(['placed', 'waiting', 'skipped']);
export type TrackList = z.infer<typeof TrackList>;

/** One track of a target's lists. */
export const TrackRow = z.object({
  track_id: z.string(),
  recording_key: z.string(),
  title: z.string(),
  artists: z.array(z.object({ id: z.string(), name: z.string() })),
  /** The tempo used (placed with, or that it would be placed with); null when unknown. */
  bpm: z.number().nullable(),
  source: TempoSourceName.nullable(),
  /** The resolver's confidence (0–1), null for a correction or an unknown tempo. */
  confidence: z.number().nullable(),
  fold: Fold.nullable(),
  /** The resolver's own tempo (what a correction overrides), when known. */
  resolver_bpm: z.number().nullable(),
  /** The runner's correction, when there is one. */
  corrected_bpm: z.number().nullable(),
  /** Placed: unix seconds it was added, null while its add is in flight. */
  added_at: z.number().int().nullable(),
  /** The meter it is matched with: the runner's correction, else the resolver's; null when nobody said. */
  meter: Meter.nullable(),
  /** The runner's meter correction, when there is one. */
  corrected_meter: Meter.nullable(),
  /** Skipped: why. */
  reason: SkipReason.nullable(),
  /** The runner excluded it since (by the track or its artist); it stays until they ask to remove it. */
  excluded: z.enum(['track', 'artist']).nullable(),
});
export type TrackRow = z.infer<typeof TrackRow>;

/** Offset paging of every long list. */
export const PageQuery = SudoQuery.extend({
  offset: z.coerce.number().int().min(0).max(1_000_000).default(0),
  limit: z.coerce.number().int().min(1).max(100).default(25),
});
export type PageQuery = z.infer<typeof PageQuery>;

export const TargetTracksParams = z.object({ targetId: z.uuid() });
export const TargetTracksQuery = PageQuery.extend({ list: TrackList.default('placed') });
export type TargetTracksQuery = z.infer<typeof TargetTracksQuery>;

/** GET /api/spotify/targets/:targetId/tracks */
export const TargetTracksReply = z.object({
  data: z.object({
    target: z.object({
      target_id: z.string(),
      target: z.string(),
      bpms: z.object({ min: z.number(), max: z.number() }),
      public_url: z.string().nullable(),
    }),
    list: TrackList,
    tracks: z.array(TrackRow),
    total: z.number().int().nonnegative(),
    next_offset: z.number().int().nullable(),
  }),
});
export type TargetTracksReply = z.infer<typeof TargetTracksReply>;

export const RecordingParams = z.object({ recordingKey: RecordingKey });

/** PUT /api/spotify/tempo_corrections/:recordingKey */
export const TempoCorrectionBody = z
  .object({
    bpm: z.number().min(CORRECTION_MIN_BPM).max(CORRECTION_MAX_BPM),
    /** Also remove it (what Pacebeat added) from the targets it no longer fits. */
    remove_from_old_targets: z.boolean().default(false),
  })
  .strict();
export type TempoCorrectionBody = z.input<typeof TempoCorrectionBody>;

export const TempoCorrectionReply = z.object({
  data: z.object({
    recording_key: z.string(),
    bpm: z.number().nullable(),
    /** Targets asked to remove it from. */
    removals_requested: z.number().int().nonnegative(),
  }),
});
export type TempoCorrectionReply = z.infer<typeof TempoCorrectionReply>;

/** PUT /api/spotify/meter_corrections/:recordingKey: "this one is in 4/4" (or any meter). */
export const MeterCorrectionBody = z
  .object({
    meter: Meter,
    /** Also remove it (what Pacebeat added) from the targets that do not take its meter. */
    remove_from_old_targets: z.boolean().default(false),
  })
  .strict();
export type MeterCorrectionBody = z.input<typeof MeterCorrectionBody>;

export const MeterCorrectionReply = z.object({
  data: z.object({
    recording_key: z.string(),
    meter: Meter,
    /** Targets asked to remove it from. */
    removals_requested: z.number().int().nonnegative(),
  }),
});
export type MeterCorrectionReply = z.infer<typeof MeterCorrectionReply>;

export const ExclusionKind = z.enum(['track', 'artist']);
export type ExclusionKind = z.infer<typeof ExclusionKind>;

/** A track is excluded by its recording key, an artist by its Spotify id. */
export const ExclusionParams = z
  .object({ kind: ExclusionKind, key: z.string().max(80) })
  .superRefine((p, ctx) => {
    const ok = (p.kind === 'track' ? RecordingKey : SpotifyId).safeParse(p.key).success;
    if (!ok)
      ctx.addIssue({
        code: 'custom',
        path: ['key'],
        message: p.kind === 'track' ? 'must be isrc:<ISRC> or spotify:<track id>' : 'must be a Spotify id',
      });
  });

export const Exclusion = z.object({
  kind: ExclusionKind,
  /** The recording key (track) or the Spotify artist id. */
  key: z.string(),
  /** The title or the artist's name. */
  label: z.string(),
  /** For a track: its artists' names. */
  detail: z.string(),
  created_at: z.number().int(),
});
export type Exclusion = z.infer<typeof Exclusion>;

/** PUT /api/spotify/exclusions/:kind/:key */
export const ExclusionBody = z
  .object({
    /** Also remove from every target what Pacebeat added of it. */
    remove_from_targets: z.boolean().default(false),
  })
  .strict();
export type ExclusionBody = z.input<typeof ExclusionBody>;

export const ExclusionReply = z.object({
  data: z.object({ exclusion: Exclusion, removals_requested: z.number().int().nonnegative() }),
});
export type ExclusionReply = z.infer<typeof ExclusionReply>;

/** GET /api/spotify/exclusions */
export const ExclusionsReply = z.object({
  data: z.object({
    exclusions: z.array(Exclusion),
    total: z.number().int().nonnegative(),
    next_offset: z.number().int().nullable(),
  }),
});
export type ExclusionsReply = z.infer<typeof ExclusionsReply>;

/** DELETE of a correction or an exclusion. */
export const UndoReply = z.object({ data: z.object({ undone: z.literal(true) }) });
export type UndoReply = z.infer<typeof UndoReply>;
