import { z } from 'zod';

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
export const TargetsReply = z.object({ data: z.object({ targets: z.array(Target) }) });
export type TargetsReply = z.infer<typeof TargetsReply>;
