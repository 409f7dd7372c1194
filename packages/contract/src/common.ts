import { z } from 'zod';
import { SUDO_MAX_LENGTH } from './common.rules.ts';

/** Every error the API answers has this shape (one envelope, STYLE.md §10). */
export const ErrorReply = z.object({
  error: z.object({
    /** Stable machine-readable code, e.g. `ValidationError`, `Unauthorized`, `ExRestApiAuthEmailNotVerified`. */
    code: z.string(),
    /** Plain-language message, safe to show. */
    message: z.string(),
    /**
     * A 400's refusals one by one, so a form can show each under its field: `field` is the path in the
     * body, query or address (`name`, `filters.max_duration_s`; empty for the whole), `message` a sentence.
     */
    fields: z.array(z.object({ field: z.string(), message: z.string() })).optional(),
  }),
  /** Same as `error.code`; the spec's clients read `error_name`. */
  error_name: z.string(),
  requestId: z.string(),
});
export type ErrorReply = z.infer<typeof ErrorReply>;

/** Query accepted by every /api route: an admin may act as another user (spec §6). */
export const SudoQuery = z.object({
  sudo: z.string().trim().min(1).max(SUDO_MAX_LENGTH).optional(),
});
export type SudoQuery = z.infer<typeof SudoQuery>;

/** The music services Pacebeat can connect (spec §9: the provider identifier is `spotify`). */
export const ServiceName = z.enum(['spotify']);
export type ServiceName = z.infer<typeof ServiceName>;
