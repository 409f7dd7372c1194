// The pipeline every Web API route runs, in Spotify's order: token (401), rate limit and daily quota
// (429), app owner and user list (403), removed endpoints (403), request check (400), scopes (403).
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Ctx } from '../context.ts';
import type { DailyQuota, SandboxConfig } from '../config.ts';
import { unit } from '../world/rng.ts';
import type { Grant } from './tokens.ts';
import type { Mode } from './openapi.ts';
import { Presenter } from './present.ts';
import { NOT_REGISTERED_MESSAGES, PREMIUM_MESSAGES, accountMessage } from './messages.ts';
import type { User } from '../world/library.ts';

export class ApiError extends Error {
  readonly status: number;
  readonly reason?: string;
  /** False for an error Spotify answers without a message. */
  readonly hasMessage: boolean;

  constructor(status: number, message: string | undefined, reason?: string) {
    super(message ?? '');
    this.status = status;
    this.hasMessage = message !== undefined;
    if (reason) this.reason = reason;
  }
}

/** Spotify's error body; some 403s (endpoints removed in November 2024) come without a message. */
export const spotifyError = (status: number, message: string | undefined, reason?: string) => ({
  error: { status, ...(message !== undefined ? { message } : {}), ...(reason ? { reason } : {}) },
});

/** The message-less 403 of endpoints removed in November 2024 (audio-features): `{"error":{"status":403}}`. */
export const NO_MESSAGE = undefined;

export interface Call {
  user: User;
  grant: Grant;
  mode: Mode;
  query: Record<string, unknown>;
  params: Record<string, string>;
  body: unknown;
  present: Presenter;
}

export interface RouteDef {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Fastify path under the API base, e.g. /playlists/:playlist_id/items. */
  url: string;
  op: string;
  /** Removed for development-mode apps (answers 403 there). */
  eqOnly?: boolean;
  /** Removed in November 2024 (audio-features): the 403 comes without a message. */
  removedSilently?: boolean;
  /** Query parameters another name stands for: search's own `next` links say `query=` for `q=`. */
  aliases?: Record<string, string>;
  /** Scopes of which the grant needs at least one (checked after the request itself). */
  scopes?: (call: Call) => string[] | undefined;
  handler: (call: Call, reply: FastifyReply) => unknown;
}

export const DEVELOPER_ACCOUNT = 'developer-account';

/** The window the daily quota counts in: one per developer account, or one per client id. */
export const quotaKey = (cfg: SandboxConfig, clientId: string): string =>
  `spotify-quota:${cfg.dailyQuotaScope === 'client' ? `client:${clientId}` : DEVELOPER_ACCOUNT}`;

/**
 * Seconds to wait when the daily quota refuses a call, else 0 (the call is counted). Once the quota
 * is spent the account is locked out for 13-15 h (observed Retry-After values; a fresh draw each
 * time), after which its count starts again.
 */
function dailyQuotaRetry(ctx: Ctx, key: string, quota: DailyQuota, now: number): number {
  const left = ctx.windows.lockedFor(key, now);
  if (left > 0) return left;
  if (ctx.windows.take(key, quota, now).ok) return 0;
  const min = quota.minRetryAfterSeconds;
  const max = quota.maxRetryAfterSeconds ?? Math.round((min * 15) / 13);
  const seconds = Math.round(min + (max - min) * unit(ctx.world.seed, 'quota-retry', key, now));
  ctx.windows.lockOut(key, now + seconds * 1000);
  return seconds;
}

export function addRoute(app: FastifyInstance, ctx: Ctx, def: RouteDef): void {
  app.route({
    method: def.method,
    url: def.url,
    handler: async (req: FastifyRequest, reply: FastifyReply) => {
      const auth = ctx.tokens.authenticate(req.headers.authorization);
      if (!auth.ok) return reply.code(401).send(spotifyError(401, auth.message));
      const grant = auth.grant;
      req.notes.clientId = grant.clientId;
      req.notes.userId = grant.userId;
      const now = ctx.clock.now();
      const cfg = ctx.config;
      if (cfg.rateLimit) {
        const v = ctx.windows.take(`spotify-rate:${grant.clientId}`, cfg.rateLimit, now);
        if (!v.ok)
          return reply
            .code(429)
            .header('retry-after', String(v.retryAfter))
            .send(spotifyError(429, 'API rate limit exceeded'));
      }
      if (cfg.dailyQuota) {
        const retry = dailyQuotaRetry(ctx, quotaKey(cfg, grant.clientId), cfg.dailyQuota, now);
        if (retry > 0)
          return reply
            .code(429)
            .header('retry-after', String(retry))
            .send(spotifyError(429, 'Too many requests', 'QUOTA_EXCEEDED'));
      }
      const mode: Mode = cfg.extendedQuota ? 'eq' : 'dm';
      const user = ctx.world.user(grant.userId);
      if (!user) return reply.code(401).send(spotifyError(401, 'Invalid access token'));
      if (mode === 'dm') {
        if (!cfg.ownerHasPremium)
          return reply
            .code(403)
            .send(spotifyError(403, accountMessage(ctx, PREMIUM_MESSAGES, grant.clientId)));
        if (user.registeredFor !== 'all' && !user.registeredFor.has(grant.clientId)) {
          const message = accountMessage(ctx, NOT_REGISTERED_MESSAGES, grant.clientId);
          return reply.code(403).send(spotifyError(403, message));
        }
        // Removed in November 2024: no message at all; in February 2026: "Forbidden".
        if (def.eqOnly)
          return reply.code(403).send(spotifyError(403, def.removedSilently ? NO_MESSAGE : 'Forbidden'));
      }
      const rawQuery = { ...(req.query as Record<string, unknown>) };
      for (const [alias, name] of Object.entries(def.aliases ?? {}))
        if (alias in rawQuery) {
          if (!(name in rawQuery)) rawQuery[name] = rawQuery[alias];
          delete rawQuery[alias];
        }
      const check = ctx.openapi.checkRequest(def.op, mode, rawQuery, req.body, cfg.strictRequests);
      if (!check.ok) return reply.code(400).send(spotifyError(400, check.message ?? 'Bad request'));
      const call: Call = {
        user,
        grant,
        mode,
        query: check.query,
        params: req.params as Record<string, string>,
        body: req.body,
        present: new Presenter(ctx.world, mode, ctx.baseUrls.spotifyApi),
      };
      const needed = def.scopes?.(call);
      if (needed && needed.length > 0 && !needed.some((s) => grant.scopes.includes(s))) {
        return reply.code(403).send(spotifyError(403, 'Insufficient client scope'));
      }
      try {
        const out = await def.handler(call, reply);
        return out;
      } catch (err) {
        if (err instanceof ApiError)
          return reply
            .code(err.status)
            .send(spotifyError(err.status, err.hasMessage ? err.message : NO_MESSAGE, err.reason));
        throw err;
      }
    },
  });
}

/** Integer query value with its default. */
export function intParam(call: Call, name: string, fallback: number): number {
  const v = call.query[name];
  return typeof v === 'number' ? v : fallback;
}

export function strParam(call: Call, name: string): string | undefined {
  const v = call.query[name];
  return v === undefined ? undefined : String(v);
}
