// Which Spotify this installation talks to, read at request time from one place: the client id
// from SPOTIFY_CLIENT_ID (it wins), else the one an admin saved on the setup page (the database), else the
// simulated Spotify of demo mode. The real Spotify's base URLs are SPOTIFY_ACCOUNTS_URL and SPOTIFY_API_URL
// whichever way the client id came, so the code that talks to Spotify is the same code; only URLs differ.
// Every process caches what it read and drops it when the change feed reports `spotify_app:spotify` (a
// saved client id takes effect everywhere without a restart); without a live feed, it reads again after 5 s.
import type { SpotifyAppSource } from '@pacebeat/contract';
import type { ChangeFeed } from '../cache/change-feed.ts';
import { createLiveCache } from '../cache/live-cache.ts';
import { SPOTIFY_APP_ROW, type SpotifyAppRepository } from './spotify-app.repository.ts';
import type { SpotifyConfig } from './spotify.config.ts';

/** Where Spotify is: the real one (a client id is set) or the simulated one (demo mode). */
export interface SpotifyEndpoints {
  clientId: string;
  /** The accounts service as this server reaches it (the token refresh). */
  accountsUrl: string;
  /**
   * The accounts service as the browser reaches it (consent page, token exchange), when not `accountsUrl`:
   * in demo mode a path on the app's own origin, proxied to the simulated world (demo-accounts.routes.ts).
   */
  browserAccountsUrl?: string;
  apiUrl: string;
  demo: boolean;
}

/** Where the browser finds the accounts service: a path on the app's origin in demo mode, else Spotify's. */
export const browserAccountsUrl = (e: Pick<SpotifyEndpoints, 'accountsUrl' | 'browserAccountsUrl'>) =>
  e.browserAccountsUrl ?? e.accountsUrl;

/** The real Spotify from the settings; null when no client id is set (then main.ts starts the demo). */
export function realSpotify(
  c: Pick<SpotifyConfig, 'SPOTIFY_CLIENT_ID' | 'SPOTIFY_ACCOUNTS_URL' | 'SPOTIFY_API_URL'>,
): SpotifyEndpoints | null {
  if (!c.SPOTIFY_CLIENT_ID) return null;
  return {
    clientId: c.SPOTIFY_CLIENT_ID,
    accountsUrl: c.SPOTIFY_ACCOUNTS_URL.replace(/\/$/, ''),
    apiUrl: c.SPOTIFY_API_URL.replace(/\/$/, ''),
    demo: false,
  };
}

/** The Spotify in force, and where its client id came from. */
export interface SpotifyAppNow extends SpotifyEndpoints {
  source: SpotifyAppSource;
}

/** What the Spotify module reads before every call (and the CSP before every answer). */
export interface SpotifyAppReader {
  current(): Promise<SpotifyAppNow>;
}

/** The longest a process serves what it read while the feed is live (a lost notification's worst case). */
const LIVE_MAX_AGE_MS = 60_000;
/** Without a live feed (a `work` process, or the feed reconnecting): read again after this. */
const POLL_MAX_AGE_MS = 5_000;

export interface SpotifyAppSettingsDeps {
  repo: Pick<SpotifyAppRepository, 'get' | 'save'>;
  config: Pick<SpotifyConfig, 'SPOTIFY_CLIENT_ID' | 'SPOTIFY_ACCOUNTS_URL' | 'SPOTIFY_API_URL'>;
  /** The simulated Spotify this process started (demo mode), or null when it started none. */
  demo: SpotifyEndpoints | null;
  changes?: ChangeFeed;
  /** The repository's row (tests that share a database use their own): notified as `spotify_app:<row>`. */
  row?: string;
  now?: () => number;
}

export function createSpotifyAppSettings(deps: SpotifyAppSettingsDeps) {
  const now = deps.now ?? Date.now;
  const env = realSpotify(deps.config);
  const tag = `spotify_app:${deps.row ?? SPOTIFY_APP_ROW}`;
  const real = realSpotify({ ...deps.config, SPOTIFY_CLIENT_ID: 'x' })!;
  const live =
    deps.changes && createLiveCache<SpotifyAppNow>({ feed: deps.changes, maxAgeMs: LIVE_MAX_AGE_MS });
  let polled: { at: number; value: SpotifyAppNow } | undefined;

  async function read(): Promise<SpotifyAppNow> {
    const saved = await deps.repo.get();
    if (saved) return { ...real, clientId: saved.clientId, demo: false, source: 'database' };
    if (deps.demo) return { ...deps.demo, source: 'demo' };
    // Only a process started on a saved client id has no simulated world; a saved id is never removed.
    throw new Error('no Spotify client id is set and this process runs no simulated Spotify');
  }

  return {
    /** The Spotify in force now (SPOTIFY_CLIENT_ID, else the saved client id, else demo mode). */
    async current(): Promise<SpotifyAppNow> {
      if (env) return { ...env, source: 'env' };
      if (live && deps.changes?.live) return live.get('spotify', read, () => [tag]);
      if (polled && now() - polled.at < POLL_MAX_AGE_MS) return polled.value;
      const value = await read();
      polled = { at: now(), value };
      return value;
    },

    /** The client id saved on the setup page (shown even while SPOTIFY_CLIENT_ID wins). */
    async saved(): Promise<string | null> {
      return (await deps.repo.get())?.clientId ?? null;
    },

    /** SPOTIFY_CLIENT_ID, when set: it wins over a saved client id. */
    envClientId: env?.clientId ?? null,

    /** Saves the client id; this process uses it at once, the others when the change feed tells them. */
    async save(clientId: string, adminId: string): Promise<void> {
      await deps.repo.save(clientId, adminId);
      live?.drop(tag);
      polled = undefined;
    },
  };
}
export type SpotifyAppSettings = ReturnType<typeof createSpotifyAppSettings>;

/** A Spotify that never changes (tests, benchmarks): the given endpoints. */
export function fixedSpotifyApp(endpoints: SpotifyEndpoints): SpotifyAppReader {
  const value: SpotifyAppNow = { ...endpoints, source: endpoints.demo ? 'demo' : 'env' };
  return { current: async () => value };
}
