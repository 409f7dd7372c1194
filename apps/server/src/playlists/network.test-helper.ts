// A network in front of the simulated Spotify that loses answers after Spotify applied the request, as
// a real one can (the simulated world answers its own injected 5xx and resets before applying anything).
// Only tests import this file.

interface Match {
  method: string;
  /** Tested against the URL's path. */
  path: RegExp;
  /** How many matching requests are affected (default 1). */
  times?: number;
}

const matches = (m: Match, input: Parameters<typeof fetch>[0], init?: RequestInit) =>
  (init?.method ?? 'GET') === m.method && m.path.test(new URL(String(input)).pathname);

/**
 * Sends the request (Spotify applies it), then loses the answer: the connection resets (`reset`) or a
 * gateway answers 502 in its place.
 */
export function losingAnswers(m: Match & { mode: 'reset' | 502 }) {
  let left = m.times ?? 1;
  let lost = 0;
  const f: typeof fetch = async (input, init) => {
    const res = await fetch(input, init);
    if (left > 0 && matches(m, input, init)) {
      left--;
      lost++;
      await res.text();
      if (m.mode === 'reset') throw new TypeError('fetch failed: other side closed');
      return new Response(JSON.stringify({ error: { status: 502, message: 'Bad gateway.' } }), {
        status: 502,
        headers: { 'content-type': 'application/json' },
      });
    }
    return res;
  };
  return { fetch: f, lost: () => lost };
}

/**
 * The client gives up at once (a time-out), and Spotify applies the request `applyAfterMs` later: an
 * early read-back would not see it.
 */
export function lateAnswers(m: Match & { applyAfterMs: number }) {
  let left = m.times ?? 1;
  let late = 0;
  let applied = 0;
  const f: typeof fetch = async (input, init) => {
    if (left > 0 && matches(m, input, init)) {
      left--;
      late++;
      const { signal: _ignored, ...rest } = init ?? {};
      setTimeout(
        () =>
          void fetch(input, rest)
            .then((r) => r.text())
            .then(() => applied++),
        m.applyAfterMs,
      );
      throw new DOMException('The operation was aborted due to timeout', 'TimeoutError');
    }
    return fetch(input, init);
  };
  /** `applied`: the late requests Spotify has answered (applied) so far. */
  return { fetch: f, late: () => late, applied: () => applied };
}

/** Spotify refuses the matching requests with 403 and never applies them (a playlist write it forbids). */
export function refusing(m: Match & { message: string }) {
  let left = m.times ?? 1;
  const f: typeof fetch = async (input, init) => {
    if (left > 0 && matches(m, input, init)) {
      left--;
      return new Response(JSON.stringify({ error: { status: 403, message: m.message } }), {
        status: 403,
        headers: { 'content-type': 'application/json' },
      });
    }
    return fetch(input, init);
  };
  return { fetch: f, left: () => left };
}
