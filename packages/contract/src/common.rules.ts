// What every call shares, without zod: the API's own sentences, the sudo limit, the base path.

/** The API's own sentences for a 400 whose field has no message of its contract (see the error handler). */
export const REQUEST_TEXTS = {
  badAddress: 'This address does not lead to anything here: the link may be broken.',
  badRequest: 'The request is not in the form this address accepts.',
  /** A lone surrogate (half of a UTF-16 pair) in any field: no text holds one. */
  brokenText: 'The request holds a broken character (not valid text), which no field accepts.',
} as const;

/** The longest `?sudo=` value (an email or a user id). */
export const SUDO_MAX_LENGTH = 320;

export const API_BASE = '/api';
export const APP_VERSION = '0.6-3';
