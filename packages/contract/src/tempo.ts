import { z } from 'zod';

/** The site GetSongBPM's terms require a visible link to, wherever their data is used. */
export const GETSONGBPM_URL = 'https://getsongbpm.com';

/** GET /api/tempo/credits — public: which tempo sources the footer must credit. */
export const TempoCreditsReply = z.object({
  data: z.object({
    /** GetSongBPM is in use (a key is set): show a visible link to getsongbpm.com in the footer. */
    getsongbpm: z.boolean(),
  }),
});
export type TempoCreditsReply = z.infer<typeof TempoCreditsReply>;
