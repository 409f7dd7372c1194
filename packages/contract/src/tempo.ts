import { z } from 'zod';
import { METERS, OTHER_METERS } from './tempo.rules.ts';

/** GET /api/tempo/credits — public: which tempo sources the footer must credit. */
export const TempoCreditsReply = z.object({
  data: z.object({
    /** GetSongBPM is in use (a key is set): show a visible link to getsongbpm.com in the footer. */
    getsongbpm: z.boolean(),
  }),
});
export type TempoCreditsReply = z.infer<typeof TempoCreditsReply>;

/**
 * A song's meter: 4/4 (and every duple feel a runner steps to), 3/4, 6/8 (two beats a bar of three
 * eighths each), 5/4, 7/8.
 */
export const Meter = z.enum(METERS);
export type Meter = z.infer<typeof Meter>;

/** The meters other than 4/4: left out of pace playlists unless a target lets them in. */
export const OtherMeter = z.enum(OTHER_METERS);
export type OtherMeter = z.infer<typeof OtherMeter>;
