// The /api/spotify routes through app.inject, with the real accounts module and the in-process sandbox.
import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorReply,
  SPOTIFY_ERRORS,
  SpotifyConnectDataReply,
  SpotifyTokenInfo,
  WhoamiReply,
} from '@pacebeat/contract';
import { createAccountsModule } from '../accounts/accounts.module.ts';
import { loadConfig } from '../app/config.ts';
import { spotifyAccounts } from '../db/spotify.schema.ts';
import { buildApp } from '../app/http-app.ts';
import { spotifyTestAppDeps, testOrigins, uniqueIp, signUpThroughApi } from '../../test/accounts-app.ts';
import { startHarness, type Harness } from './sandbox-harness.test-helper.ts';

let h: Harness;
let app: Awaited<ReturnType<typeof buildApp>>;
const adminEmail = `admin-${randomUUID()}@example.org`;

beforeAll(async () => {
  h = await startHarness();
  const log = pino({ level: 'silent' });
  const config = loadConfig({ ADMIN_EMAILS: adminEmail });
  const accounts = createAccountsModule(h.db.db, { settings: { ...config, embedded: false }, log });
  const spotify = h.process();
  app = await buildApp(
    {
      ...spotifyTestAppDeps(accounts, spotify, testOrigins(config)),
    },
    { loggerInstance: log },
  );
});
afterAll(async () => {
  await app.close();
  await h.close();
});

const signUp = (email?: string) => signUpThroughApi(app, { email, verified: email === adminEmail });

const tokenFor = (spotifyUserId?: string) => {
  const id = spotifyUserId ?? h.sandbox.admin.createUser({ username: `r${randomUUID().slice(0, 8)}` }).id;
  return { id, token_info: h.sandbox.admin.connect({ userId: id }) };
};
const put = (url: string, cookie: string | undefined, payload?: object) =>
  app.inject({
    method: 'PUT',
    url,
    remoteAddress: uniqueIp(),
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload }),
  });
const stored = async (userId: string) =>
  (await h.db.db.select().from(spotifyAccounts).where(eq(spotifyAccounts.userId, userId))).length;

