// Spotify's error bodies, on top of the shared outbound HTTP layer.
export { backoffDelay, fetchWithTimeout, NetworkError, parseRetryAfter } from '../outbound/http.ts';

export interface SpotifyErrorBody {
  /** API errors: `error.message`; auth errors: `error_description` or `error`. */
  message: string;
  /** API errors: `error.reason` (e.g. QUOTA_EXCEEDED); auth errors: `error` (e.g. invalid_grant). */
  reason: string | undefined;
}

/** Reads both error shapes: `{error: {status, message, reason?}}` and `{error, error_description}`. */
export function parseErrorBody(text: string): SpotifyErrorBody {
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    return { message: text.slice(0, 200), reason: undefined };
  }
  if (body && typeof body === 'object' && 'error' in body) {
    const error = (body as { error: unknown; error_description?: unknown }).error;
    if (error && typeof error === 'object') {
      const e = error as { message?: unknown; reason?: unknown };
      return {
        message: typeof e.message === 'string' ? e.message : '',
        reason: typeof e.reason === 'string' ? e.reason : undefined,
      };
    }
    if (typeof error === 'string') {
      const description = (body as { error_description?: unknown }).error_description;
      return { message: typeof description === 'string' ? description : error, reason: error };
    }
  }
  return { message: text.slice(0, 200), reason: undefined };
}
