// Calls to one outside tempo service, on the shared HTTP layer: a pacing slot shared through
// PostgreSQL first, then one request with a time limit; 429 → a cooldown every process respects;
// 5xx and network errors → a few quick retries with backoff, then "failed". Never throws for
// anything the service does: every answer is an Outcome.
import {
  backoffDelay,
  fetchWithTimeout,
  NetworkError,
  parseRetryAfter,
  readLimited,
} from '../../outbound/http.ts';
import { addTime } from '../lookup-timings.ts';
import type { SlotAnswer } from '../tempo.repository.ts';

export type Outcome<T> =
  | { kind: 'ok'; value: T }
  /** The service answered: it does not know this. */
  | { kind: 'not-found'; reason: string }
  /** Rate limit, quota or cooldown: ask again after `retryAt`. */
  | { kind: 'deferred'; retryAt: Date; reason: string }
  /** Error, time-out or an answer we cannot read: ask again later. */
  | { kind: 'failed'; reason: string };

export interface Pacer {
  /** A slot now or reserved for `at` (at most `maxWaitMs` ahead), or refused (tempo.repository.ts). */
  takeSlot(
    service: string,
    now: Date,
    intervalMs: number,
    burstMs: number,
    maxWaitMs?: number,
  ): Promise<SlotAnswer>;
  setCooldown(service: string, until: Date, reason: string): Promise<void>;
  /** How far ahead of `now` the pace is taken, in ms (tempo.repository.ts); absent: never. */
  paceAhead?(service: string, now: Date): Promise<number>;
}

export interface ServiceCallerDeps {
  service: string;
  /** The pacing row's name; defaults to `service` (tests give each run its own). */
  pacerKey?: string;
  pacer: Pacer;
  /** Calls per second this service may get from all processes together. */
  ratePerSecond: number;
  timeoutMs: number;
  fetch?: typeof fetch;
  now?: () => Date;
  /** Waits; ends early when `signal` aborts. */
  sleep?: (ms: number, signal?: AbortSignal) => Promise<void>;
  random?: () => number;
  /** Waits for a pacing slot up to this long in process; longer waits defer the lookup. */
  maxWaitMs?: number;
  /** Cooldown after a 429 without Retry-After. */
  defaultCooldownMs?: number;
  /** Counts each request sent (benchmarks). */
  onRequest?: (service: string) => void;
}

export interface RawAnswer<B> {
  status: number;
  headers: Headers;
  body: B;
}

/** One call's own limits. */
export interface CallOptions {
  /** Waits for a pacing slot at most this long (instead of the caller's `maxWaitMs`); longer defers. */
  maxWaitMs?: number;
  /** Ends a wait for the slot early (a shutdown): the call is deferred to now, its slot left unused. */
  signal?: AbortSignal;
  /**
   * A background call (`isBackground` in tempo.jobs.ts: a catalog of a runner past their 50, a second
   * look): it never reserves a slot
   * ahead of the callers waiting for one, it takes only a slot free at once, and waits up to `waitMs` for
   * one, asking again about once a second; then it is deferred by `retryMs`. A saturated pace then goes to
   * the foreground callers, who reserve ahead, and the background gets what they leave.
   */
  background?: { waitMs: number; retryMs: number };
}

/** How often a background call asks again for a free slot (jittered ±50 %). */
const YIELD_POLL_MS = 1_000;

const ATTEMPTS = 3;
const MAX_BYTES = 4 * 1024 * 1024;

export const ok = <T>(value: T): Outcome<T> => ({ kind: 'ok', value });
export const notFound = (reason: string): Outcome<never> => ({ kind: 'not-found', reason });
export const failed = (reason: string): Outcome<never> => ({ kind: 'failed', reason });

