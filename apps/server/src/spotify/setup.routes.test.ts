// The admin's setup page through app.inject: who may see and change it, validation, the client
// id kept in the database, SPOTIFY_CLIENT_ID winning, and the switch from demo mode to a real Spotify (a
// second simulated world standing in for it) without a restart, in this "process" and in another one
// that learns it from the change feed (LISTEN/NOTIFY on the real test database).
import { randomBytes, randomUUID, createHash } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import {
  ErrorReply,
  SETUP_TEXTS,
  SetupAccountCheckReply,
  SetupRedirectChecksReply,
  SpotifyAppSetupReply,
  SpotifyConnectDataReply,
  WhoamiReply,
} from '@pacebeat/contract';
import { startSandbox, type Sandbox } from '@pacebeat/sandbox';
import { createAccountsModule } from '../accounts/accounts.module.ts';
import { startChangeFeed, type ChangeFeed } from '../cache/change-feed.ts';
import { loadConfig } from '../app/config.ts';
import { buildApp } from '../app/http-app.ts';
import { markEmailVerified, spotifyTestAppDeps, testOrigins, uniqueIp } from '../../test/accounts-app.ts';
import { sandboxSpotifyEndpoints } from './demo.ts';
import { startHarness, type Harness } from './sandbox-harness.test-helper.ts';
import { createSetupService } from './setup.service.ts';
import { createSpotifyAppRepository } from './spotify-app.repository.ts';
import { createSpotifyAppSettings } from './spotify-app.service.ts';
import { createSpotifyModule } from './spotify.module.ts';

const REAL_CLIENT = `real${randomBytes(8).toString('hex')}`;
const log = pino({ level: 'silent' });
let h: Harness;
let real: Sandbox;
const feeds: ChangeFeed[] = [];

beforeAll(async () => {
  h = await startHarness();
  // The "real" Spotify: another world, which knows only the client id the admin will save.
  real = await startSandbox({ size: 'tiny', rateLimit: false, dailyQuota: false, clientIds: [REAL_CLIENT] });
});
afterAll(async () => {
  for (const f of feeds) await f.close();
  await real?.close();
  await h?.close();
});

