// Connecting and disconnecting a user's Spotify account, and what the status reply says about it.
import type { Logger } from 'pino';
import {
  SPOTIFY_ERRORS,
  SPOTIFY_SCOPES,
  type DisabledService,
  type SpotifyTokenInfo,
} from '@pacebeat/contract';
import type { LiveCache } from '../cache/live-cache.ts';
import { AppError, badRequest, conflict } from '../errors.ts';
import type { SpotifyAccountRepository } from './account.repository.ts';
import { spotifyApi } from './api.ts';
import { RATE_WINDOW_MS, type BudgetLimits, type Priority } from './budget.ts';
import type { BudgetRepository } from './budget.repository.ts';
import type { SpotifyClient } from './client.ts';
import { SpotifyAccountDisabledError, SpotifyApiError, SpotifyDeferredError } from './errors.ts';
import { browserAccountsUrl, type SpotifyEndpoints } from './spotify-app.service.ts';
import type { TokenCipher } from './token-crypto.ts';
import type { SpotifyTokens } from './tokens.service.ts';

export interface SpotifyConnectDeps {
  accounts: Pick<SpotifyAccountRepository, 'get' | 'findByAccountId' | 'link' | 'delete'>;
  budget: Pick<BudgetRepository, 'waitsUntil' | 'forgetUserInLedger' | 'ledger' | 'usedSince'>;
  client: SpotifyClient;
  tokens: Pick<SpotifyTokens, 'forget'>;
  cipher: TokenCipher;
  /** The Spotify in force (client id, accounts service, demo mode, budget), read at request time. */
  app: () => Promise<
    Pick<SpotifyEndpoints, 'clientId' | 'accountsUrl' | 'browserAccountsUrl' | 'demo'> & {
      limits: BudgetLimits;
    }
  >;
  /**
   * Run when a user's music account goes away (disconnect, or a connect that replaces the account):
   * other modules delete what they keep about it (sources, scans, tracks seen) and cancel its jobs.
   */
  onMusicAccountGone?: Array<(userId: string) => Promise<void>>;
  /** Run after an account is linked (first connect or a reconnect): the library scan starts. */
  onConnected?: Array<(userId: string, account: { spotifyUserId: string }) => Promise<void>>;
  log: Logger;
  /** whoami's connect status, invalidated across processes (absent: read on every request). */
  statusCache?: {
    /** Per user: linked, and its disabled mark (tags `spotify:<userId>`). */
    accounts: LiveCache<{ connected: boolean; disabledReason: DisabledService['reason'] | null }>;
    /** A runner's pause (keyed `<budget>:<user>`, tags `budget:<key>`; the day's counts are only bounded by max age). */
    resumes: LiveCache<{ until: Date; reason: 'spotify' | 'share' } | null>;
  };
  now?: () => number;
  /** Waits before a connect's `GET /me` tries again for a free slot (tests: recorded, not slept). */
  sleep?: (ms: number) => Promise<void>;
}

/**
 * How long a connect waits for a free call of Spotify's rate (the page says so meanwhile): a full 30 s
 * window frees a slot within seconds, and a runner who just granted access is waiting, so answering 503
 * would only make them start over. Longer waits (a 429's Retry-After, the daily quota) are answered.
 */
export const CONNECT_WAIT_MAX_MS = 12_000;

/** Spotify's `GET /me` calls one user may spend on connecting per UTC day (a share of the shared budget). */
export const CONNECT_CALLS_PER_USER_PER_DAY = 20;

/** An access token that Spotify could have issued: long, and base64url characters only. */
const PLAUSIBLE_ACCESS_TOKEN = /^[A-Za-z0-9_-]{40,}$/;

export const ACCOUNT_TAKEN_MESSAGE =
  'This Spotify account is already connected to another Pacebeat account. Disconnect it there first, or connect a different Spotify account.';

