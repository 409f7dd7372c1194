import { z } from 'zod';

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

/** The API's own sentences for a 400 whose field has no message of its contract (see the error handler). */
export const REQUEST_TEXTS = {
  badAddress: 'This address does not lead to anything here: the link may be broken.',
  badRequest: 'The request is not in the form this address accepts.',
  /** A lone surrogate (half of a UTF-16 pair) in any field: no text holds one. */
  brokenText: 'The request holds a broken character (not valid text), which no field accepts.',
} as const;

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
