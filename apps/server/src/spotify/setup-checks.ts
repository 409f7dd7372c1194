// The setup page's checks: what Spotify says about the redirect URIs (its authorize page) and
// about an account (the code the check window came back with, exchanged, then `GET /me`), in plain
// sentences for the admin. Only base URLs differ from the real Spotify's: the same calls either way.
import { SPOTIFY_SCOPES, type SetupCheckOutcome } from '@pacebeat/contract';
import { AppError } from '../errors.ts';
import type { BudgetRepository, LedgerEntry } from './budget.repository.ts';
import { fetchWithTimeout, NetworkError, parseErrorBody, parseRetryAfter } from './http.ts';
import type { SpotifyAppInUse } from './spotify.module.ts';

export interface SetupChecksDeps {
  /** The Spotify in force with its budget limits (the Spotify module's `app`). */
  app: () => Promise<SpotifyAppInUse>;
  budget: Pick<BudgetRepository, 'reserve' | 'countFailure' | 'countUnbudgeted'>;
  timeoutMs: number;
  fetch?: typeof fetch;
}

type Outcome = SetupCheckOutcome;

/** Plain sentences for what Spotify answered (the admin reads them on the setup page). */
export const CHECK_TEXTS = {
  redirectOk: (uri: string) => `Spotify accepts ${uri} for this app.`,
  redirectRefused: (uri: string) =>
    `Spotify does not know the redirect URI ${uri} for this app. In the Spotify dashboard open your app, then Edit settings → Redirect URIs, add exactly ${uri} (same scheme, address, port and path, no slash at the end), and save.`,
  clientUnknown:
    'Spotify knows no app with this client id. Copy the Client ID again from your app’s page in the Spotify dashboard and save it here.',
  unreachable: (url: string) =>
    `Spotify’s accounts service (${url}) did not answer from the server. Check that this machine reaches it, then try again.`,
  accountOk: (name: string) =>
    `Spotify accepted the redirect URI and the account ${name}: runners on the app’s user list can connect now.`,
  notRegistered: (name: string) =>
    `Spotify let ${name} sign in but refuses every call for it: the account is not on the app’s user list. In the Spotify dashboard open your app, then User Management, and add the account’s name and email (at most 5 users); then run the check again.`,
  premium:
    'Spotify refuses every call because the owner of the Spotify app has no Premium subscription, which development-mode apps need. Once Premium is active (it can take a few hours to count), run the check again.',
  refused: (name: string) =>
    `Spotify refuses every call for ${name}. Check that the account is under User Management in the dashboard and that the app owner has Premium, then run the check again.`,
  codeRefused:
    'Spotify did not accept the code it sent back (a code works once, for a few minutes). Run the check again.',
  busy: (at: Date) =>
    `Pacebeat’s Spotify calls are paused until ${at.toISOString()} (Spotify asked to wait, or the day’s calls are spent). Run the check again then.`,
} as const;

const SETUP_PURPOSE = 'setup-check';

/** Spotify's words on an error page (`INVALID_CLIENT: Invalid redirect URI`), else its first text. */
function pageSays(html: string): string {
  const invalid = /INVALID_CLIENT:[^<]*/.exec(html)?.[0];
  if (invalid) return invalid.trim();
  return html
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 200);
}

