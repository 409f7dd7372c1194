// The admin's setup page: which Spotify is in force, the redirect URIs to paste into Spotify's
// dashboard, saving a client id (leaving demo mode), and the checks of what Spotify says about the
// redirect URIs and an account (setup-checks.ts).
import type { Logger } from 'pino';
import { SETUP_TEXTS, type SetupRedirect, type SpotifyAppSetupReply } from '@pacebeat/contract';
import { badRequest, conflict } from '../errors.ts';
import { spotifyRedirectProblem, type AppOrigins } from '../http/origins.ts';
import type { SpotifyAccountRepository } from './account.repository.ts';
import { createSetupChecks, type SetupChecksDeps } from './setup-checks.ts';
import { browserAccountsUrl, type SpotifyAppSettings } from './spotify-app.service.ts';

export interface SetupServiceDeps extends SetupChecksDeps {
  settings: Pick<SpotifyAppSettings, 'current' | 'saved' | 'save' | 'envClientId'>;
  accounts: Pick<SpotifyAccountRepository, 'linkedUserIds'>;
  /** Ends one runner's Spotify connection (the connect service's disconnect: their music data goes). */
  disconnect: (userId: string) => Promise<void>;
  /** Leaving demo mode: empties the tempo cache, all of it the simulated world's (its ISRCs look real). */
  forgetDemoTempos: () => Promise<number>;
  /** The app's origins (PUBLIC_URL, ALLOWED_ORIGINS, HOST:PORT): asked when the page asks. */
  origins: () => AppOrigins;
  log: Logger;
}

export function createSetupService(deps: SetupServiceDeps) {
  const checks = createSetupChecks(deps);

  /** `<origin>/connect/spotify` for every origin the app answers at, the link origin first. */
  function redirects(): SetupRedirect[] {
    const origins = deps.origins();
    return origins.allowedOrigins.map((origin) => {
      const problem = spotifyRedirectProblem(origins, origin) ?? null;
      return { uri: `${origin}/connect/spotify`, accepted: problem === null, problem };
    });
  }

  async function state(): Promise<SpotifyAppSetupReply['data']> {
    const [app, saved, linked] = await Promise.all([
      deps.settings.current(),
      deps.settings.saved(),
      deps.accounts.linkedUserIds(),
    ]);
    return {
      source: app.source,
      client_id: app.demo ? null : app.clientId,
      saved_client_id: saved,
      accounts_url: browserAccountsUrl(app),
      redirect_uris: redirects(),
      connected_runners: linked.length,
    };
  }

  return {
    /** GET: the Spotify in force, the redirect URIs to paste, and how many runners are connected. */
    state,

    /**
     * PUT: saves the client id. SPOTIFY_CLIENT_ID wins (409). Leaving demo mode, or changing the client id
     * while runners are connected, must be confirmed: every runner's Spotify connection ends (tokens belong
     * to one Spotify app; demo playlists are not real ones), their music data is deleted, accounts stay.
     */
    async save(adminId: string, clientId: string, confirmed: boolean) {
      if (deps.settings.envClientId) {
        throw conflict(
          'SPOTIFY_CLIENT_ID is set in the environment, and it wins: change it there and restart, or remove it to use a client id saved here.',
          'SpotifyClientIdFromEnvironment',
        );
      }
      const before = await deps.settings.current();
      if (!before.demo && before.clientId === clientId)
        return { ...(await state()), demo_connections_ended: 0 };
      const linked = await deps.accounts.linkedUserIds();
      if (!confirmed && (before.demo || linked.length > 0)) {
        throw badRequest(
          before.demo
            ? SETUP_TEXTS.confirmLeaveDemo
            : 'Changing the client id must be confirmed: every runner’s Spotify connection ends (they connect again to the new app).',
          'SetupNotConfirmed',
        );
      }
      await deps.settings.save(clientId, adminId);
      for (const userId of linked) await deps.disconnect(userId);
      const temposForgotten = before.demo ? await deps.forgetDemoTempos() : 0;
      deps.log.info(
        { adminId, from: before.source, connectionsEnded: linked.length, temposForgotten },
        'spotify client id saved on the setup page',
      );
      return { ...(await state()), demo_connections_ended: linked.length };
    },

    /** Asks Spotify's authorize page about each redirect URI Spotify could accept (no sign-in needed). */
    checkRedirects: () => checks.checkRedirects(redirects().filter((r) => r.accepted)),

    /** The account check (setup-checks.ts), for a redirect URI that is the connect page at one of ours. */
    async checkAccount(adminId: string, body: { code: string; code_verifier: string; redirect_uri: string }) {
      if (!redirects().some((r) => r.accepted && r.uri === body.redirect_uri)) {
        throw badRequest('redirect_uri is not the connect page at one of Pacebeat’s addresses.');
      }
      return checks.checkAccount(adminId, body);
    },
  };
}
export type SetupService = ReturnType<typeof createSetupService>;