describe('/api/spotify', () => {
  it('every route needs a session', async () => {
    expect((await app.inject({ url: '/api/spotify/connect_data' })).statusCode).toBe(401);
    expect(
      (await put('/api/spotify/connect', undefined, { token_info: tokenFor().token_info })).statusCode,
    ).toBe(401);
    expect((await put('/api/spotify/disconnect', undefined)).statusCode).toBe(401);
  });

  it('connect_data answers the client id, the scopes, the demo flag and the redirect URI', async () => {
    const { cookie } = await signUp();
    const res = await app.inject({
      url: '/api/spotify/connect_data',
      headers: { cookie, host: '127.0.0.1' },
    });
    const body = SpotifyConnectDataReply.parse(res.json());
    expect(body.data.redirect_uri).toBe('http://127.0.0.1/connect/spotify');
    expect(body.data.client_id).toBe('pacebeat-demo');
    expect(body.data.scopes.join(' ')).toBe(
      'user-library-read playlist-read-private playlist-read-collaborative user-follow-read playlist-modify-public playlist-modify-private',
    );
    expect(body.data.authorize_url).toBe(`${h.sandbox.baseUrls.spotifyAccounts}/authorize`);
    expect(body.data.demo).toBe(true);
  });

  it('connect_data never names a localhost redirect URI: 400 saying what to open instead', async () => {
    const { cookie } = await signUp();
    // app.inject's requests say `Host: localhost:80`, one of this app's origins.
    const res = await app.inject({ url: '/api/spotify/connect_data', headers: { cookie } });
    expect(res.statusCode, res.body).toBe(400);
    const body = ErrorReply.parse(res.json());
    expect(body.error.code).toBe(SPOTIFY_ERRORS.redirectRefused);
    expect(body.error.message).toContain('Open http://127.0.0.1/connect/spotify instead');
    expect(res.body).not.toContain('localhost/connect/spotify');
    // The page names its own address (a dev server's proxy rewrites Host): the same rules apply to it.
    const named = (pageOrigin: string) =>
      app.inject({
        url: `/api/spotify/connect_data?page_origin=${encodeURIComponent(pageOrigin)}`,
        headers: { cookie, host: '127.0.0.1' },
      });
    const local = await named('http://localhost');
    expect(local.statusCode).toBe(400);
    expect(local.json()).toMatchObject({ error: { code: SPOTIFY_ERRORS.redirectRefused } });
    const elsewhere = await named('https://attacker.example');
    expect(elsewhere.statusCode).toBe(400);
    expect(elsewhere.json().error.message).toContain('add https://attacker.example to ALLOWED_ORIGINS');
    expect((await named('not a url')).statusCode).toBe(400);
    const fromIp = await app.inject({
      url: `/api/spotify/connect_data?page_origin=${encodeURIComponent('http://127.0.0.1')}`,
      headers: { cookie }, // Host: localhost, as a proxy may say
    });
    expect(SpotifyConnectDataReply.parse(fromIp.json()).data.redirect_uri).toBe(
      'http://127.0.0.1/connect/spotify',
    );
    const ipv6 = await app.inject({ url: '/api/spotify/connect_data', headers: { cookie, host: '[::1]' } });
    expect(SpotifyConnectDataReply.parse(ipv6.json()).data.redirect_uri).toBe('http://[::1]/connect/spotify');
  });

  it('missing or malformed token replies answer 400 and store nothing', async () => {
    const { cookie, userId } = await signUp();
    const good = tokenFor().token_info;
    const bad: (object | undefined)[] = [
      undefined,
      {},
      { token_info: null },
      { token_info: { ...good, access_token: undefined } },
      { token_info: { ...good, refresh_token: '' } },
      { token_info: { ...good, expires_in: 'soon' } },
      { token_info: { ...good, token_type: 'MAC' } },
      { token_info: { ...good, scope: 'user-library-read' } }, // too few scopes
      { token_info: { ...good, access_token: 'BQforged' } }, // Spotify refuses it
    ];
    for (const payload of bad) {
      const res = await put('/api/spotify/connect', cookie, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      ErrorReply.parse(res.json());
    }
    expect(await stored(userId)).toBe(0);
  });

  it('refuses implausible tokens without a Spotify call, and limits connect attempts per user', async () => {
    const { cookie } = await signUp();
    const good = tokenFor().token_info;
    const calls = () => h.sandbox.admin.requests({ service: 'spotify-api' }).length;
    const before = calls();
    const forged = await put('/api/spotify/connect', cookie, {
      token_info: { ...good, access_token: 'BQforged' },
    });
    expect(forged.statusCode).toBe(400);
    expect(calls()).toBe(before);
    const codes: number[] = [];
    for (let i = 0; i < 10; i++) {
      const token_info = { ...good, access_token: `BQ${'f'.repeat(60)}${i}` };
      codes.push((await put('/api/spotify/connect', cookie, { token_info })).statusCode);
    }
    expect(codes).toEqual([...Array<number>(9).fill(400), 429]);
    expect(calls() - before).toBe(9);
  });

  it('caps the Spotify calls one user may spend on connecting per day, and keeps them counted after a disconnect', async () => {
    const spotify = h.process();
    const userId = await h.newUser();
    const good = SpotifyTokenInfo.parse(tokenFor().token_info);
    // Connected once, then 19 refused tokens, then a disconnect: the 20 calls of the day stay counted.
    await spotify.connect.connect(userId, good);
    for (let i = 0; i < 19; i++) {
      await expect(
        spotify.connect.connect(userId, { ...good, access_token: `BQ${'g'.repeat(60)}${i}` }),
      ).rejects.toMatchObject({
        statusCode: 400,
      });
    }
    await spotify.connect.disconnect(userId);
    await expect(spotify.connect.connect(userId, good)).rejects.toMatchObject({ statusCode: 429 });
    const spent = (await spotify.budget.ledger({ userKey: userId })).find((r) => r.purpose === 'connect');
    expect(spent?.calls).toBe(20);
  });

  it('connects, shows in whoami, refuses a second claim with 409, and disconnects', async () => {
    const first = await signUp();
    const { id, token_info } = tokenFor();
    const res = await put('/api/spotify/connect', first.cookie, { token_info });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ data: { connected: true, display_name: id } });
    const who = WhoamiReply.parse(
      (await app.inject({ url: '/api/whoami', headers: { cookie: first.cookie } })).json(),
    );
    expect(who.data.services['spotify']).toEqual({
      connected: true,
      demo: true,
      work_resumes_at: null,
      work_waits_for: null,
      catalogs_wait_for: null,
    });

    const second = await signUp();
    const claim = await put('/api/spotify/connect', second.cookie, { token_info: tokenFor(id).token_info });
    expect(claim.statusCode).toBe(409);
    expect(claim.json().error.code).toBe('SpotifyAccountTaken');
    expect(await stored(second.userId)).toBe(0);

    const off = await put('/api/spotify/disconnect', first.cookie);
    expect(off.statusCode).toBe(200);
    expect(off.json()).toEqual({ data: { disconnected: true } });
    expect(await stored(first.userId)).toBe(0);
    // Now the account is free for the other user.
    expect(
      (await put('/api/spotify/connect', second.cookie, { token_info: tokenFor(id).token_info })).statusCode,
    ).toBe(200);
  });

  it('connect and disconnect are refused in sudo mode', async () => {
    const admin = await signUp(adminEmail);
    const target = await signUp();
    const sudo = `?sudo=${encodeURIComponent(target.email)}`;
    const data = await app.inject({
      url: `/api/spotify/connect_data${sudo}`,
      headers: { cookie: admin.cookie, host: '127.0.0.1' },
    });
    expect(data.statusCode).toBe(200);
    const c = await put(`/api/spotify/connect${sudo}`, admin.cookie, { token_info: tokenFor().token_info });
    expect(c.statusCode).toBe(403);
    const d = await put(`/api/spotify/disconnect${sudo}`, admin.cookie);
    expect(d.statusCode).toBe(403);
    expect(await stored(target.userId)).toBe(0);
  });
});
