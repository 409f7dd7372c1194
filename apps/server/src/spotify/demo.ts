// Demo mode: with no SPOTIFY_CLIENT_ID, the simulated music world runs in-process (or, with
// DEMO_SANDBOX_URL, on its own, shared by every `serve` and `work` process) and every Spotify (and,
// through `baseUrls`, tempo) base URL points at it. A new user connects through its consent page, which
// the browser reaches through the app's own origin (DEMO_ACCOUNTS_PATH, proxied: demo-accounts.routes.ts),
// so demo mode works wherever the app itself is reachable: in a container, behind a proxy, on a laptop.
import type { Logger } from 'pino';
import { DEFAULT_DAILY_QUOTA, startSandbox, type Sandbox } from '@pacebeat/sandbox';
import type { SpotifyEndpoints } from './spotify.module.ts';

export interface DemoSpotify {
  endpoints: SpotifyEndpoints;
  /** Every simulated service's base URL (Spotify accounts and API, Deezer, ReccoBeats, GetSongBPM). */
  baseUrls: Sandbox['baseUrls'];
  /** A key the simulated GetSongBPM accepts, so demo mode shows every tempo source and its credit. */
  getsongbpmKey: string;
  close(): Promise<void>;
}

/**
 * Where the browser finds the simulated accounts service (consent page, token exchange): this path on the
 * app's own origin, proxied to the world's `spotifyAccounts` base. The world's own address is loopback
 * (in-process) or wherever DEMO_SANDBOX_URL is: neither need be reachable from the runner's browser.
 */
export const DEMO_ACCOUNTS_PATH = '/demo/spotify/accounts';

/** The Spotify endpoints of a simulated world, for its first client id: demo mode, tests and benchmarks. */
export function sandboxSpotifyEndpoints(sandbox: Sandbox): SpotifyEndpoints {
  return {
    clientId: sandbox.admin.config().clientIds[0]!,
    accountsUrl: sandbox.baseUrls.spotifyAccounts,
    apiUrl: sandbox.baseUrls.spotifyApi,
    demo: true,
  };
}

export async function startDemoSpotify(o: {
  log: Logger;
  /** Share of calls that fail transiently (DEMO_TRANSIENT_FAILURES); default none. */
  transientFailures?: number;
  /** DEMO_SANDBOX_URL: a simulated world running on its own, shared by every process (scale-out). */
  sandboxUrl?: string;
  /**
   * The simulated Spotify's daily quota: the product's SPOTIFY_DAILY_QUOTA (null: none), so the world
   * refuses what the product's budget expects it to. Default: the world's own (1,000).
   */
  dailyQuota?: number | null;
  /** DEMO_SANDBOX_ADMIN_TOKEN: that world's admin token; without DEMO_SANDBOX_URL, the in-process one's. */
  sandboxAdminToken?: string;
  /** DEMO_SANDBOX_PORT: the in-process world's port on 127.0.0.1 (its admin API); default any free one. */
  sandboxPort?: number;
}): Promise<DemoSpotify> {
  if (o.sandboxUrl) return connectDemoSandbox(o.sandboxUrl, o.log, o.sandboxAdminToken);
  // Only this process talks to it (the browser goes through the app's origin): loopback, whatever HOST is.
  const sandbox = await startSandbox({
    host: '127.0.0.1',
    port: o.sandboxPort ?? 0,
    transientFailures: o.transientFailures ?? 0,
    ...(o.dailyQuota === undefined
      ? {}
      : {
          dailyQuota: o.dailyQuota === null ? false : { ...DEFAULT_DAILY_QUOTA, maxRequests: o.dailyQuota },
        }),
    // Its admin API is what the browser tests and benchmarks drive; set the token to close it to others.
    ...(o.sandboxAdminToken ? { adminToken: o.sandboxAdminToken } : {}),
  });
  o.log.warn(
    { sandbox: sandbox.url, consentPage: DEMO_ACCOUNTS_PATH },
    `demo mode: no SPOTIFY_CLIENT_ID is set, so Pacebeat uses its built-in simulated Spotify (runners reach its consent page through Pacebeat, at ${DEMO_ACCOUNTS_PATH})`,
  );
  return {
    endpoints: { ...sandboxSpotifyEndpoints(sandbox), browserAccountsUrl: DEMO_ACCOUNTS_PATH },
    baseUrls: sandbox.baseUrls,
    getsongbpmKey: sandbox.admin.config().getsongbpm.apiKeys[0]!,
    close: () => sandbox.close(),
  };
}

/**
 * Demo mode against a simulated world started on its own (`npm run sandbox`): its base URLs, client id and
 * GetSongBPM key come from its admin API, so every process of a scale-out install talks to one world (one
 * consent page, one set of tokens, one rate limit and daily quota). Its transient-failure share is the
 * sandbox's own setting (`--transient-failures`), not DEMO_TRANSIENT_FAILURES.
 */
async function connectDemoSandbox(url: string, log: Logger, adminToken?: string): Promise<DemoSpotify> {
  const base = url.replace(/\/$/, '');
  const read = async (path: string): Promise<unknown> => {
    let res: Response;
    try {
      res = await fetch(`${base}/admin${path}`, {
        signal: AbortSignal.timeout(10_000),
        ...(adminToken ? { headers: { authorization: `Bearer ${adminToken}` } } : {}),
      });
    } catch (err) {
      throw new Error(`DEMO_SANDBOX_URL: the simulated world at ${base} does not answer (${String(err)})`, {
        cause: err,
      });
    }
    if (res.status === 401) {
      throw new Error(
        `DEMO_SANDBOX_URL: ${base} wants its admin token: set DEMO_SANDBOX_ADMIN_TOKEN to what \`npm run sandbox\` printed`,
      );
    }
    if (!res.ok) throw new Error(`DEMO_SANDBOX_URL: ${base}/admin${path} answered ${res.status}`);
    return res.json();
  };
  const world = (await read('/world')) as { baseUrls: Sandbox['baseUrls'] };
  const config = (await read('/config')) as { clientIds: string[]; getsongbpm: { apiKeys: string[] } };
  log.warn(
    { sandbox: base },
    'demo mode: no SPOTIFY_CLIENT_ID is set, so Pacebeat uses the simulated Spotify at DEMO_SANDBOX_URL',
  );
  return {
    endpoints: {
      clientId: config.clientIds[0]!,
      accountsUrl: world.baseUrls.spotifyAccounts,
      browserAccountsUrl: DEMO_ACCOUNTS_PATH,
      apiUrl: world.baseUrls.spotifyApi,
      demo: true,
    },
    baseUrls: world.baseUrls,
    getsongbpmKey: config.getsongbpm.apiKeys[0]!,
    close: async () => undefined, // the world runs on its own; it is not ours to stop
  };
}
