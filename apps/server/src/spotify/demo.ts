// Demo mode: with no SPOTIFY_CLIENT_ID, the simulated music world runs in-process and every Spotify
// (and, through `baseUrls`, tempo) base URL points at it. A new user connects through its consent page.
import type { Logger } from 'pino';
import { startSandbox, type Sandbox } from '@pacebeat/sandbox';
import type { SpotifyEndpoints } from './spotify.module.ts';

export interface DemoSpotify {
  endpoints: SpotifyEndpoints;
  /** Every simulated service's base URL (Spotify accounts and API, Deezer, ReccoBeats, GetSongBPM). */
  baseUrls: Sandbox['baseUrls'];
  /** A key the simulated GetSongBPM accepts, so demo mode shows every tempo source and its credit. */
  getsongbpmKey: string;
  close(): Promise<void>;
}

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
  host: string;
  log: Logger;
  /** Share of calls that fail transiently (DEMO_TRANSIENT_FAILURES); default none. */
  transientFailures?: number;
}): Promise<DemoSpotify> {
  // The browser must reach the consent page: listen on the app's own address (loopback by default).
  const host = o.host === '0.0.0.0' || o.host === '::' ? '127.0.0.1' : o.host;
  const sandbox = await startSandbox({ host, port: 0, transientFailures: o.transientFailures ?? 0 });
  o.log.warn(
    { sandbox: sandbox.url },
    'demo mode: no SPOTIFY_CLIENT_ID is set, so Pacebeat uses its built-in simulated Spotify',
  );
  return {
    endpoints: sandboxSpotifyEndpoints(sandbox),
    baseUrls: sandbox.baseUrls,
    getsongbpmKey: sandbox.admin.config().getsongbpm.apiKeys[0]!,
    close: () => sandbox.close(),
  };
}
