// The one place that calls the Spotify Web API. Every call: budget slot (shared through PostgreSQL,
// by priority), access token, one HTTP request with a time limit, then by answer:
//   401 → one refresh and one retry;  403 → account disabled (when GET /me is refused too, whatever the
//         wording), capability remembered, or an error;
//   429 → a cooldown every process respects (rate, or QUOTA_EXCEEDED), SpotifyDeferredError;
//   5xx/network → capped exponential backoff with jitter, for idempotent calls only.
// It never waits out a rate limit or a quota: callers re-queue their job with `startAfter: retryAt`.
import type { Logger } from 'pino';
import type { z } from 'zod';
import type { SpotifyAccountRepository } from './account.repository.ts';
import type { BudgetLimits, Priority } from './budget.ts';
import type { BudgetRepository, LedgerEntry } from './budget.repository.ts';
import {
  refusalReason,
  SpotifyAccountDisabledError,
  SpotifyApiError,
  SpotifyCapabilityMissingError,
  SpotifyDeferredError,
} from './errors.ts';
import { backoffDelay, fetchWithTimeout, NetworkError, parseErrorBody, parseRetryAfter } from './http.ts';
import type { SpotifyTokens } from './tokens.service.ts';

export interface CallContext {
  /** The user whose token is used. */
  userId: string;
  /** What the call is for, as counted in the ledger: `connect`, `scan:liked`, `sync:target`, … */
  purpose: string;
  priority: Priority;
  /** Use this access token instead of the stored one (checking a token at connect): a 401 is final. */
  accessToken?: string;
  /** The first read of the runner's own library since they connected: not held by their share of the day. */
  firstRead?: boolean;
}

export interface SpotifyRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Path with ids filled in, e.g. `/playlists/abc/items`. */
  path: string;
  /** Path template for the ledger, e.g. `GET /playlists/{id}/items`. */
  endpoint: string;
  query?: Record<string, string | number | undefined>;
  body?: unknown;
  /** Safe to repeat after a 5xx or a network error (GETs are; playlist adds are not). */
  idempotent: boolean;
  /** An extended-quota capability: a 403 is remembered and the call is not tried again. */
  capability?: string;
}

export interface SpotifyClientDeps {
  budget: Pick<
    BudgetRepository,
    'reserve' | 'countFailure' | 'setCooldown' | 'learnRate' | 'getCapability' | 'setCapability'
  >;
  accounts: Pick<SpotifyAccountRepository, 'markDisabled'>;
  tokens: Pick<SpotifyTokens, 'getAccessToken' | 'forget'>;
  /** The Spotify in force (its API and its budget), read before every call. */
  app: () => Promise<{ apiUrl: string; limits: BudgetLimits }>;
  settings: { timeoutMs: number };
  log: Logger;
  fetch?: typeof fetch;
  /** Short waits between retries of a transient failure (tests pass a recorder). */
  sleep?: (ms: number) => Promise<void>;
  random?: () => number;
  /** Retries of transient failures: attempts in all, and the backoff. */
  retry?: { attempts: number; baseMs: number; capMs: number };
  /** Told of every request sent and its answer (`network` when none came): the metrics count them. */
  observe?: (call: { endpoint: string; purpose: string; status: number | 'network' }) => void;
}

const DEFAULT_RETRY = { attempts: 4, baseMs: 500, capMs: 8_000 };
/** Retry-After when a 429 carries none. */
const DEFAULT_RATE_COOLDOWN_MS = 30_000;
const DEFAULT_QUOTA_COOLDOWN_MS = 14 * 3600_000;

