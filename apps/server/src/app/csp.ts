// The Content-Security-Policy of every answer: scripts only from this origin, no framing, and the few
// outside origins the pages really talk to (Spotify's token endpoint from the connect page; Firebase's
// sign-in services only when the Firebase sign-in widget is in use; Spotify's embed player, framed by the
// fix-tempo dialog, only for a real Spotify).

import { browserAccountsUrl, type SpotifyEndpoints } from '../spotify/spotify-app.service.ts';

export interface CspOptions {
  /**
   * Spotify's accounts service as the browser reaches it (the connect page posts the code there); in demo
   * mode a path on this origin (the simulated one, proxied), which 'self' covers.
   */
  spotifyAccountsUrl?: string;
  /** Set when sign-in uses the Firebase widget. */
  firebase?: { authDomain?: string; emulatorUrl?: string };
}

/**
 * With the real Spotify (its accounts service), the fix-tempo dialog frames Spotify's embed player
 * (`https://open.spotify.com/embed/track/…`) so the runner hears the song they tap along with; frame-src
 * only: its scripts run in its own frame. Demo mode's simulated songs have no sound: nothing is framed.
 */
const SPOTIFY_ACCOUNTS_ORIGIN = 'https://accounts.spotify.com';
export const SPOTIFY_EMBED_ORIGIN = 'https://open.spotify.com';

const origin = (url: string) => new URL(url).origin;
/** An absolute URL's origin; a path (demo mode's accounts service on this origin) has none to add. */
const otherOrigin = (url: string) => (url.startsWith('/') ? undefined : origin(url));

export function contentSecurityPolicy(o: CspOptions = {}): string {
  const script = ["'self'"];
  const connect = ["'self'"];
  const frame: string[] = [];
  const img = ["'self'", 'data:'];
  const accounts = o.spotifyAccountsUrl ? otherOrigin(o.spotifyAccountsUrl) : undefined;
  if (accounts) connect.push(accounts);
  if (accounts === SPOTIFY_ACCOUNTS_ORIGIN) frame.push(SPOTIFY_EMBED_ORIGIN);
  if (o.firebase) {
    script.push('https://apis.google.com', 'https://www.gstatic.com');
    connect.push(
      'https://identitytoolkit.googleapis.com',
      'https://securetoken.googleapis.com',
      'https://www.googleapis.com',
    );
    if (o.firebase.emulatorUrl) connect.push(origin(o.firebase.emulatorUrl));
    if (o.firebase.authDomain) frame.push(`https://${o.firebase.authDomain}`);
    frame.push('https://apis.google.com');
    img.push('https://www.gstatic.com');
  }
  return [
    "default-src 'self'",
    `script-src ${script.join(' ')}`,
    // MUI (emotion) writes its styles into <style> elements at run time.
    "style-src 'self' 'unsafe-inline'",
    `img-src ${img.join(' ')}`,
    `connect-src ${connect.join(' ')}`,
    `frame-src ${frame.length ? frame.join(' ') : "'none'"}`,
    "frame-ancestors 'none'",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
  ].join('; ');
}

/**
 * The policy for the Spotify in force, built per answer (an admin may leave demo mode on the setup page:
 * the accounts origin changes without a restart). Built again only when the accounts URL changes; if
 * reading it fails (the database is down), the last policy stands.
 */
export function cspInForce(
  spotify: () => Promise<Pick<SpotifyEndpoints, 'accountsUrl' | 'browserAccountsUrl'>>,
  o: Omit<CspOptions, 'spotifyAccountsUrl'> = {},
): () => Promise<string> {
  let last = { accountsUrl: '', policy: contentSecurityPolicy(o) };
  return async () => {
    let accountsUrl: string;
    try {
      accountsUrl = browserAccountsUrl(await spotify());
    } catch {
      return last.policy;
    }
    if (accountsUrl !== last.accountsUrl)
      last = { accountsUrl, policy: contentSecurityPolicy({ ...o, spotifyAccountsUrl: accountsUrl }) };
    return last.policy;
  };
}
