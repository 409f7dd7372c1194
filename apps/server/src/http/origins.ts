// The app's own origin, decided once from the settings: links in mails are built from it, and the Host
// and Origin headers of every request are checked against it. Never from a request header: a forged
// Host would otherwise put an attacker's address into reset links, and DNS rebinding would pass.
import { badRequest } from '../errors.ts';

export interface AppOrigins {
  /** Where links in mails point (PUBLIC_URL, else the address the server listens on). */
  linkOrigin: string;
  /** Origins a browser may call the API from (the `Origin` header), e.g. `https://pace.example.org`. */
  allowedOrigins: string[];
  /** The `Host` values (host[:port], lower case, default ports dropped) a request may carry. */
  allowedHosts: string[];
  /** PUBLIC_URL when set: its scheme decides whether cookies are Secure. */
  publicUrl?: string;
  /**
   * Page requests addressed to a `localhost` host go to the same page at a loopback address instead
   * (host → the app's origins there, the first preferred), e.g. `localhost:8080` → `http://127.0.0.1:8080`:
   * Spotify refuses `localhost` redirect URIs, and a session cookie belongs to one host, so a runner must
   * be at the address Spotify accepts before signing in. Only to an origin the app answers at.
   */
  localhostRedirects: Record<string, string[]>;
}

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);
const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

const bracket = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/** `http://host:port` as a URL origin (default port dropped, IPv6 bracketed, lower case). */
const originOf = (scheme: string, host: string, port: number) =>
  new URL(`${scheme}://${bracket(host)}:${port}`).origin;

/**
 * The loopback names a server listening on `host` answers at: `localhost` resolves to every loopback
 * address, and Fastify listens on each of them; a loopback IP answers at itself and at `localhost` (a
 * browser tries localhost's other addresses in turn), never at the other IP family's address, where
 * nothing listens.
 */
function loopbackAliases(host: string): string[] {
  const h = bracket(host.toLowerCase());
  if (h === 'localhost') return LOOPBACK;
  if (h === '[::1]' || h.startsWith('127.')) return [h, 'localhost'];
  return [];
}

export class OriginSettingsError extends Error {}

/**
 * Decides the app's origins: PUBLIC_URL when set (plus ALLOWED_ORIGINS); else the address the server
 * listens on (with its loopback aliases when that is a loopback address). A server listening on every
 * address (HOST=0.0.0.0) without PUBLIC_URL or ALLOWED_ORIGINS cannot know its own address: refused.
 */
export function appOrigins(s: {
  PUBLIC_URL?: string;
  HOST: string;
  PORT: number;
  ALLOWED_ORIGINS?: readonly string[];
}): AppOrigins {
  const extra = (s.ALLOWED_ORIGINS ?? []).map((o) => new URL(o).origin);
  const own: string[] = [];
  if (s.PUBLIC_URL) {
    own.push(new URL(s.PUBLIC_URL).origin);
  } else if (!WILDCARD_HOSTS.has(s.HOST)) {
    own.push(originOf('http', s.HOST, s.PORT));
    for (const h of loopbackAliases(s.HOST)) own.push(originOf('http', h, s.PORT));
  }
  const allowedOrigins = [...new Set([...own, ...extra])];
  const linkOrigin = allowedOrigins[0];
  if (!linkOrigin) {
    throw new OriginSettingsError(
      `HOST=${s.HOST} listens on every address, so Pacebeat cannot tell its own address: set PUBLIC_URL (or ALLOWED_ORIGINS)`,
    );
  }
  return {
    linkOrigin,
    allowedOrigins,
    allowedHosts: allowedOrigins.map((o) => new URL(o).host),
    publicUrl: s.PUBLIC_URL,
    localhostRedirects: localhostRedirects(allowedOrigins),
  };
}

/** The loopback addresses Spotify accepts in an `http:` redirect URI. */
const SPOTIFY_LOOPBACK = ['127.0.0.1', '[::1]'];

const isLocalhostName = (hostname: string) => hostname === 'localhost' || hostname.endsWith('.localhost');

