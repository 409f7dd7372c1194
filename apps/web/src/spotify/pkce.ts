// PKCE for the Spotify authorization-code flow (spec §5): a random 64-character verifier over letters
// and digits; the challenge is its SHA-256 digest in URL-safe base64 without padding; method S256.

const ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
export const VERIFIER_LENGTH = 64;

/** `length` characters drawn uniformly from letters and digits (rejection sampling, no modulo bias). */
export function randomVerifier(length = VERIFIER_LENGTH, cryptoImpl: Crypto = globalThis.crypto): string {
  const limit = 256 - (256 % ALPHABET.length); // 248: the largest multiple of 62 below 256
  let out = '';
  while (out.length < length) {
    const bytes = cryptoImpl.getRandomValues(new Uint8Array(length * 2));
    for (const b of bytes) {
      if (b < limit) out += ALPHABET[b % ALPHABET.length];
      if (out.length === length) break;
    }
  }
  return out;
}

export function base64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const b of bytes) binary += String.fromCharCode(b);
  return btoa(binary).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** The S256 challenge of a verifier. */
export async function challengeOf(verifier: string, cryptoImpl: Crypto = globalThis.crypto): Promise<string> {
  const digest = await cryptoImpl.subtle.digest('SHA-256', new TextEncoder().encode(verifier));
  return base64Url(new Uint8Array(digest));
}

/** What the connect page keeps in this tab's sessionStorage between leaving for Spotify and coming back. */
export interface PendingAuthorization {
  verifier: string;
  client_id: string;
  state: string;
  token_url: string;
  redirect_uri: string;
}

const KEY = 'pacebeat.spotify.authorization';

export function savePending(p: PendingAuthorization, storage: Storage = sessionStorage): void {
  storage.setItem(KEY, JSON.stringify(p));
}

export function readPending(storage: Storage = sessionStorage): PendingAuthorization | null {
  try {
    const p = JSON.parse(storage.getItem(KEY) ?? 'null') as Partial<PendingAuthorization> | null;
    if (p && p.verifier && p.client_id && p.state && p.token_url && p.redirect_uri) {
      return p as PendingAuthorization;
    }
  } catch {
    // unreadable: as if nothing was stored
  }
  return null;
}

/** The verifier and client id are removed after use (spec §4). */
export function clearPending(storage: Storage = sessionStorage): void {
  storage.removeItem(KEY);
}

/** Spotify's authorize URL for this page (spec §7: response_type, client_id, scope, S256 challenge, redirect_uri). */
export function authorizeUrl(
  base: string,
  p: { client_id: string; scopes: string[]; challenge: string; redirect_uri: string; state: string },
): string {
  const url = new URL(base);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', p.client_id);
  url.searchParams.set('scope', p.scopes.join(' '));
  url.searchParams.set('code_challenge_method', 'S256');
  url.searchParams.set('code_challenge', p.challenge);
  url.searchParams.set('redirect_uri', p.redirect_uri);
  url.searchParams.set('state', p.state);
  return url.toString();
}

/** The form-encoded token exchange, from the browser (spec §7); resolves to the token reply as received. */
/**
 * Trades the code for tokens. A transient failure (no answer, a 5xx, a 429) is tried once more after
 * `retryDelayMs`: the runner has just granted access, and starting over would cost them the consent again.
 * A refusal (4xx: a used or expired code) is final.
 */
export async function exchangeCode(
  p: PendingAuthorization,
  code: string,
  fetchImpl: typeof fetch = (i, init) => globalThis.fetch(i, init),
  retryDelayMs = 1000,
): Promise<unknown> {
  const attempt = async () => {
    const response = await fetchImpl(p.token_url, {
      method: 'POST',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({
        client_id: p.client_id,
        grant_type: 'authorization_code',
        code,
        redirect_uri: p.redirect_uri,
        code_verifier: p.verifier,
      }).toString(),
    });
    const body: unknown = await response.json().catch(() => undefined);
    return { response, body };
  };
  let result;
  try {
    result = await attempt();
  } catch {
    result = null; // no answer: the network, or a proxy that dropped the request
  }
  if (result === null || result.response.status >= 500 || result.response.status === 429) {
    await new Promise((r) => setTimeout(r, retryDelayMs));
    result = await attempt();
  }
  const { response, body } = result;
  if (!response.ok) throw new Error(`token exchange answered ${response.status}: ${JSON.stringify(body)}`);
  return body;
}
