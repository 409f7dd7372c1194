// Access tokens for a user: read from the database (sealed), refreshed shortly before expiry, at most
// one refresh per user at a time across all processes (advisory lock), rotated refresh tokens stored.
import type { Logger } from 'pino';
import { z } from 'zod';
import type { SpotifyAccountRepository } from './account.repository.ts';
import type { BudgetRepository } from './budget.repository.ts';
import {
  DISABLED_REASONS,
  SpotifyAccountDisabledError,
  SpotifyDeferredError,
  SpotifyNotConnectedError,
} from './errors.ts';
import { fetchWithTimeout, NetworkError, parseErrorBody } from './http.ts';
import type { TokenCipher } from './token-crypto.ts';

/** The token endpoint's answer (authorization code and refresh grants). */
export const TokenReply = z.object({
  access_token: z.string().min(1).max(4096),
  token_type: z.string().min(1).max(64),
  scope: z.string().max(4096).optional().default(''),
  expires_in: z.coerce
    .number()
    .int()
    .positive()
    .max(86_400 * 365),
  refresh_token: z.string().min(1).max(4096).optional(),
});
export type TokenReply = z.infer<typeof TokenReply>;

/** How long a process trusts its cached copy of a user's access token before reading the database again. */
const CACHE_MS = 30_000;

/** Refresh when less than this is left of an access token's life. */
const REFRESH_MARGIN_MS = 5 * 60_000;

export interface TokensDeps {
  accounts: Pick<SpotifyAccountRepository, 'get' | 'withRefreshLock'>;
  ledger: Pick<BudgetRepository, 'countUnbudgeted'>;
  cipher: TokenCipher;
  /** The Spotify in force (its client id and accounts service), read before every refresh. */
  app: () => Promise<{ clientId: string; accountsUrl: string }>;
  settings: { timeoutMs: number };
  fetch?: typeof fetch;
  log: Logger;
  now?: () => number;
}

type RefreshOutcome =
  | { kind: 'token'; token: string; expiresAt: number }
  | { kind: 'disabled'; reason: string }
  | { kind: 'not-connected' }
  | { kind: 'unavailable'; detail: string };

