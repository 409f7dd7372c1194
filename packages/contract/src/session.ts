import { z } from 'zod';
import { ServiceName } from './common.ts';

/** GET /api/ping — answers for a signed-in user; 401 otherwise. */
export const PingReply = z.object({ message: z.string() });
export type PingReply = z.infer<typeof PingReply>;

export const DisabledService = z.object({ service: ServiceName, reason: z.string() });
export type DisabledService = z.infer<typeof DisabledService>;

/** GET /api/whoami — the user status the web app needs (spec §3). */
export const WhoamiReply = z.object({
  data: z.object({
    authenticated: z.boolean(),
    user: z
      .object({
        id: z.string(),
        email: z.string(),
        name: z.string(),
        is_admin: z.boolean(),
      })
      .nullable(),
    /** Connected music services, keyed by service name. */
    services: z.record(
      z.string(),
      z.object({
        connected: z.boolean(),
        /** The service is the built-in simulation (demo mode): the web app shows a "Demo mode" banner. */
        demo: z.boolean().optional(),
        /** While the call budget is spent or Spotify asked us to wait: when work resumes (unix seconds). */
        work_resumes_at: z.number().nullable().optional(),
        /**
         * Why work waits: `spotify` (Spotify asked us to wait, or the installation's day is spent) or
         * `share` (this runner's fair share of the day is spent; the others' work goes on).
         */
        work_waits_for: z.enum(['spotify', 'share']).nullable().optional(),
        /**
         * Why reading the runner's artists' catalogs waits (they stop first, before the playlist updates
         * that `work_waits_for` tells about), as `work_waits_for`; null when it does not.
         */
        catalogs_wait_for: z.enum(['spotify', 'share']).nullable().optional(),
      }),
    ),
    disabled_services: z.array(DisabledService),
    /** Set when an admin is viewing as another user. */
    sudo: z.string().nullable(),
  }),
});
export type WhoamiReply = z.infer<typeof WhoamiReply>;
