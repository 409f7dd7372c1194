// Demo mode: with no SPOTIFY_CLIENT_ID, the simulated music world runs in-process (or, with
// DEMO_SANDBOX_URL, on its own, shared by every `serve` and `work` process) and every Spotify (and,
// through `baseUrls`, tempo) base URL points at it. A new user connects through its consent page, which
// the browser reaches through the app's own origin (DEMO_ACCOUNTS_PATH, proxied: demo-accounts.routes.ts),
// so demo mode works wherever the app itself is reachable: in a container, behind a proxy, on a laptop.
import { randomBytes } from 'node:crypto';
import type { Logger } from 'pino';
import { DEFAULT_DAILY_QUOTA, startSandbox, type Sandbox } from '@pacebeat/sandbox';
import { spotifyRedirectProblem, type AppOrigins } from '../http/origins.ts';
import type { SpotifyEndpoints } from './spotify.module.ts';

export interface DemoSpotify {
  endpoints: SpotifyEndpoints;
  /** Every simulated service's base URL (Spotify accounts and API, Deezer, ReccoBeats, GetSongBPM). */
  baseUrls: Sandbox['baseUrls'];
  /** A key the simulated GetSongBPM accepts, so demo mode shows every tempo source and its credit. */
  getsongbpmKey: string;
  /**
   * The admin token of the world's admin API: the in-process world's (DEMO_SANDBOX_ADMIN_TOKEN, else a
   * random one per start, so that nobody else on this machine drives that world), or the one given for
   * DEMO_SANDBOX_URL's. In-process tests read it here; the browser tests and benchmarks set it.
   */
  adminToken?: string;
  close(): Promise<void>;
}

/** The simulated Spotify's client id in demo mode (the world's default one). */
export const DEMO_CLIENT_ID = 'pacebeat-demo';

/**
 * The redirect URIs the app registers with the simulated Spotify in demo mode, as an admin registers them
 * in Spotify's dashboard: the connect page at each of the app's own origins that Spotify accepts (HTTPS, or
 * http on 127.0.0.1 / [::1]). The world's consent page sends the browser back to these alone.
 */
export function demoRedirectUris(origins: AppOrigins): string[] {
  return origins.allowedOrigins
    .filter((o) => spotifyRedirectProblem(origins, o) === undefined)
    .map((o) => `${o}/connect/spotify`);
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
  /**
   * The redirect URIs the world's consent page may send a browser back to (`demoRedirectUris(origins)`);
   * any other is refused as Spotify refuses an unregistered one. None (a process serving no pages): none.
   */
  redirectUris: readonly string[];
}): Promise<DemoSpotify> {
  if (o.sandboxUrl) return connectDemoSandbox(o.sandboxUrl, o.log, o.redirectUris, o.sandboxAdminToken);
  // Its admin API connects any simulated user and changes the world (POST /admin/crowd builds up to
  // 100,000 users in this process): closed to whoever lacks the token, even on loopback.
  const adminToken = o.sandboxAdminToken ?? randomBytes(18).toString('base64url');
  // Only this process talks to it (the browser goes through the app's origin): loopback, whatever HOST is.
  const sandbox = await startSandbox({
    host: '127.0.0.1',
    port: o.sandboxPort ?? 0,
    clientIds: [DEMO_CLIENT_ID],
    redirectUris: { [DEMO_CLIENT_ID]: [...o.redirectUris] },
    transientFailures: o.transientFailures ?? 0,
    ...(o.dailyQuota === undefined
      ? {}
      : {
          dailyQuota: o.dailyQuota === null ? false : { ...DEFAULT_DAILY_QUOTA, maxRequests: o.dailyQuota },
        }),
    adminToken,
  });
  o.log.warn(
    { sandbox: sandbox.url, consentPage: DEMO_ACCOUNTS_PATH },
    `demo mode: no SPOTIFY_CLIENT_ID is set, so Pacebeat uses its built-in simulated Spotify (runners reach its consent page through Pacebeat, at ${DEMO_ACCOUNTS_PATH})`,
  );
  return {
    endpoints: { ...sandboxSpotifyEndpoints(sandbox), browserAccountsUrl: DEMO_ACCOUNTS_PATH },
    baseUrls: sandbox.baseUrls,
    getsongbpmKey: sandbox.admin.config().getsongbpm.apiKeys[0]!,
    adminToken,
    close: () => sandbox.close(),
  };
}

/**
 * Demo mode against a simulated world started on its own (`npm run sandbox`): its base URLs, client id and
 * GetSongBPM key come from its admin API, so every process of a scale-out install talks to one world (one
 * consent page, one set of tokens, one rate limit and daily quota). Its transient-failure share is the
 * sandbox's own setting (`--transient-failures`), not DEMO_TRANSIENT_FAILURES. This app's redirect URIs
 * are added to that world's registered ones for its client id, as an admin adds them in Spotify's dashboard.
 */
async function connectDemoSandbox(
  url: string,
  log: Logger,
  redirectUris: readonly string[],
  adminToken?: string,
): Promise<DemoSpotify> {
  const base = url.replace(/\/$/, '');
  const read = async (path: string, put?: unknown): Promise<unknown> => {
    let res: Response;
    try {
      res = await fetch(`${base}/admin${path}`, {
        signal: AbortSignal.timeout(10_000),
        ...(put === undefined ? {} : { method: 'PUT', body: JSON.stringify(put) }),
        headers: {
          ...(put === undefined ? {} : { 'content-type': 'application/json' }),
          ...(adminToken ? { authorization: `Bearer ${adminToken}` } : {}),
        },
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
  const config = (await read('/config')) as {
    clientIds: string[];
    redirectUris: Record<string, string[]>;
    getsongbpm: { apiKeys: string[] };
  };
  const clientId = config.clientIds[0]!;
  const registered = config.redirectUris[clientId] ?? [];
  if (redirectUris.some((uri) => !registered.includes(uri))) {
    await read('/config', {
      redirectUris: { ...config.redirectUris, [clientId]: [...new Set([...registered, ...redirectUris])] },
    });
  }
  log.warn(
    { sandbox: base },
    'demo mode: no SPOTIFY_CLIENT_ID is set, so Pacebeat uses the simulated Spotify at DEMO_SANDBOX_URL',
  );
  return {
    endpoints: {
      clientId,
      accountsUrl: world.baseUrls.spotifyAccounts,
      browserAccountsUrl: DEMO_ACCOUNTS_PATH,
      apiUrl: world.baseUrls.spotifyApi,
      demo: true,
    },
    baseUrls: world.baseUrls,
    getsongbpmKey: config.getsongbpm.apiKeys[0]!,
    ...(adminToken ? { adminToken } : {}),
    close: async () => undefined, // the world runs on its own; it is not ours to stop
  };
}