export function createSpotifyTokens(deps: TokensDeps) {
  const fetchImpl = deps.fetch ?? fetch;
  const now = deps.now ?? Date.now;
  // A per-process cache of what the database holds; the database stays the truth: an entry is used for at
  // most CACHE_MS, so a disconnect or a disabled mark made by another process is seen soon, and a 401
  // always goes back to the database.
  const cache = new Map<string, { token: string; expiresAt: number; cachedAt: number }>();

  const fresh = (expiresAt: number | undefined) =>
    expiresAt !== undefined && expiresAt - now() > REFRESH_MARGIN_MS;

  async function callTokenEndpoint(userId: string, refreshToken: string) {
    const { clientId, accountsUrl } = await deps.app();
    const body = new URLSearchParams({
      grant_type: 'refresh_token',
      refresh_token: refreshToken,
      client_id: clientId,
    });
    const entry = {
      userKey: userId,
      endpoint: 'POST /api/token',
      purpose: 'refresh',
      priority: 'interactive' as const,
    };
    try {
      const { response, text } = await fetchWithTimeout(
        fetchImpl,
        `${accountsUrl}/api/token`,
        { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body },
        deps.settings.timeoutMs,
      );
      await deps.ledger.countUnbudgeted(entry, !response.ok);
      return { status: response.status, text };
    } catch (err) {
      await deps.ledger.countUnbudgeted(entry, true);
      throw err;
    }
  }

  async function refresh(userId: string, rejected: string | undefined): Promise<RefreshOutcome> {
    return deps.accounts.withRefreshLock(userId, async (q): Promise<RefreshOutcome> => {
      const row = await q.get(userId);
      if (!row) return { kind: 'not-connected' };
      if (row.disabledReason) return { kind: 'disabled', reason: row.disabledReason };
      // Another process may have refreshed while we waited for the lock.
      if (row.accessTokenEnc && fresh(row.accessExpiresAt?.getTime())) {
        const token = deps.cipher.decrypt(row.accessTokenEnc, userId);
        if (token !== rejected) return { kind: 'token', token, expiresAt: row.accessExpiresAt!.getTime() };
      }
      const refreshToken = deps.cipher.decrypt(row.refreshTokenEnc, userId);
      let answer;
      try {
        answer = await callTokenEndpoint(userId, refreshToken);
      } catch (err) {
        if (err instanceof NetworkError) return { kind: 'unavailable', detail: err.message };
        throw err;
      }
      if (answer.status === 400 || answer.status === 401) {
        const { reason, message } = parseErrorBody(answer.text);
        if (reason === 'invalid_grant') {
          deps.log.warn({ userId, message }, 'spotify refresh refused (invalid_grant): account disabled');
          await q.markDisabled(userId, DISABLED_REASONS.revoked);
          return { kind: 'disabled', reason: DISABLED_REASONS.revoked };
        }
        throw new Error(`Spotify token endpoint answered ${answer.status}: ${message}`);
      }
      if (answer.status !== 200)
        return { kind: 'unavailable', detail: `token endpoint answered ${answer.status}` };
      const reply = TokenReply.parse(JSON.parse(answer.text));
      const expiresAt = now() + reply.expires_in * 1000;
      await q.saveTokens(userId, {
        accessTokenEnc: deps.cipher.encrypt(reply.access_token, userId),
        accessExpiresAt: new Date(expiresAt),
        // Spotify may rotate the refresh token: keep the new one, else the old stays.
        ...(reply.refresh_token ? { refreshTokenEnc: deps.cipher.encrypt(reply.refresh_token, userId) } : {}),
      });
      deps.log.info({ userId, rotated: Boolean(reply.refresh_token) }, 'spotify access token refreshed');
      return { kind: 'token', token: reply.access_token, expiresAt };
    });
  }

  return {
    /**
     * A valid access token for the user. `rejected`: a token Spotify just answered 401 to; a different one
     * is returned (refreshing if needed).
     */
    async getAccessToken(userId: string, opts: { rejected?: string } = {}): Promise<string> {
      const cached = cache.get(userId);
      if (
        cached &&
        cached.token !== opts.rejected &&
        fresh(cached.expiresAt) &&
        now() - cached.cachedAt < CACHE_MS
      ) {
        return cached.token;
      }
      cache.delete(userId);
      const row = await deps.accounts.get(userId);
      if (!row) throw new SpotifyNotConnectedError();
      if (row.disabledReason) throw new SpotifyAccountDisabledError(userId, row.disabledReason);
      if (row.accessTokenEnc && fresh(row.accessExpiresAt?.getTime())) {
        const token = deps.cipher.decrypt(row.accessTokenEnc, userId);
        if (token !== opts.rejected) {
          cache.set(userId, { token, expiresAt: row.accessExpiresAt!.getTime(), cachedAt: now() });
          return token;
        }
      }
      const outcome = await refresh(userId, opts.rejected);
      switch (outcome.kind) {
        case 'token':
          cache.set(userId, { token: outcome.token, expiresAt: outcome.expiresAt, cachedAt: now() });
          return outcome.token;
        case 'disabled':
          throw new SpotifyAccountDisabledError(userId, outcome.reason);
        case 'not-connected':
          throw new SpotifyNotConnectedError();
        case 'unavailable':
          throw new SpotifyDeferredError('unavailable', new Date(now() + 60_000), outcome.detail);
      }
    },

    /** Forgets the cached token of a user (after disconnect or disable). */
    forget(userId: string): void {
      cache.delete(userId);
    },
  };
}
export type SpotifyTokens = ReturnType<typeof createSpotifyTokens>;
