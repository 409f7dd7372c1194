// The one HTTP layer for every outside service (Spotify, Deezer, ReccoBeats, GetSongBPM, previews):
// timeouts, Retry-After, capped exponential backoff with jitter. Each service's client builds on it.

/** `Retry-After` as delta-seconds or an HTTP date; null when absent or unreadable. */
export function parseRetryAfter(value: string | null | undefined, now: Date): number | null {
  if (value === null || value === undefined) return null;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const at = Date.parse(text);
  if (Number.isNaN(at)) return null;
  return Math.max(0, at - now.getTime());
}

/** Capped exponential backoff with full jitter: attempt 1 → up to base, 2 → up to 2·base, … ≤ cap. */
export function backoffDelay(attempt: number, opts: { baseMs: number; capMs: number; random: () => number }) {
  const ceiling = Math.min(opts.capMs, opts.baseMs * 2 ** (attempt - 1));
  return Math.round(ceiling / 2 + (opts.random() * ceiling) / 2);
}

/** fetch with a time limit; a timeout or a network failure throws `NetworkError`. */
export async function fetchWithTimeout(
  fetchImpl: typeof fetch,
  url: string,
  init: RequestInit,
  timeoutMs: number,
): Promise<{ response: Response; text: string }> {
  try {
    const response = await fetchImpl(url, { ...init, signal: AbortSignal.timeout(timeoutMs) });
    const text = await response.text();
    return { response, text };
  } catch (err) {
    throw new NetworkError(url, err);
  }
}

/**
 * Reads a response body of at most `maxBytes`, stopping (and cancelling the download) as soon as it is
 * larger: a misbehaving server cannot make us buffer more than that, whatever its Content-Length says.
 */
export async function readLimited(response: Response, maxBytes: number): Promise<Uint8Array> {
  const declared = Number(response.headers.get('content-length'));
  if (declared > maxBytes) {
    await response.body?.cancel();
    throw new Error(`body larger than ${maxBytes} bytes`);
  }
  if (!response.body) return new Uint8Array(0);
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = response.body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > maxBytes) {
      await reader.cancel();
      throw new Error(`body larger than ${maxBytes} bytes`);
    }
    chunks.push(value);
  }
  return new Uint8Array(Buffer.concat(chunks, size));
}

export class NetworkError extends Error {
  constructor(url: string, cause: unknown) {
    super(`network error calling ${new URL(url).pathname}: ${(cause as Error)?.message ?? String(cause)}`, {
      cause,
    });
    this.name = 'NetworkError';
  }
}