export function createServiceCaller(deps: ServiceCallerDeps) {
  const fetchImpl = deps.fetch ?? fetch;
  const now = deps.now ?? (() => new Date());
  const sleep = deps.sleep ?? abortableSleep;
  const random = deps.random ?? Math.random;
  const maxWaitMs = deps.maxWaitMs ?? 3_000;
  const intervalMs = 1000 / deps.ratePerSecond;
  // A burst of at most two calls ahead of the steady pace keeps rolling windows safe.
  const burstMs = Math.max(intervalMs, 250);
  const svc = deps.service;
  const pacerKey = deps.pacerKey ?? svc;

  /**
   * Takes a slot, reserved up to maxWaitMs ahead, and waits for it: one statement per call however many
   * lookups wait (they no longer wake together and ask again). A longer wait, or a cooldown, defers.
   */
  async function slot(maxWait: number, signal?: AbortSignal): Promise<Outcome<void>> {
    const t = now();
    const s = await deps.pacer.takeSlot(pacerKey, t, intervalMs, burstMs, maxWait);
    if (!s.ok) return { kind: 'deferred', retryAt: s.retryAt, reason: `${svc}: ${s.reason}` };
    const wait = (s.at?.getTime() ?? 0) - t.getTime();
    if (wait > 0) await sleep(wait, signal);
    if (signal?.aborted) return { kind: 'deferred', retryAt: now(), reason: `${svc}: stopped waiting` };
    return ok(undefined);
  }

  /**
   * A background call's slot: only one free at once (within the burst), asked for again while the pace is
   * taken ahead, for up to `waitMs`; then deferred by `retryMs`.
   */
  async function backgroundSlot(
    { waitMs, retryMs }: { waitMs: number; retryMs: number },
    signal?: AbortSignal,
  ): Promise<Outcome<void>> {
    const until = now().getTime() + waitMs;
    for (;;) {
      const t = now();
      const s = await deps.pacer.takeSlot(pacerKey, t, intervalMs, burstMs, 0);
      if (s.ok) {
        const wait = (s.at?.getTime() ?? 0) - t.getTime();
        if (wait > 0) await sleep(wait, signal);
        if (signal?.aborted) return { kind: 'deferred', retryAt: now(), reason: `${svc}: stopped waiting` };
        return ok(undefined);
      }
      // A cooldown (a 429, a quota) is no place to wait in: deferred as any call is.
      if (s.reason !== 'pacing')
        return { kind: 'deferred', retryAt: s.retryAt, reason: `${svc}: ${s.reason}` };
      const left = until - t.getTime();
      if (left <= 0 || signal?.aborted)
        return {
          kind: 'deferred',
          retryAt: new Date(t.getTime() + retryMs),
          reason: `${svc}: pace busy with the first songs of runners (background lookup)`,
        };
      await sleep(Math.min(left, YIELD_POLL_MS * (0.5 + random())), signal);
    }
  }

  /** Whether a call could go now without waiting behind anyone (no slot reserved ahead, no cooldown). */
  async function hasRoom(): Promise<boolean> {
    if (!deps.pacer.paceAhead) return true;
    return (await deps.pacer.paceAhead(pacerKey, now())) <= burstMs;
  }

  async function cooldown(ms: number, reason: string): Promise<Outcome<never>> {
    const until = new Date(now().getTime() + ms);
    await deps.pacer.setCooldown(pacerKey, until, reason);
    return { kind: 'deferred', retryAt: until, reason: `${svc}: ${reason}` };
  }

  /** One call, its time added to the running track's clock: `pacing:<service>`, and the rest `http:<service>`. */
  async function send<B>(
    url: string,
    get: (url: string) => Promise<RawAnswer<B>>,
    opts: CallOptions = {},
  ): Promise<Outcome<RawAnswer<B>>> {
    const start = performance.now();
    let paced = 0;
    try {
      return await attempts(url, get, (ms) => (paced += ms), opts, opts.maxWaitMs ?? maxWaitMs);
    } finally {
      addTime(`pacing:${svc}`, paced);
      addTime(`http:${svc}`, performance.now() - start - paced);
    }
  }

  async function attempts<B>(
    url: string,
    get: (url: string) => Promise<RawAnswer<B>>,
    paced: (ms: number) => void,
    opts: CallOptions,
    wait: number,
  ): Promise<Outcome<RawAnswer<B>>> {
    const { signal } = opts;
    let lastReason = '';
    for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
      const before = performance.now();
      const s = opts.background ? await backgroundSlot(opts.background, signal) : await slot(wait, signal);
      paced(performance.now() - before);
      if (s.kind !== 'ok') return s;
      deps.onRequest?.(svc);
      let answer: RawAnswer<B>;
      try {
        answer = await get(url);
      } catch (err) {
        const e = err instanceof NetworkError ? err : new NetworkError(url, err);
        lastReason = `${svc}: ${e.message.replace(/^network error calling [^:]*: /, '')}`;
        if (attempt < ATTEMPTS) await sleep(backoffDelay(attempt, { baseMs: 250, capMs: 2_000, random }));
        continue;
      }
      if (answer.status === 429) {
        const ms =
          parseRetryAfter(answer.headers.get('retry-after'), now()) ?? deps.defaultCooldownMs ?? 30_000;
        return cooldown(Math.max(1_000, ms), 'rate limited (429)');
      }
      if (answer.status >= 500) {
        lastReason = `${svc}: HTTP ${answer.status}`;
        if (attempt < ATTEMPTS) await sleep(backoffDelay(attempt, { baseMs: 250, capMs: 2_000, random }));
        continue;
      }
      return ok(answer);
    }
    return failed(lastReason);
  }

  return {
    service: svc,
    /** GET with a text body (JSON services). */
    getText: (url: string, opts?: CallOptions) =>
      send(
        url,
        async (u) => {
          const { response, text } = await fetchWithTimeout(fetchImpl, u, {}, deps.timeoutMs);
          return { status: response.status, headers: response.headers, body: text };
        },
        opts,
      ),
    /** GET with a binary body of at most 4 MB (previews); the shared layer's fetch reads text only. */
    getBytes: (url: string, opts?: CallOptions) =>
      send(
        url,
        async (u) => {
          try {
            const response = await fetchImpl(u, { signal: AbortSignal.timeout(deps.timeoutMs) });
            const body = await readLimited(response, MAX_BYTES);
            return { status: response.status, headers: response.headers, body };
          } catch (err) {
            throw new NetworkError(u, err);
          }
        },
        opts,
      ),
    /** Makes every process leave the service alone for `ms`. */
    cooldown,
    hasRoom,
  };
}

export type ServiceCaller = ReturnType<typeof createServiceCaller>;

/** setTimeout as a promise that also ends when `signal` aborts. */
function abortableSleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise<void>((resolve) => {
    if (signal?.aborted) return resolve();
    const done = () => {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    };
    const timer = setTimeout(done, ms);
    signal?.addEventListener('abort', done, { once: true });
  });
}

/** Reads a JSON text; undefined when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