export function createSetupChecks(deps: SetupChecksDeps) {
  const fetchImpl = deps.fetch ?? ((input, init) => globalThis.fetch(input, init));

  return {
    /** Asks Spotify's authorize page about each redirect URI (no sign-in needed). */
    async checkRedirects(redirects: Array<{ uri: string }>): Promise<Array<Outcome & { uri: string }>> {
      const app = await deps.app();
      const out: Array<Outcome & { uri: string }> = [];
      for (const r of redirects) {
        const url = new URL(`${app.accountsUrl}/authorize`);
        url.searchParams.set('client_id', app.clientId);
        url.searchParams.set('response_type', 'code');
        url.searchParams.set('redirect_uri', r.uri);
        url.searchParams.set('code_challenge_method', 'S256');
        url.searchParams.set('code_challenge', 'A'.repeat(43));
        url.searchParams.set('scope', SPOTIFY_SCOPES.join(' '));
        let status: number;
        let text: string;
        try {
          const { response, text: body } = await fetchWithTimeout(
            fetchImpl,
            url.toString(),
            { method: 'GET', redirect: 'manual' },
            deps.timeoutMs,
          );
          status = response.status;
          text = body;
        } catch (err) {
          if (!(err instanceof NetworkError)) throw err;
          out.push({
            uri: r.uri,
            ok: false,
            problem: 'unreachable',
            explanation: CHECK_TEXTS.unreachable(app.accountsUrl),
            spotify_says: null,
          });
          continue;
        }
        if (status < 400) {
          out.push({
            uri: r.uri,
            ok: true,
            problem: null,
            explanation: CHECK_TEXTS.redirectOk(r.uri),
            spotify_says: null,
          });
          continue;
        }
        const says = pageSays(text);
        const clientUnknown = /invalid client/i.test(says) && !/redirect/i.test(says);
        out.push({
          uri: r.uri,
          ok: false,
          problem: clientUnknown ? 'client_unknown' : 'redirect_refused',
          explanation: clientUnknown ? CHECK_TEXTS.clientUnknown : CHECK_TEXTS.redirectRefused(r.uri),
          spotify_says: says || `HTTP ${status}`,
        });
      }
      return out;
    },

    /**
     * The account check: the check window came back with a code, so Spotify accepted the redirect URI.
     * Exchanges it (PKCE, as the connect page does), then asks `GET /me` with the token, which answers
     * 403 for an account not on the app's user list or an owner without Premium. The token is not kept.
     */
    async checkAccount(
      adminId: string,
      body: { code: string; code_verifier: string; redirect_uri: string },
    ): Promise<Outcome & { account: string | null }> {
      const app = await deps.app();
      const entry = (endpoint: string): LedgerEntry => ({
        userKey: adminId,
        endpoint,
        purpose: SETUP_PURPOSE,
        priority: 'interactive',
      });
      const fail = (problem: Outcome['problem'], explanation: string, says: string | null) => ({
        ok: false,
        problem,
        explanation,
        spotify_says: says,
        account: null,
      });

      let token: string;
      try {
        const { response, text } = await fetchWithTimeout(
          fetchImpl,
          `${app.accountsUrl}/api/token`,
          {
            method: 'POST',
            headers: { 'content-type': 'application/x-www-form-urlencoded' },
            body: new URLSearchParams({
              grant_type: 'authorization_code',
              code: body.code,
              redirect_uri: body.redirect_uri,
              client_id: app.clientId,
              code_verifier: body.code_verifier,
            }),
          },
          deps.timeoutMs,
        );
        await deps.budget.countUnbudgeted(entry('POST /api/token'), !response.ok);
        if (!response.ok) {
          const { message, reason } = parseErrorBody(text);
          if (reason === 'invalid_client') return fail('client_unknown', CHECK_TEXTS.clientUnknown, message);
          if (/redirect/i.test(message))
            return fail('redirect_refused', CHECK_TEXTS.redirectRefused(body.redirect_uri), message);
          return fail('code_refused', CHECK_TEXTS.codeRefused, message);
        }
        const parsed = JSON.parse(text) as { access_token?: unknown };
        if (typeof parsed.access_token !== 'string')
          return fail('code_refused', CHECK_TEXTS.codeRefused, null);
        token = parsed.access_token;
      } catch (err) {
        if (err instanceof NetworkError)
          return fail('unreachable', CHECK_TEXTS.unreachable(app.accountsUrl), null);
        if (err instanceof SyntaxError) return fail('code_refused', CHECK_TEXTS.codeRefused, null);
        throw err;
      }

      const me = entry('GET /me');
      const slot = await deps.budget.reserve(app.limits, 'interactive', me);
      if (!slot.granted) throw new AppError('SpotifyBusy', 503, CHECK_TEXTS.busy(slot.retryAt));
      let status: number;
      let text: string;
      let retryAfter: string | null;
      try {
        let response: Response;
        ({ response, text } = await fetchWithTimeout(
          fetchImpl,
          `${app.apiUrl}/me`,
          { method: 'GET', headers: { authorization: `Bearer ${token}` } },
          deps.timeoutMs,
        ));
        status = response.status;
        retryAfter = response.headers.get('retry-after');
      } catch (err) {
        if (!(err instanceof NetworkError)) throw err;
        await deps.budget.countFailure(me);
        return fail('unreachable', CHECK_TEXTS.unreachable(app.apiUrl), null);
      }
      if (status === 200) {
        const who = JSON.parse(text) as { id?: unknown; display_name?: unknown };
        const name =
          typeof who.display_name === 'string' && who.display_name ? who.display_name : String(who.id);
        return {
          ok: true,
          problem: null,
          explanation: CHECK_TEXTS.accountOk(name),
          spotify_says: null,
          account: name,
        };
      }
      await deps.budget.countFailure(me);
      const { message } = parseErrorBody(text);
      if (status === 403) {
        const name = 'this account';
        if (/premium|subscription/i.test(message)) return fail('premium', CHECK_TEXTS.premium, message);
        if (/regist|approved|dashboard|user management|allow.?list/i.test(message))
          return fail('not_registered', CHECK_TEXTS.notRegistered(name), message);
        return fail('refused', CHECK_TEXTS.refused(name), message);
      }
      if (status === 429) {
        // Not recorded as a cooldown here: the next call of the client meets Spotify's 429 itself.
        const waitMs = parseRetryAfter(retryAfter, new Date()) ?? 60_000;
        return fail('refused', CHECK_TEXTS.busy(new Date(Date.now() + waitMs)), message);
      }
      return fail('code_refused', CHECK_TEXTS.codeRefused, message || `HTTP ${status}`);
    },
  };
}