/** One Pacebeat process: its own settings cache, change feed, Spotify module and HTTP app. */
async function processOf(row: string, env: Record<string, string> = {}) {
  const adminEmail = `admin-${randomUUID()}@example.org`;
  const config = loadConfig({
    ADMIN_EMAILS: adminEmail,
    // Sign-up is tested in the accounts tests; here runners sign up whichever Spotify is in force.
    SIGNUP_MODE: 'open',
    SPOTIFY_ACCOUNTS_URL: real.baseUrls.spotifyAccounts,
    SPOTIFY_API_URL: real.baseUrls.spotifyApi,
    ...env,
  });
  const feed = startChangeFeed({ url: inject('databaseUrl'), log, heartbeatMs: 60_000 });
  feeds.push(feed);
  const settings = createSpotifyAppSettings({
    repo: createSpotifyAppRepository(h.db.db, row),
    row,
    config,
    demo: sandboxSpotifyEndpoints(h.sandbox),
    changes: feed,
  });
  const accounts = createAccountsModule(h.db.db, { settings: { ...config, embedded: false }, log });
  const spotify = createSpotifyModule(h.db.db, {
    spotify: settings,
    settings: {
      SPOTIFY_RATE_PER_30S: null,
      SPOTIFY_DAILY_QUOTA: null,
      SPOTIFY_TIMEOUT_SECONDS: 5,
      TOKEN_ENCRYPTION_KEY: h.key,
      dataDir: h.dataDir,
    },
    log,
    budgetKey: `test-${randomUUID()}`,
    changes: feed,
  });
  const origins = testOrigins(config);
  // Only this test's runners count as connected (the database is shared with other tests).
  const linked: string[] = [];
  const forgotTempos = { n: 0 };
  const setup = createSetupService({
    settings,
    app: spotify.app,
    accounts: { linkedUserIds: async () => linked },
    budget: spotify.budget,
    disconnect: (userId) => spotify.connect.disconnect(userId),
    // The tempo cache is shared with other tests: counted, not emptied.
    forgetDemoTempos: async () => {
      forgotTempos.n++;
      return 0;
    },
    origins: () => origins,
    timeoutMs: 5000,
    log,
  });
  const app = await buildApp(
    {
      ...spotifyTestAppDeps(accounts, spotify, origins),
      setup: { setup },
    },
    { loggerInstance: log },
  );
  while (!feed.live) await new Promise((r) => setTimeout(r, 20));

  async function signUp(email = `r-${randomUUID()}@example.org`) {
    const res = await app.inject({
      method: 'POST',
      url: '/api/signup',
      remoteAddress: uniqueIp(),
      payload: { email, name: 'Runner', password: 'run4fun!' },
    });
    expect(res.statusCode, res.body).toBe(200);
    // ADMIN_EMAILS counts once the address is verified.
    if (email === adminEmail) await markEmailVerified(email);
    const c = res.cookies.find((x) => x.name === 'pacebeat_session')!;
    return { cookie: `pacebeat_session=${c.value}`, email };
  }
  const call = (method: 'GET' | 'PUT' | 'POST', url: string, cookie?: string, payload?: object) =>
    app.inject({
      method,
      url,
      remoteAddress: uniqueIp(),
      headers: { host: '127.0.0.1', ...(cookie ? { cookie } : {}) },
      ...(payload === undefined ? {} : { payload }),
    });
  const whoami = async (cookie: string) =>
    WhoamiReply.parse((await call('GET', '/api/whoami', cookie)).json()).data;
  return { app, settings, spotify, linked, forgotTempos, adminEmail, signUp, call, whoami, feed };
}

const ROUTES = [
  ['GET', '/api/admin/spotify_app', undefined],
  ['PUT', '/api/admin/spotify_app', { client_id: REAL_CLIENT, confirm: true }],
  ['POST', '/api/admin/spotify_app/check_redirects', {}],
  [
    'POST',
    '/api/admin/spotify_app/check_account',
    { code: 'x', code_verifier: 'a'.repeat(43), redirect_uri: 'http://127.0.0.1/connect/spotify' },
  ],
] as const;

const s256 = (v: string) => createHash('sha256').update(v).digest('base64url');

