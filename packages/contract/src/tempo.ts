import { z } from 'zod';

/** GET /api/tempo/credits — public: which tempo sources the footer must credit. */
export const TempoCreditsReply = z.object({
  data: z.object({
    /** GetSongBPM is in use (a key is set): show a visible link to getsongbpm.com in the footer. */
    getsongbpm: z.boolean(),
  }),
});
export type TempoCreditsReply = z.infer<typeof TempoCreditsReply>;