export function createSpotifyClient(deps: SpotifyClientDeps) {
  const fetchImpl = deps.fetch ?? fetch;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));
  const random = deps.random ?? Math.random;
  const retry = deps.retry ?? DEFAULT_RETRY;

  /** Capabilities belong to one Spotify app (development mode or extended quota): keyed by its budget key. */
  const capabilityKey = (limits: BudgetLimits, capability: string) => `${limits.key}:${capability}`;

  function url(apiUrl: string, req: SpotifyRequest): string {
    const u = new URL(apiUrl.replace(/\/$/, '') + req.path);
    for (const [k, v] of Object.entries(req.query ?? {}))
      if (v !== undefined) u.searchParams.set(k, String(v));
    return u.toString();
  }

  async function disable(ctx: CallContext, reason: string): Promise<never> {
    await deps.accounts.markDisabled(ctx.userId, reason);
    deps.tokens.forget(ctx.userId);
    throw new SpotifyAccountDisabledError(ctx.userId, reason);
  }

  /** Users whose GET /me answered lately: a 403 for them is about the call, not the account. */
  const accountOkAt = new Map<string, number>();
  const ACCOUNT_OK_MS = 60_000;

  /** Whether a 403 means Spotify refuses the whole account: GET /me answers 403 as well. */
  async function accountRefused(ctx: CallContext, req: SpotifyRequest): Promise<boolean> {
    if (req.path === '/me') return true;
    if (Date.now() - (accountOkAt.get(ctx.userId) ?? 0) < ACCOUNT_OK_MS) return false;
    // Throws SpotifyAccountDisabledError itself when /me is refused too.
    await request(ctx, { method: 'GET', path: '/me', endpoint: 'GET /me', idempotent: true });
    accountOkAt.set(ctx.userId, Date.now());
    return false;
  }

  /** One logical call (with its refresh and transient retries); the parsed JSON body, or undefined if empty. */
  async function request<T = unknown>(
    ctx: CallContext,
    req: SpotifyRequest,
    schema?: z.ZodType<T>,
  ): Promise<T> {
    const entry: LedgerEntry = {
      userKey: ctx.userId,
      endpoint: req.endpoint,
      purpose: ctx.purpose,
      priority: ctx.priority,
    };
    const { apiUrl, limits } = await deps.app();
    const known = req.capability
      ? await deps.budget.getCapability(capabilityKey(limits, req.capability))
      : undefined;
    if (req.capability && known && !known.available) {
      throw new SpotifyCapabilityMissingError(req.capability, known.detail);
    }
    let rejected: string | undefined;
    let refreshed = false;
    for (let attempt = 1; ; attempt++) {
      const slot = await deps.budget.reserve(limits, ctx.priority, entry, {
        beyondShare: ctx.firstRead === true,
      });
      if (!slot.granted) throw new SpotifyDeferredError(slot.reason, slot.retryAt);
      const token =
        ctx.accessToken ?? (await deps.tokens.getAccessToken(ctx.userId, rejected ? { rejected } : {}));
      const started = performance.now();
      let response: Response;
      let text: string;
      try {
        ({ response, text } = await fetchWithTimeout(
          fetchImpl,
          url(apiUrl, req),
          {
            method: req.method,
            headers: {
              authorization: `Bearer ${token}`,
              ...(req.body === undefined ? {} : { 'content-type': 'application/json' }),
            },
            ...(req.body === undefined ? {} : { body: JSON.stringify(req.body) }),
          },
          deps.settings.timeoutMs,
        ));
      } catch (err) {
        if (!(err instanceof NetworkError)) throw err;
        deps.observe?.({ endpoint: req.endpoint, purpose: ctx.purpose, status: 'network' });
        await deps.budget.countFailure(entry);
        deps.log.warn({ ...entry, attempt, err: err.message }, 'spotify call failed (network)');
        if (req.idempotent && attempt < retry.attempts) {
          await sleep(backoffDelay(attempt, { ...retry, random }));
          continue;
        }
        throw new SpotifyApiError(req.endpoint, 0, err.message);
      }
      const status = response.status;
      deps.observe?.({ endpoint: req.endpoint, purpose: ctx.purpose, status });
      deps.log.info(
        { ...entry, status, ms: Math.round(performance.now() - started), attempt },
        'spotify call',
      );
      if (status >= 200 && status < 300) {
        if (req.capability && !known)
          await deps.budget.setCapability(capabilityKey(limits, req.capability), true, '');
        const body: unknown = text ? JSON.parse(text) : undefined;
        return schema ? schema.parse(body) : (body as T);
      }
      await deps.budget.countFailure(entry);
      const { message, reason } = parseErrorBody(text);
      if (status === 401 && !refreshed && ctx.accessToken === undefined) {
        refreshed = true;
        rejected = token;
        continue;
      }
      if (status === 403) {
        // Spotify's texts vary, so GET /me tells: it needs no scope and answers 403 only when the app
        // refuses this account (not on the user list, owner without Premium); the text only names why.
        if (await accountRefused(ctx, req)) return disable(ctx, refusalReason(message));
        if (req.capability) {
          await deps.budget.setCapability(capabilityKey(limits, req.capability), false, message);
          throw new SpotifyCapabilityMissingError(req.capability, message);
        }
      }
      if (status === 429) {
        const quota = reason === 'QUOTA_EXCEEDED';
        const waitMs =
          parseRetryAfter(response.headers.get('retry-after'), new Date()) ??
          (quota ? DEFAULT_QUOTA_COOLDOWN_MS : DEFAULT_RATE_COOLDOWN_MS);
        if (!quota) {
          const learned = await deps.budget.learnRate(limits.key, slot.at);
          deps.log.warn({ learned }, 'spotify rate limit: using the learned limit per 30 s');
        }
        const until = await deps.budget.setCooldown(limits.key, quota ? 'quota' : 'rate', waitMs, message);
        deps.log.warn({ ...entry, until, quota }, 'spotify said 429: every process pauses');
        throw new SpotifyDeferredError(quota ? 'quota' : 'rate', until);
      }
      if (status >= 500 && req.idempotent && attempt < retry.attempts) {
        await sleep(backoffDelay(attempt, { ...retry, random }));
        continue;
      }
      throw new SpotifyApiError(req.endpoint, status, message);
    }
  }

  /**
   * What the app is known to have, without a call: true once a call needing it answered, false once it was
   * refused (403), undefined before either. `extendedQuotaOnly`: something only extended-quota apps keep
   * (the multi-gets) is taken as missing on an app with a daily quota, which only development mode has, so
   * a development-mode installation spends no call of its day to learn it.
   */
  async function capability(name: string, o: { extendedQuotaOnly?: boolean } = {}) {
    const { limits } = await deps.app();
    if (o.extendedQuotaOnly && limits.dailyQuota !== null) return false;
    return (await deps.budget.getCapability(capabilityKey(limits, name)))?.available;
  }

  return { request, capability };
}
export type SpotifyClient = ReturnType<typeof createSpotifyClient>;