export function createSpotifyConnectService(deps: SpotifyConnectDeps) {
  const now = deps.now ?? Date.now;
  const sleep = deps.sleep ?? ((ms: number) => new Promise<void>((r) => setTimeout(r, ms)));

  /** Runs `call`, waiting for a free slot of Spotify's rate up to CONNECT_WAIT_MAX_MS in all. */
  async function withSlot<T>(call: () => Promise<T>): Promise<T> {
    let waited = 0;
    for (let attempt = 1; ; attempt++) {
      try {
        return await call();
      } catch (err) {
        if (!(err instanceof SpotifyDeferredError)) throw err;
        // Connects waiting together race for each slot that frees: a loser waits for the next one, so
        // only the time bounds the attempts (ten ended a connect in a burst before its wait had).
        const wait = Math.max(50, err.retryAt.getTime() - now());
        if (waited + wait > CONNECT_WAIT_MAX_MS || attempt >= 200) throw err;
        waited += wait;
        await sleep(wait);
      }
    }
  }

  async function musicAccountGone(userId: string) {
    for (const hook of deps.onMusicAccountGone ?? []) await hook(userId);
    await deps.budget.forgetUserInLedger(userId);
  }

  return {
    /**
     * GET connect_data: the client id, the scopes, and where the browser goes: Spotify's accounts service,
     * or in demo mode the simulated one on the page's own origin (`pageOrigin`).
     */
    async connectData(pageOrigin: string) {
      const app = await deps.app();
      const base = new URL(browserAccountsUrl(app), pageOrigin).href.replace(/\/$/, '');
      return {
        client_id: app.clientId,
        scopes: [...SPOTIFY_SCOPES],
        authorize_url: `${base}/authorize`,
        token_url: `${base}/api/token`,
        demo: app.demo,
      };
    },

    /**
     * PUT connect: checks the browser's token reply with `GET /me`, then links the account by `account_id`
     * and stores the granted scopes and the sealed tokens. A Spotify account belongs to at most one
     * Pacebeat user: a second claim answers 409 and stores nothing. Connecting another Spotify account
     * replaces the old one (its music data is deleted first). Reconnecting clears a disabled mark.
     */
    async connect(userId: string, info: SpotifyTokenInfo): Promise<{ display_name: string }> {
      const granted = new Set(info.scope.split(/\s+/).filter(Boolean));
      const missing = SPOTIFY_SCOPES.filter((s) => !granted.has(s));
      if (missing.length > 0) {
        throw badRequest(`Spotify did not grant: ${missing.join(', ')}.`, SPOTIFY_ERRORS.missingScopes);
      }
      // Refuse what cannot be a token before it costs a call from everyone's budget.
      if (!PLAUSIBLE_ACCESS_TOKEN.test(info.access_token)) {
        throw badRequest('Spotify did not accept this token.', SPOTIFY_ERRORS.badToken);
      }
      const today = new Date(now()).toISOString().slice(0, 10);
      const spent = (await deps.budget.ledger({ userKey: userId, sinceDay: today }))
        .filter((r) => r.purpose === 'connect')
        .reduce((n, r) => n + r.calls, 0);
      if (spent >= CONNECT_CALLS_PER_USER_PER_DAY) {
        throw new AppError(
          'TooManyAttempts',
          429,
          'Too many attempts to connect Spotify today. Try again tomorrow.',
        );
      }
      let me;
      try {
        const api = spotifyApi(deps.client, {
          userId,
          purpose: 'connect',
          priority: 'interactive',
          accessToken: info.access_token,
        });
        me = await withSlot(() => api.me());
      } catch (err) {
        if (err instanceof SpotifyApiError && (err.status === 400 || err.status === 401)) {
          throw badRequest('Spotify did not accept this token.', SPOTIFY_ERRORS.badToken);
        }
        if (err instanceof SpotifyAccountDisabledError) {
          throw new AppError(SPOTIFY_ERRORS.accountRefused, 403, err.message);
        }
        if (err instanceof SpotifyDeferredError) {
          throw new AppError(
            SPOTIFY_ERRORS.busy,
            503,
            `Spotify asked Pacebeat to wait; try again after ${err.retryAt.toISOString()}.`,
          );
        }
        throw err;
      }
      const accountId = me.account_id ?? me.id;
      const owner = await deps.accounts.findByAccountId(accountId);
      if (owner && owner.userId !== userId)
        throw conflict(ACCOUNT_TAKEN_MESSAGE, SPOTIFY_ERRORS.accountTaken);
      const previous = await deps.accounts.get(userId);
      if (previous && previous.accountId !== accountId) await musicAccountGone(userId);
      const linked = await deps.accounts.link({
        userId,
        accountId,
        spotifyUserId: me.id,
        displayName: me.display_name ?? null,
        scopes: [...granted].join(' '),
        refreshTokenEnc: deps.cipher.encrypt(info.refresh_token, userId),
        accessTokenEnc: deps.cipher.encrypt(info.access_token, userId),
        accessExpiresAt: new Date(now() + info.expires_in * 1000),
      });
      if (!linked) throw conflict(ACCOUNT_TAKEN_MESSAGE, SPOTIFY_ERRORS.accountTaken);
      deps.tokens.forget(userId);
      deps.statusCache?.accounts.drop(`spotify:${userId}`); // at once here; elsewhere by NOTIFY
      for (const hook of deps.onConnected ?? []) await hook(userId, { spotifyUserId: me.id });
      deps.log.info({ userId, accountId }, 'spotify connected');
      return { display_name: me.display_name ?? me.id };
    },

    /** PUT disconnect: deletes the user's music-account data and stops its jobs; Spotify is not touched. */
    async disconnect(userId: string): Promise<void> {
      await musicAccountGone(userId);
      await deps.accounts.delete(userId);
      deps.statusCache?.accounts.drop(`spotify:${userId}`); // at once here; elsewhere by NOTIFY
      deps.tokens.forget(userId);
      deps.log.info({ userId }, 'spotify disconnected');
    },

    /** For the status reply (whoami): connected, demo mode, when paused work resumes, disabled reasons. */
    async status(userId: string): Promise<{
      services: Record<
        string,
        {
          connected: boolean;
          demo: boolean;
          work_resumes_at: number | null;
          work_waits_for: 'spotify' | 'share' | null;
          catalogs_wait_for: 'spotify' | 'share' | null;
        }
      >;
      disabled_services: DisabledService[];
    }> {
      // The account row carries its disabled mark: one query for both (none when cached).
      const readAccount = async () => {
        const row = await deps.accounts.get(userId);
        return { connected: row !== undefined, disabledReason: row?.disabledReason ?? null };
      };
      const cache = deps.statusCache;
      const app = await deps.app();
      const key = app.limits.key;
      // What the runner sees stop: their playlists' updates (writes stop before the share's last calls).
      const readWait = () => this.workWait('playlist_write', userId);
      // And why the catalogs wait (the lowest priority, they stop first): the runner's share or Spotify's.
      const readCatalogWait = () => this.workWait('catalog_expansion', userId);
      const [account, wait, catalogWait] = await Promise.all([
        cache ? cache.accounts.get(userId, readAccount, () => [`spotify:${userId}`]) : readAccount(),
        cache ? cache.resumes.get(`${key}:${userId}`, readWait, () => [`budget:${key}`]) : readWait(),
        cache
          ? cache.resumes.get(`${key}:${userId}:catalogs`, readCatalogWait, () => [`budget:${key}`])
          : readCatalogWait(),
      ]);
      const disabled = account.disabledReason != null ? [{ reason: account.disabledReason }] : [];
      return {
        services: {
          spotify: {
            connected: account.connected,
            demo: app.demo,
            work_resumes_at: wait ? Math.ceil(wait.until.getTime() / 1000) : null,
            work_waits_for: wait?.reason ?? null,
            catalogs_wait_for: catalogWait?.reason ?? null,
          },
        },
        disabled_services: disabled.map((d) => ({ service: 'spotify' as const, reason: d.reason })),
      };
    },

    /**
     * When this runner's Spotify work of `priority` resumes, and why it waits: a cooldown Spotify asked for,
     * the installation's daily quota, or the runner's own fair share of the day; null when it
     * runs now. The budget's own rules decide (`waitsUntil`), so what is shown is what the jobs meet.
     */
    async workWait(
      priority: Priority,
      userId: string,
    ): Promise<{ until: Date; reason: 'spotify' | 'share' } | null> {
      const wait = await deps.budget.waitsUntil((await deps.app()).limits, priority, userId);
      // A full rate window frees within seconds: not a pause worth telling.
      if (!wait || (wait.reason === 'rate' && wait.until.getTime() - now() < RATE_WINDOW_MS + 1_000))
        return null;
      return { until: wait.until, reason: wait.reason === 'share' ? 'share' : 'spotify' };
    },

    /**
     * How much of Spotify's rolling rate is in use now, 0 to 1, for work that can choose when to call (the
     * playlist writer's adds). On an installation with a daily quota every call is one fewer that day: 1.
     */
    async rateInUse(): Promise<number> {
      const { limits } = await deps.app();
      if (limits.dailyQuota !== null) return 1;
      if (limits.ratePer30s === null) return 0;
      const { used } = await deps.budget.usedSince(limits.key, RATE_WINDOW_MS);
      return Math.min(1, used / limits.ratePer30s);
    },

    /** When this runner's work of `priority` resumes (see `workWait`); null when it runs now. */
    async workResumesAt(priority: Priority, userId: string): Promise<Date | null> {
      return (await this.workWait(priority, userId))?.until ?? null;
    },
  };
}
export type SpotifyConnectService = ReturnType<typeof createSpotifyConnectService>;
