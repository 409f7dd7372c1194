import type { Logger } from 'pino';
import { createSpotifyAccountRepository } from './account.repository.ts';
import { spotifyApi } from './api.ts';
import type { ChangeFeed } from '../cache/change-feed.ts';
import { createLiveCache } from '../cache/live-cache.ts';
import type { BudgetLimits } from './budget.ts';
import { createBudgetRepository } from './budget.repository.ts';
import { createSpotifyClient, type CallContext, type SpotifyClientDeps } from './client.ts';
import { createSpotifyConnectService, type SpotifyConnectDeps } from './connect.service.ts';
import {
  fixedSpotifyApp,
  type SpotifyAppNow,
  type SpotifyAppReader,
  type SpotifyEndpoints,
} from './spotify-app.service.ts';
import type { SpotifyConfig } from './spotify.config.ts';
import { createTokenCipher, keyId, loadOrCreateKey } from './token-crypto.ts';
import { assertInstallationTokenKey } from './token-key.ts';
import { createTokenKeyRepository } from './token-key.repository.ts';
import { createSpotifyTokens } from './tokens.service.ts';

/** The Drizzle handle the repositories take (only repositories import the client itself). */
type Db = Parameters<typeof createBudgetRepository>[0];

export { realSpotify, type SpotifyEndpoints } from './spotify-app.service.ts';

export type SpotifySettings = Pick<
  SpotifyConfig,
  'SPOTIFY_RATE_PER_30S' | 'SPOTIFY_DAILY_QUOTA' | 'SPOTIFY_TIMEOUT_SECONDS' | 'TOKEN_ENCRYPTION_KEY'
> & { dataDir: string };

export interface SpotifyModuleOverrides {
  fetch?: typeof fetch;
  sleep?: SpotifyClientDeps['sleep'];
  retry?: SpotifyClientDeps['retry'];
  observe?: SpotifyClientDeps['observe'];
  onMusicAccountGone?: SpotifyConnectDeps['onMusicAccountGone'];
  onConnected?: SpotifyConnectDeps['onConnected'];
  /** Budget key; default: the client id (the rate limit is per app). */
  budgetKey?: string;
  /** Cross-process invalidation: with it, whoami's connect status is cached per process. */
  changes?: ChangeFeed;
}

/** How long a process serves a user's cached connect status (changes arrive at once by NOTIFY). */
export const CONNECT_STATUS_MAX_AGE_MS = 5000;
/** The shared budget's pause: a cooldown arrives by NOTIFY, the daily quota running out within this. */
export const WORK_RESUMES_MAX_AGE_MS = 1000;

/** The Spotify in force with the budget it spends (keyed by its client id: the rate limit is per app). */
export interface SpotifyAppInUse extends SpotifyAppNow {
  limits: BudgetLimits;
}

/**
 * Wires the Spotify repositories, tokens, client and connect service (used by main.ts and the tests).
 * `spotify`: fixed endpoints, or a reader asked before every call (the setup page's client id).
 */
export interface SpotifyModuleDeps extends SpotifyModuleOverrides {
  /** Fixed endpoints, or a reader asked before every call (the setup page's client id). */
  spotify: SpotifyEndpoints | SpotifyAppReader;
  settings: SpotifySettings;
  log: Logger;
}

export function createSpotifyModule(db: Db, deps: SpotifyModuleDeps) {
  const { spotify, settings: s, log, ...o } = deps;
  const key = loadOrCreateKey({ setting: s.TOKEN_ENCRYPTION_KEY, dataDir: s.dataDir });
  const cipher = createTokenCipher(key);
  const accounts = createSpotifyAccountRepository(db);
  const budget = createBudgetRepository(db);
  const timeoutMs = s.SPOTIFY_TIMEOUT_SECONDS * 1000;
  const reader = 'current' in spotify ? spotify : fixedSpotifyApp(spotify);
  /** The Spotify in force now, with its budget: read before every call, never kept. */
  const app = async (): Promise<SpotifyAppInUse> => {
    const now = await reader.current();
    return {
      ...now,
      limits: {
        key: o.budgetKey ?? now.clientId,
        ratePer30s: s.SPOTIFY_RATE_PER_30S,
        dailyQuota: s.SPOTIFY_DAILY_QUOTA,
      },
    };
  };
  const spotifyLog = log.child({ module: 'spotify' });
  const tokens = createSpotifyTokens({
    accounts,
    ledger: budget,
    cipher,
    app,
    settings: { timeoutMs },
    fetch: o.fetch,
    log: spotifyLog,
  });
  const client = createSpotifyClient({
    budget,
    accounts,
    tokens,
    app,
    settings: { timeoutMs },
    log: spotifyLog,
    fetch: o.fetch,
    sleep: o.sleep,
    retry: o.retry,
    observe: o.observe,
  });
  const connect = createSpotifyConnectService({
    accounts,
    budget,
    client,
    tokens,
    cipher,
    app,
    onMusicAccountGone: o.onMusicAccountGone,
    onConnected: o.onConnected,
    log: spotifyLog,
    sleep: o.sleep,
    statusCache: o.changes && {
      accounts: createLiveCache({ feed: o.changes, maxAgeMs: CONNECT_STATUS_MAX_AGE_MS }),
      resumes: createLiveCache({ feed: o.changes, maxAgeMs: WORK_RESUMES_MAX_AGE_MS }),
    },
  });
  return {
    /** The Spotify in force now and its budget limits (read at call time: the setup page may change it). */
    app,
    accounts,
    budget,
    tokens,
    client,
    connect,
    /** Refuses to go on when another process of this database seals tokens with another key. */
    assertSameTokenKey: () => assertInstallationTokenKey(createTokenKeyRepository(db), keyId(key)),
    /** The typed Web API for one user, purpose and priority. */
    api: (ctx: CallContext) => spotifyApi(client, ctx),
  };
}
export type SpotifyModule = ReturnType<typeof createSpotifyModule>;