/** The app's origins at a loopback address Spotify accepts, same scheme and port as `url`. */
const loopbackOrigins = (allowedOrigins: string[], url: URL) =>
  allowedOrigins.filter((o) => {
    const t = new URL(o);
    return SPOTIFY_LOOPBACK.includes(t.hostname) && t.protocol === url.protocol && t.port === url.port;
  });

function localhostRedirects(allowedOrigins: string[]): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const origin of allowedOrigins) {
    const url = new URL(origin);
    if (!isLocalhostName(url.hostname)) continue;
    const targets = loopbackOrigins(allowedOrigins, url);
    if (targets.length > 0) out[url.host] = targets;
  }
  return out;
}

/**
 * Where a page request addressed to `host` goes instead (an origin), or undefined when it stays. The
 * loopback address the connection came in on is preferred (with HOST=localhost the server may listen on
 * `::1` alone); else the first of the app's loopback origins (HOST's own before its aliases).
 */
export function localhostRedirect(
  origins: AppOrigins,
  host: string,
  localAddress?: string,
): string | undefined {
  const targets = origins.localhostRedirects[host];
  if (!targets) return undefined;
  const arrivedOn =
    localAddress === '::1'
      ? '[::1]'
      : localAddress?.replace(/^::ffff:/, '') === '127.0.0.1'
        ? '127.0.0.1'
        : '';
  return targets.find((o) => new URL(o).hostname === arrivedOn) ?? targets[0];
}

/**
 * The app's origin a request was addressed to (its `Host`, already checked to be one of the app's): the
 * configured origin, so its scheme is right behind a TLS proxy even without TRUST_PROXY.
 */
export function requestOrigin(origins: AppOrigins, scheme: string, host: string): string {
  const same = origins.allowedOrigins.filter((o) => new URL(o).host === host);
  return same.find((o) => new URL(o).protocol === `${scheme}:`) ?? same[0] ?? `${scheme}://${host}`;
}

/**
 * Why Spotify would refuse `origin` in a redirect URI (a sentence telling the runner what to open
 * instead), or undefined when it accepts it: HTTPS, or `http://127.0.0.1` / `http://[::1]`; never `localhost`.
 */
export function spotifyRedirectProblem(origins: AppOrigins, origin: string): string | undefined {
  const url = new URL(origin);
  if (url.protocol === 'https:' && !isLocalhostName(url.hostname)) return undefined;
  if (url.protocol === 'http:' && SPOTIFY_LOOPBACK.includes(url.hostname)) return undefined;
  if (isLocalhostName(url.hostname)) {
    const target = localhostRedirect(origins, url.host) ?? loopbackOrigins(origins.allowedOrigins, url)[0];
    const open = `${target ?? `${url.protocol}//127.0.0.1${url.port ? `:${url.port}` : ''}`}/connect/spotify`;
    const setting = target
      ? ' (you sign in again there)'
      : ` (the server must answer there too: add ${new URL(open).origin} to ALLOWED_ORIGINS)`;
    return `Spotify does not accept localhost addresses, so it cannot send you back to this page. Open ${open} instead${setting}.`;
  }
  return `Spotify sends you back only to an HTTPS address (or to http://127.0.0.1 on the computer running Pacebeat), so it cannot send you back to ${url.origin}. Open Pacebeat over HTTPS (PUBLIC_URL) to connect Spotify.`;
}

/** The request's Host header normalised like `URL.host`; 400 when it is missing or malformed. */
export function requestHost(scheme: string, host: string | undefined): string {
  if (!host || host.length > 300 || /[\s/\\?#@]/.test(host)) throw badRequest('Bad Host header.', 'BadHost');
  try {
    return new URL(`${scheme}://${host}`).host;
  } catch {
    throw badRequest('Bad Host header.', 'BadHost');
  }
}

/** True when `origin` (an Origin header) names one of the app's origins. */
export function originAllowed(origins: AppOrigins, origin: string): boolean {
  try {
    return origins.allowedOrigins.includes(new URL(origin).origin);
  } catch {
    return false;
  }
}
