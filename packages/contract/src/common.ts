import { z } from 'zod';

/** Every error the API answers has this shape (one envelope, STYLE.md §10). */
export const ErrorReply = z.object({
  error: z.object({
    /** Stable machine-readable code, e.g. `ValidationError`, `Unauthorized`, `ExRestApiAuthEmailNotVerified`. */
    code: z.string(),
    /** Plain-language message, safe to show. */
    message: z.string(),
  }),
  /** Same as `error.code`; the spec's clients read `error_name`. */
  error_name: z.string(),
  requestId: z.string(),
});
export type ErrorReply = z.infer<typeof ErrorReply>;

/** The longest `?sudo=` value (an email or a user id). */
export const SUDO_MAX_LENGTH = 320;

/** Query accepted by every /api route: an admin may act as another user (spec §6). */
export const SudoQuery = z.object({
  sudo: z.string().trim().min(1).max(SUDO_MAX_LENGTH).optional(),
});
export type SudoQuery = z.infer<typeof SudoQuery>;

/** The music services Pacebeat can connect (spec §9: the provider identifier is `spotify`). */
export const ServiceName = z.enum(['spotify']);
export type ServiceName = z.infer<typeof ServiceName>;

export const API_BASE = '/api';
export const APP_VERSION = '0.6-3';
