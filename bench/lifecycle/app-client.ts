// A runner's browser, over HTTP only: sign up, connect Spotify through the real authorization-code flow
// with PKCE (the app's connect data, the simulated Spotify's consent page and its Accept button, the token
// exchange the connect page makes from the browser, then PUT /api/spotify/connect), disconnect, and read
// the status page's calls as the page does. Same-origin headers as a browser sends them (the app's CSRF
// and origin checks pass because they are right, not because they are switched off).
import { createHash, randomBytes } from 'node:crypto';

/** A reply body, looked into with optional chaining (the bench reads several routes' shapes). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- replies of many routes, read defensively
export type Json = any;

export interface Session {
  email: string;
  cookie: string;
}

export interface StatusTarget {
  targetId: string;
  name: string;
  playlistId: string | null;
  minBpm: number;
  maxBpm: number;
  tracksAdded: number | null;
}

/**
 * A request tried once more a second later after a transient failure (no answer, a 5xx, a 429): what a
 * person does on Spotify's consent page, and what the connect page's token exchange does.
 */
async function reloadedOnce(load: () => Promise<Response>): Promise<Response> {
  const transient = (r: Response | null) => r === null || r.status >= 500 || r.status === 429;
  const first = await load().catch(() => null);
  if (!transient(first)) return first!;
  await first?.text().catch(() => undefined);
  await new Promise((r) => setTimeout(r, 1000));
  return load();
}

export class AppClient {
  readonly appUrl: string;

  constructor(appUrl: string) {
    this.appUrl = appUrl;
  }

  async call(cookie: string, method: string, route: string, body?: unknown) {
    const res = await fetch(`${this.appUrl}${route}`, {
      method,
      headers: {
        origin: this.appUrl,
        'sec-fetch-site': 'same-origin',
        'sec-fetch-mode': 'cors',
        ...(cookie ? { cookie } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      signal: AbortSignal.timeout(60_000),
    });
    const text = await res.text();
    let parsed: Json;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: res.status, body: parsed, res };
  }

  async ok(cookie: string, method: string, route: string, body?: unknown): Promise<Json> {
    const r = await this.call(cookie, method, route, body);
    if (r.status !== 200) throw new Error(`${method} ${route}: ${r.status} ${JSON.stringify(r.body)}`);
    return r.body;
  }

  /** POST /api/signup (no SMTP configured: no verification mail, signed in at once). */
  async signUp(email: string, name: string, password: string): Promise<Session> {
    const r = await this.call('', 'POST', '/api/signup', { email, name, password, time_zone: 'UTC' });
    if (r.status !== 200) throw new Error(`signup ${email}: ${r.status} ${JSON.stringify(r.body)}`);
    if (r.body?.data?.signed_in !== true) throw new Error(`signup ${email}: not signed in (verification?)`);
    const set = r.res.headers.getSetCookie().find((h) => h.startsWith('pacebeat_session='));
    if (!set) throw new Error(`signup ${email}: no session cookie`);
    return { email, cookie: set.split(';')[0]! };
  }

  /**
   * The connect page's flow: connect data, the consent page (the simulated Spotify user picked with
   * `sandbox_user`, as its README describes), Accept, the redirect back with the code, the token exchange
   * from the browser (form-encoded, PKCE verifier), then PUT /api/spotify/connect with the token reply.
   */
  async connectSpotify(s: Session, spotifyUser: string): Promise<{ display_name: string }> {
    const data = (await this.ok(s.cookie, 'GET', '/api/spotify/connect_data')).data as {
      client_id: string;
      scopes: string[];
      authorize_url: string;
      token_url: string;
      redirect_uri?: string;
    };
    const redirectUri = data.redirect_uri ?? `${this.appUrl}/connect/spotify`;
    const verifier = randomBytes(48).toString('base64url').slice(0, 64);
    const state = randomBytes(24).toString('base64url');
    const authorize = new URL(data.authorize_url);
    authorize.searchParams.set('response_type', 'code');
    authorize.searchParams.set('client_id', data.client_id);
    authorize.searchParams.set('scope', data.scopes.join(' '));
    authorize.searchParams.set('code_challenge_method', 'S256');
    authorize.searchParams.set('code_challenge', createHash('sha256').update(verifier).digest('base64url'));
    authorize.searchParams.set('redirect_uri', redirectUri);
    authorize.searchParams.set('state', state);
    authorize.searchParams.set('sandbox_user', spotifyUser);
    // Spotify's own pages: a person who meets an error page (a 5xx, a 429) reloads it once.
    const page = await reloadedOnce(() => fetch(authorize, { redirect: 'manual' }));
    const html = await page.text();
    if (page.status !== 200) throw new Error(`consent page: ${page.status} ${html.slice(0, 300)}`);
    const requestId = /name="request_id" value="([^"]+)"/.exec(html)?.[1];
    const action = /<form method="post" action="([^"]+)"/.exec(html)?.[1];
    if (!requestId || !action) throw new Error('consent page: no form');
    const decision = await reloadedOnce(() =>
      fetch(new URL(action, authorize), {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ request_id: requestId, user: spotifyUser, action: 'accept' }).toString(),
        redirect: 'manual',
      }),
    );
    const location = decision.headers.get('location');
    if (decision.status !== 302 || !location) throw new Error(`consent: ${decision.status}`);
    const back = new URL(location);
    if (back.searchParams.get('state') !== state) throw new Error('consent: state does not match');
    const code = back.searchParams.get('code');
    if (!code) throw new Error(`consent: ${back.searchParams.get('error')}`);
    // As the connect page's exchange does (apps/web/src/spotify/pkce.ts `exchangeCode`, which needs the
    // DOM's types): a transient failure (no answer, a 5xx, a 429) is tried once more after a second.
    const tokenRes = await reloadedOnce(() =>
      fetch(data.token_url, {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded', origin: this.appUrl },
        body: new URLSearchParams({
          client_id: data.client_id,
          grant_type: 'authorization_code',
          code,
          redirect_uri: redirectUri,
          code_verifier: verifier,
        }).toString(),
      }),
    );
    const tokenInfo = (await tokenRes.json()) as Json;
    if (!tokenRes.ok) throw new Error(`token exchange: ${tokenRes.status} ${JSON.stringify(tokenInfo)}`);
    const r = await this.ok(s.cookie, 'PUT', '/api/spotify/connect', { token_info: tokenInfo });
    return r.data;
  }

  async disconnect(s: Session): Promise<void> {
    await this.ok(s.cookie, 'PUT', '/api/spotify/disconnect');
  }

  async whoami(s: Session): Promise<Json> {
    return (await this.ok(s.cookie, 'GET', '/api/whoami')).data;
  }

  /** The status page's "Target playlists" table. */
  async targets(s: Session): Promise<StatusTarget[]> {
    const data = (await this.ok(s.cookie, 'GET', '/api/spotify/targets')).data;
    return (data.targets as Json[]).map((t) => ({
      targetId: t.target_id,
      name: t.target,
      playlistId: t.public_url ? (new URL(t.public_url).pathname.split('/').pop() ?? null) : null,
      minBpm: t.bpms.min,
      maxBpm: t.bpms.max,
      tracksAdded: t.stats ? t.stats.tracks_added : null,
    }));
  }

  /** The status page's "Sources" table (reading it also asks for a rescan, at most every 5 minutes). */
  async sources(s: Session): Promise<Json> {
    return (await this.ok(s.cookie, 'GET', '/api/spotify/sources')).data;
  }
}