describe('/api/admin/spotify_app', () => {
  it('visitors get 401; runners who are no admin, and an admin in sudo mode, get 403 on every route', async () => {
    const p = await processOf(`test-${randomUUID()}`);
    const runner = await p.signUp();
    const admin = await p.signUp(p.adminEmail);
    for (const [method, url, body] of ROUTES) {
      expect((await p.call(method, url, undefined, body)).statusCode).toBe(401);
      const asRunner = await p.call(method, url, runner.cookie, body);
      expect(asRunner.statusCode).toBe(403);
      expect(ErrorReply.parse(asRunner.json()).error.code).toBe('AdminOnly');
      const sudo = `${url}?sudo=${encodeURIComponent(runner.email)}`;
      const asSudo = await p.call(method, sudo, admin.cookie, body);
      expect(asSudo.statusCode).toBe(403);
      expect(ErrorReply.parse(asSudo.json()).error.code).toBe('SudoReadOnly');
    }
    // Nothing was saved by any of them.
    expect(await p.settings.saved()).toBeNull();
    expect((await p.settings.current()).source).toBe('demo');
  });

  it('refuses a cross-site write (CSRF) like every /api route', async () => {
    const p = await processOf(`test-${randomUUID()}`);
    const admin = await p.signUp(p.adminEmail);
    const res = await p.app.inject({
      method: 'PUT',
      url: '/api/admin/spotify_app',
      headers: { host: '127.0.0.1', cookie: admin.cookie, origin: 'https://evil.example' },
      payload: { client_id: REAL_CLIENT, confirm: true },
    });
    expect(res.statusCode).toBe(403);
    expect(await p.settings.saved()).toBeNull();
  });

  it('validates the client id (400 with a sentence for the field) and wants leaving demo mode confirmed', async () => {
    const p = await processOf(`test-${randomUUID()}`);
    const admin = await p.signUp(p.adminEmail);
    for (const client_id of ['', 'short', 'has space in it 12345', 'x'.repeat(65), 'ab-cd-ef-12345678']) {
      const res = await p.call('PUT', '/api/admin/spotify_app', admin.cookie, { client_id, confirm: true });
      expect(res.statusCode, client_id).toBe(400);
      const body = ErrorReply.parse(res.json());
      expect(body.error.fields).toContainEqual({ field: 'client_id', message: SETUP_TEXTS.badClientId });
    }
    const unconfirmed = await p.call('PUT', '/api/admin/spotify_app', admin.cookie, {
      client_id: REAL_CLIENT,
    });
    expect(unconfirmed.statusCode).toBe(400);
    expect(ErrorReply.parse(unconfirmed.json()).error).toMatchObject({
      code: 'SetupNotConfirmed',
      message: SETUP_TEXTS.confirmLeaveDemo,
    });
    expect(await p.settings.saved()).toBeNull();
  });

  it('the page data: demo mode, the redirect URIs Spotify accepts and the ones it refuses, with why', async () => {
    const p = await processOf(`test-${randomUUID()}`);
    const admin = await p.signUp(p.adminEmail);
    const res = await p.call('GET', '/api/admin/spotify_app', admin.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const { data } = SpotifyAppSetupReply.parse(res.json());
    expect(data).toMatchObject({ source: 'demo', client_id: null, saved_client_id: null });
    expect(data.redirect_uris.filter((r) => r.accepted).map((r) => r.uri)).toEqual([
      'http://127.0.0.1/connect/spotify',
      'http://[::1]/connect/spotify',
    ]);
    const localhost = data.redirect_uris.find((r) => r.uri === 'http://localhost/connect/spotify')!;
    expect(localhost.accepted).toBe(false);
    expect(localhost.problem).toContain('Spotify does not accept localhost addresses');
  });

  it('leaving demo mode: kept in the database, in force at once here and in another process, demo connections ended', async () => {
    const row = `test-${randomUUID()}`;
    const a = await processOf(row);
    const b = await processOf(row);
    const admin = await a.signUp(a.adminEmail);
    const runner = await a.signUp();
    const runnerId = (await a.whoami(runner.cookie)).user!.id;
    // The runner is connected to the simulated Spotify (demo mode), in both processes' eyes.
    const demoUser = h.sandbox.admin.createUser({ username: `d${randomUUID().slice(0, 8)}` }).id;
    const demoTokens = h.sandbox.admin.connect({ userId: demoUser });
    expect(
      (await a.call('PUT', '/api/spotify/connect', runner.cookie, { token_info: demoTokens })).statusCode,
    ).toBe(200);
    a.linked.push(runnerId);
    expect((await b.whoami(runner.cookie)).services['spotify']).toMatchObject({
      connected: true,
      demo: true,
    });
    expect((await b.settings.current()).source).toBe('demo'); // b holds demo mode in its cache now

    const echoed = b.feed.echo(`spotify_app:${row}`, 5000);
    const saved = await a.call('PUT', '/api/admin/spotify_app', admin.cookie, {
      client_id: ` ${REAL_CLIENT} `,
      confirm: true,
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const { data } = SpotifyAppSetupReply.parse(saved.json());
    expect(data).toMatchObject({
      source: 'database',
      client_id: REAL_CLIENT,
      saved_client_id: REAL_CLIENT,
      demo_connections_ended: 1,
    });
    await echoed;
    expect(a.forgotTempos.n).toBe(1); // leaving demo mode empties the (simulated) tempo cache

    // Both processes now talk to the "real" Spotify, without a restart; the demo connection is gone.
    a.linked.length = 0;
    for (const p of [a, b]) {
      expect(await p.settings.current()).toMatchObject({
        source: 'database',
        clientId: REAL_CLIENT,
        demo: false,
      });
      // The disconnect's own notification may reach the other process a moment later.
      await expect
        .poll(async () => (await p.whoami(runner.cookie)).services['spotify'])
        .toMatchObject({ connected: false, demo: false });
      const cd = await p.call('GET', '/api/spotify/connect_data', runner.cookie);
      expect(SpotifyConnectDataReply.parse(cd.json()).data).toMatchObject({
        client_id: REAL_CLIENT,
        authorize_url: `${real.baseUrls.spotifyAccounts}/authorize`,
        demo: false,
      });
    }
    // The runner connects the real Spotify: the token is checked there (GET /me on the real world).
    const realUser = real.admin.createUser({ username: `r${randomUUID().slice(0, 8)}` }).id;
    const before = real.admin.requests({ service: 'spotify-api' }).length;
    const connect = await b.call('PUT', '/api/spotify/connect', runner.cookie, {
      token_info: real.admin.connect({ userId: realUser }),
    });
    expect(connect.statusCode, connect.body).toBe(200);
    expect(real.admin.requests({ service: 'spotify-api' }).length).toBeGreaterThan(before);
    await expect
      .poll(async () => (await a.whoami(runner.cookie)).services['spotify'])
      .toMatchObject({ connected: true, demo: false });

    // Saving the same id again changes nothing; another id needs confirming while runners are connected.
    a.linked.push(runnerId);
    const again = await a.call('PUT', '/api/admin/spotify_app', admin.cookie, { client_id: REAL_CLIENT });
    expect(SpotifyAppSetupReply.parse(again.json()).data.demo_connections_ended).toBe(0);
    const other = await a.call('PUT', '/api/admin/spotify_app', admin.cookie, {
      client_id: 'another1234567',
    });
    expect(ErrorReply.parse(other.json()).error.code).toBe('SetupNotConfirmed');
    // Confirmed: the real connection ends too (its tokens belong to the old app); no tempos are forgotten.
    const changed = await a.call('PUT', '/api/admin/spotify_app', admin.cookie, {
      client_id: 'another1234567',
      confirm: true,
    });
    expect(SpotifyAppSetupReply.parse(changed.json()).data).toMatchObject({
      source: 'database',
      client_id: 'another1234567',
      demo_connections_ended: 1,
    });
    expect(a.forgotTempos.n).toBe(1);
    await expect
      .poll(async () => (await b.whoami(runner.cookie)).services['spotify'])
      .toMatchObject({ connected: false, demo: false });
  });

  it('SPOTIFY_CLIENT_ID wins over the saved one, and the page says so (409 on saving)', async () => {
    const row = `test-${randomUUID()}`;
    await createSpotifyAppRepository(h.db.db, row).save('savedClient12345', await h.newUser());
    const p = await processOf(row, { SPOTIFY_CLIENT_ID: REAL_CLIENT });
    const admin = await p.signUp(p.adminEmail);
    const { data } = SpotifyAppSetupReply.parse(
      (await p.call('GET', '/api/admin/spotify_app', admin.cookie)).json(),
    );
    expect(data).toMatchObject({
      source: 'env',
      client_id: REAL_CLIENT,
      saved_client_id: 'savedClient12345',
    });
    const res = await p.call('PUT', '/api/admin/spotify_app', admin.cookie, {
      client_id: 'other12345678',
      confirm: true,
    });
    expect(res.statusCode).toBe(409);
    expect(ErrorReply.parse(res.json()).error.code).toBe('SpotifyClientIdFromEnvironment');
    expect(await p.settings.saved()).toBe('savedClient12345');
  });

  describe('the checks, against what the (simulated) Spotify answers', () => {
    const REDIRECT = 'http://127.0.0.1/connect/spotify';
    async function realMode() {
      const p = await processOf(`test-${randomUUID()}`);
      const admin = await p.signUp(p.adminEmail);
      const res = await p.call('PUT', '/api/admin/spotify_app', admin.cookie, {
        client_id: REAL_CLIENT,
        confirm: true,
      });
      expect(res.statusCode, res.body).toBe(200);
      return { p, admin };
    }
    const codeFor = (userId: string) => {
      const verifier = randomBytes(32).toString('base64url').replace(/[-_]/g, 'a');
      const { code } = real.admin.authorize({
        userId,
        redirectUri: REDIRECT,
        codeChallenge: s256(verifier),
        clientId: REAL_CLIENT,
      });
      return { code, code_verifier: verifier, redirect_uri: REDIRECT };
    };

    it('redirect URIs: accepted, or refused with Spotify’s words and what to add in the dashboard', async () => {
      const { p, admin } = await realMode();
      real.admin.setConfig({ redirectUris: { [REAL_CLIENT]: [REDIRECT] } });
      try {
        const res = await p.call('POST', '/api/admin/spotify_app/check_redirects', admin.cookie, {});
        expect(res.statusCode, res.body).toBe(200);
        const { checks } = SetupRedirectChecksReply.parse(res.json()).data;
        expect(checks.find((c) => c.uri === REDIRECT)).toMatchObject({ ok: true, problem: null });
        const v6 = checks.find((c) => c.uri === 'http://[::1]/connect/spotify')!;
        expect(v6).toMatchObject({
          ok: false,
          problem: 'redirect_refused',
          spotify_says: 'INVALID_CLIENT: Invalid redirect URI',
        });
        expect(v6.explanation).toContain('add exactly http://[::1]/connect/spotify');
      } finally {
        real.admin.setConfig({ redirectUris: {} });
      }
    });

    it('the account: accepted; not on the user list; the owner without Premium; each in plain words', async () => {
      const { p, admin } = await realMode();
      const check = (body: object) =>
        p.call('POST', '/api/admin/spotify_app/check_account', admin.cookie, body);

      const listed = real.admin.createUser({ username: `ok${randomUUID().slice(0, 8)}` }).id;
      const ok = SetupAccountCheckReply.parse((await check(codeFor(listed))).json()).data;
      expect(ok).toMatchObject({ ok: true, problem: null });
      expect(ok.explanation).toContain('Spotify accepted the redirect URI and the account');

      const unlisted = real.admin.createUser({ username: `no${randomUUID().slice(0, 8)}` }).id;
      real.admin.setRegistered(unlisted, false, REAL_CLIENT);
      const notListed = SetupAccountCheckReply.parse((await check(codeFor(unlisted))).json()).data;
      expect(notListed).toMatchObject({ ok: false, problem: 'not_registered' });
      expect(notListed.explanation).toContain('User Management');
      expect(notListed.spotify_says).toBeTruthy();

      real.admin.setConfig({ ownerHasPremium: false });
      try {
        const noPremium = SetupAccountCheckReply.parse((await check(codeFor(listed))).json()).data;
        expect(noPremium).toMatchObject({ ok: false, problem: 'premium' });
        expect(noPremium.explanation).toContain('Premium');
        expect(noPremium.spotify_says).toMatch(/premium/i);
      } finally {
        real.admin.setConfig({ ownerHasPremium: true });
      }

      // A code used twice, and a redirect URI that is not one of Pacebeat's.
      const once = codeFor(listed);
      await check(once);
      expect(SetupAccountCheckReply.parse((await check(once)).json()).data.problem).toBe('code_refused');
      const foreign = await check({
        ...codeFor(listed),
        redirect_uri: 'https://evil.example/connect/spotify',
      });
      expect(foreign.statusCode).toBe(400);
    });
  });
});
