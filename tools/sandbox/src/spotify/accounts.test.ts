// The accounts service: consent page, PKCE code exchange, refresh with rotation, expiry, revocation.
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../index.ts';
import { http } from '../test-support.ts';
import { s256, type TokenAnswer } from './tokens.ts';

const REDIRECT = 'http://127.0.0.1:5173/callback';

describe('Spotify accounts', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ size: 'tiny', seed: 3 });
  });
  afterAll(() => sb.close());
  beforeEach(() => sb.admin.reset());

  const authorizeUrl = (challenge: string, extra: Record<string, string> = {}) =>
    `${sb.baseUrls.spotifyAccounts}/authorize?${new URLSearchParams({
      client_id: 'pacebeat-demo',
      response_type: 'code',
      redirect_uri: REDIRECT,
      code_challenge_method: 'S256',
      code_challenge: challenge,
      scope: 'user-library-read playlist-read-private',
      state: 'st4te',
      ...extra,
    })}`;

  async function consent(action: 'accept' | 'cancel', user?: string, extra: Record<string, string> = {}) {
    const verifier = randomBytes(40).toString('base64url');
    const page = await http<string>(authorizeUrl(s256(verifier), extra));
    expect(page.status).toBe(200);
    const requestId = /name="request_id" value="([^"]+)"/.exec(page.body)?.[1] as string;
    const selected = /<option value="([^"]+)" selected/.exec(page.body)?.[1];
    const res = await http(`${sb.baseUrls.spotifyAccounts}/authorize/decision`, {
      method: 'POST',
      form: { request_id: requestId, action, user: user ?? selected ?? '' },
    });
    expect(res.status).toBe(302);
    return { page: page.body, selected, verifier, location: new URL(res.headers.get('location') as string) };
  }

  const token = (form: Record<string, string>) =>
    http<TokenAnswer & { error?: string; error_description?: string }>(
      `${sb.baseUrls.spotifyAccounts}/api/token`,
      { method: 'POST', form },
    );

  it('shows a consent page with the client id, the scopes and a user picker; Accept returns a code and the state', async () => {
    const { page, selected, location } = await consent('accept');
    expect(page).toContain('id="client-id">pacebeat-demo<');
    expect(page).toContain('data-scope="user-library-read"');
    expect(page).toMatch(/<button id="accept"[^>]*>Accept<\/button>/);
    expect(page).toMatch(/<button id="cancel"[^>]*>Cancel<\/button>/);
    expect(selected).toBe('ana.runs');
    expect(location.origin + location.pathname).toBe(REDIRECT);
    expect(location.searchParams.get('code')).toMatch(/^AQ/);
    expect(location.searchParams.get('state')).toBe('st4te');
  });

  it('Cancel redirects with error=access_denied', async () => {
    const { location } = await consent('cancel');
    expect(location.searchParams.get('error')).toBe('access_denied');
    expect(location.searchParams.get('state')).toBe('st4te');
    expect(location.searchParams.get('code')).toBeNull();
  });

  it('preselects the first user not yet connected, or the one chosen by the admin or sandbox_user', async () => {
    sb.admin.connect({ userId: 'ana.runs' });
    expect((await consent('cancel')).selected).toBe('ben.pace');
    sb.admin.setLoginUser('dana');
    expect((await consent('cancel')).selected).toBe('dana');
    expect((await consent('cancel', undefined, { sandbox_user: 'eli' })).selected).toBe('eli');
  });

  it('exchanges the code once, checking client id, redirect URI and the PKCE verifier', async () => {
    const { verifier, location } = await consent('accept', 'ben.pace');
    const code = location.searchParams.get('code') as string;
    const base = {
      grant_type: 'authorization_code',
      code,
      redirect_uri: REDIRECT,
      client_id: 'pacebeat-demo',
    };
    expect((await token({ ...base, code_verifier: 'wrong'.repeat(10) })).body).toEqual({
      error: 'invalid_grant',
      error_description: 'code_verifier was incorrect',
    });
    expect(
      (await token({ ...base, redirect_uri: 'http://127.0.0.1:9/other', code_verifier: verifier })).body
        .error,
    ).toBe('invalid_grant');
    expect((await token({ ...base, client_id: 'someone-else', code_verifier: verifier })).body.error).toBe(
      'invalid_client',
    );
    const ok = await token({ ...base, code_verifier: verifier });
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({
      token_type: 'Bearer',
      expires_in: 3600,
      scope: 'user-library-read playlist-read-private',
    });
    const me = await http<{ id: string }>(`${sb.baseUrls.spotifyApi}/me`, { token: ok.body.access_token });
    expect(me.body.id).toBe('ben.pace');
    const again = await token({ ...base, code_verifier: verifier });
    expect(again.status).toBe(400);
    expect(again.body).toEqual({ error: 'invalid_grant', error_description: 'Invalid authorization code' });
  });

  it('refuses localhost and plain-http redirect URIs and unknown clients with an error page', async () => {
    for (const [uri, text] of [
      ['http://localhost:5173/callback', 'localhost'],
      ['http://example.com/callback', 'Insecure redirect URI'],
    ] as const) {
      const res = await http<string>(authorizeUrl('x'.repeat(43), { redirect_uri: uri }));
      expect(res.status).toBe(400);
      expect(res.body).toContain(text);
    }
    const https = await http<string>(
      authorizeUrl('x'.repeat(43), { redirect_uri: 'https://pacebeat.example/cb' }),
    );
    expect(https.status).toBe(200);
    const client = await http<string>(authorizeUrl('x'.repeat(43), { client_id: 'nope' }));
    expect(client.body).toContain('INVALID_CLIENT: Invalid client');
    const plain = await http(authorizeUrl('x'.repeat(43), { code_challenge_method: 'plain' }));
    expect(new URL(plain.headers.get('location') as string).searchParams.get('error')).toBe(
      'invalid_request',
    );
  });

  it('a client with registered redirect URIs (redirectUris) sends the browser back to those alone, as Spotify does', async () => {
    const registered = 'https://pace.example.org/connect/spotify';
    const own = await startSandbox({
      size: 'tiny',
      seed: 3,
      redirectUris: { 'pacebeat-demo': [registered] },
    });
    try {
      const url = (redirectUri: string, extra: Record<string, string> = {}) =>
        authorizeUrl('x'.repeat(43), { redirect_uri: redirectUri, ...extra }).replace(
          sb.baseUrls.spotifyAccounts,
          own.baseUrls.spotifyAccounts,
        );
      for (const evil of [
        'https://evil.example/cb',
        `${registered}/`,
        `${registered}?next=https://evil.example`,
        'https://pace.example.org/connect/spotify/../../evil',
        'https://PACE.example.org/connect/spotify',
        REDIRECT,
      ]) {
        // Even a request that is wrong otherwise (plain PKCE) is answered on the page, never sent there.
        for (const extra of [{}, { code_challenge_method: 'plain' }] as Record<string, string>[]) {
          const res = await http<string>(url(evil, extra));
          expect(res.status, evil).toBe(400);
          expect(res.headers.get('content-type'), evil).toMatch(/^text\/html/);
          expect(res.headers.get('location'), evil).toBeNull();
          expect(res.body, evil).toContain('INVALID_CLIENT: Invalid redirect URI');
        }
      }
      expect((await http<string>(url(registered))).status).toBe(200);
      // A reset keeps the redirect URIs the world was started with.
      own.admin.reset();
      expect((await http<string>(url('https://evil.example/cb'))).status).toBe(400);
      expect((await http<string>(url(registered))).status).toBe(200);
    } finally {
      await own.close();
    }
  });

  it('rotates refresh tokens; reusing a rotated one revokes the grant', async () => {
    const first = sb.admin.connect({ userId: 'ana.runs' });
    const r1 = await token({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token as string,
      client_id: 'pacebeat-demo',
    });
    expect(r1.status).toBe(200);
    expect(r1.body.refresh_token).toBeDefined();
    expect(r1.body.refresh_token).not.toBe(first.refresh_token);
    const reuse = await token({
      grant_type: 'refresh_token',
      refresh_token: first.refresh_token as string,
      client_id: 'pacebeat-demo',
    });
    expect(reuse.body).toEqual({ error: 'invalid_grant', error_description: 'Refresh token revoked' });
    const after = await token({
      grant_type: 'refresh_token',
      refresh_token: r1.body.refresh_token as string,
      client_id: 'pacebeat-demo',
    });
    expect(after.body.error).toBe('invalid_grant');
    expect((await http(`${sb.baseUrls.spotifyApi}/me`, { token: r1.body.access_token })).status).toBe(401);
  });

  it('keeps the refresh token when rotation is off', async () => {
    sb.admin.setConfig({ rotateRefreshTokens: 'never' });
    const first = sb.admin.connect({ userId: 'ana.runs' });
    for (let i = 0; i < 2; i++) {
      const r = await token({
        grant_type: 'refresh_token',
        refresh_token: first.refresh_token as string,
        client_id: 'pacebeat-demo',
      });
      expect(r.status).toBe(200);
      expect(r.body.refresh_token).toBeUndefined();
    }
  });

  it('expires access tokens (401) and refresh tokens six months after authorisation (invalid_grant)', async () => {
    const t = sb.admin.connect({ userId: 'ana.runs' });
    sb.admin.advanceClock(3601);
    const expired = await http(`${sb.baseUrls.spotifyApi}/me`, { token: t.access_token });
    expect(expired.status).toBe(401);
    expect(expired.body).toEqual({ error: { status: 401, message: 'The access token expired' } });
    const r = await token({
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token as string,
      client_id: 'pacebeat-demo',
    });
    expect(r.status).toBe(200);
    sb.admin.advanceClock(183 * 86_400);
    const late = await token({
      grant_type: 'refresh_token',
      refresh_token: r.body.refresh_token as string,
      client_id: 'pacebeat-demo',
    });
    expect(late.body).toEqual({ error: 'invalid_grant', error_description: 'Refresh token expired' });
  });

  it('revocation makes access and refresh tokens fail', async () => {
    const t = sb.admin.connect({ userId: 'ana.runs' });
    expect(sb.admin.revokeTokens({ userId: 'ana.runs' }).revoked).toBe(1);
    expect((await http(`${sb.baseUrls.spotifyApi}/me`, { token: t.access_token })).status).toBe(401);
    const r = await token({
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token as string,
      client_id: 'pacebeat-demo',
    });
    expect(r.body).toEqual({ error: 'invalid_grant', error_description: 'Refresh token revoked' });
  });

  it("expires a user's refresh tokens on request (admin.expireTokens)", async () => {
    const t = sb.admin.connect({ userId: 'ana.runs' });
    expect(sb.admin.expireTokens({ userId: 'ana.runs' }).expired).toBe(1);
    expect((await http(`${sb.baseUrls.spotifyApi}/me`, { token: t.access_token })).status).toBe(200);
    const r = await token({
      grant_type: 'refresh_token',
      refresh_token: t.refresh_token as string,
      client_id: 'pacebeat-demo',
    });
    expect(r.body).toEqual({ error: 'invalid_grant', error_description: 'Refresh token expired' });
  });

  it('allows browser calls: CORS preflight and headers on the token endpoint and the Web API', async () => {
    const pre = await fetch(`${sb.baseUrls.spotifyAccounts}/api/token`, {
      method: 'OPTIONS',
      headers: { origin: 'http://127.0.0.1:3000', 'access-control-request-method': 'POST' },
    });
    expect(pre.status).toBe(204);
    expect(pre.headers.get('access-control-allow-origin')).toBe('*');
    expect(pre.headers.get('access-control-allow-headers')).toContain('Authorization');
    const me = await http(`${sb.baseUrls.spotifyApi}/me`, {
      token: sb.admin.connect({ userId: 'ana.runs' }).access_token,
    });
    expect(me.headers.get('access-control-allow-origin')).toBe('*');
    expect(me.headers.get('access-control-expose-headers')).toBe('Retry-After');
  });

  it('answers OAuth errors for a missing grant type or a JSON body', async () => {
    const res = await http(`${sb.baseUrls.spotifyAccounts}/api/token`, {
      method: 'POST',
      json: { grant_type: 'refresh_token' },
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      error: 'unsupported_grant_type',
      error_description: 'grant_type parameter is missing',
    });
  });
});
