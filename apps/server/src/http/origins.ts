// The app's own origin, decided once from the settings: links in mails are built from it, and the Host
// and Origin headers of every request are checked against it. Never from a request header: a forged
// Host would otherwise put an attacker's address into reset links, and DNS rebinding would pass.
import { badRequest } from './errors.ts';

export interface AppOrigins {
  /** Where links in mails point (PUBLIC_URL, else the address the server listens on). */
  linkOrigin: string;
  /** Origins a browser may call the API from (the `Origin` header), e.g. `https://pace.example.org`. */
  allowedOrigins: string[];
  /** The `Host` values (host[:port], lower case, default ports dropped) a request may carry. */
  allowedHosts: string[];
  /** PUBLIC_URL when set: its scheme decides whether cookies are Secure. */
  publicUrl?: string;
}

const WILDCARD_HOSTS = new Set(['0.0.0.0', '::', '[::]']);
const LOOPBACK = ['127.0.0.1', 'localhost', '[::1]'];

const bracket = (host: string) => (host.includes(':') && !host.startsWith('[') ? `[${host}]` : host);

/** `http://host:port` as a URL origin (default port dropped, IPv6 bracketed, lower case). */
const originOf = (scheme: string, host: string, port: number) =>
  new URL(`${scheme}://${bracket(host)}:${port}`).origin;

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
    if (LOOPBACK.includes(bracket(s.HOST.toLowerCase())) || s.HOST.startsWith('127.')) {
      for (const h of LOOPBACK) own.push(originOf('http', h, s.PORT));
    }
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
  };
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
