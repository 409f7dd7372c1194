// Demo mode as a runner's browser meets it when it can reach only the app (a container, a proxy, another
// device): the simulated world runs as main.ts starts it (startDemoSpotify, loopback, a random port), and
// the whole connect, consent page, decision, token exchange and PUT connect, goes to the app's own origin.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpotifyConnectDataReply } from '@pacebeat/contract';
import { createAccountsModule } from '../accounts/accounts.module.ts';
import { loadConfig } from '../config.ts';
import { buildApp } from '../http/app.ts';
import { spotifyTestAppDeps, testOrigins, uniqueIp } from '../../test/accounts-app.ts';
import { testDb } from '../../test/db.ts';
import { DEMO_ACCOUNTS_PATH, startDemoSpotify, type DemoSpotify } from './demo.ts';
import { createSpotifyModule } from './spotify.module.ts';

const log = pino({ level: 'silent' });
const db = testDb();
let demo: DemoSpotify;
let app: Awaited<ReturnType<typeof buildApp>>;
let inDemo = true;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pacebeat-demo-accounts-'));
/** What a browser at http://127.0.0.1 sends: the app's own host, and its origin on a form post. */
const browser = { host: '127.0.0.1', origin: 'http://127.0.0.1' };

beforeAll(async () => {
  demo = await startDemoSpotify({ log, transientFailures: 0, dailyQuota: null });
  const config = loadConfig({});
  const accounts = createAccountsModule(db.db, { settings: { ...config, embedded: false }, log });
  const spotify = createSpotifyModule(db.db, {
    spotify: demo.endpoints,
    settings: {
      SPOTIFY_RATE_PER_30S: null,
      SPOTIFY_DAILY_QUOTA: null,
      SPOTIFY_TIMEOUT_SECONDS: 5,
      TOKEN_ENCRYPTION_KEY: randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', ''),
      dataDir,
    },
    log,
    budgetKey: `test-${randomUUID()}`,
  });
  app = await buildApp(
    {
      ...spotifyTestAppDeps(accounts, spotify, testOrigins(config)),
      demoAccounts: {
        path: DEMO_ACCOUNTS_PATH,
        upstream: demo.endpoints.accountsUrl,
        demoInForce: async () => inDemo,
      },
    },
    { loggerInstance: log },
  );
});
afterAll(async () => {
  await app?.close();
  await demo?.close();
  await db.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function signUp() {
  const res = await app.inject({
    method: 'POST',
    url: '/api/signup',
    remoteAddress: uniqueIp(),
    headers: browser,
    payload: { email: `demo-${randomUUID()}@example.org`, name: 'Runner', password: 'run4fun!' },
  });
  expect(res.statusCode, res.body).toBe(200);
  const c = res.cookies.find((x) => x.name === 'pacebeat_session')!;
  return `pacebeat_session=${c.value}`;
}

/** A path on the app for a URL the app gave the browser, checked to be on the app's own origin. */
const onApp = (url: string) => {
  const u = new URL(url);
  expect(u.origin).toBe(browser.origin);
  return `${u.pathname}${u.search}`;
};

describe('demo mode: the simulated Spotify sign-in through the app’s own origin', () => {
  it('connect_data points the browser at the app, where the consent page, decision and token exchange answer', async () => {
    const cookie = await signUp();
    const data = SpotifyConnectDataReply.parse(
      (await app.inject({ url: '/api/spotify/connect_data', headers: { ...browser, cookie } })).json(),
    ).data;
    expect(data.demo).toBe(true);
    // Not the world's own address (127.0.0.1:<random port>): the browser may not reach it.
    expect(data.authorize_url).toBe(`${browser.origin}${DEMO_ACCOUNTS_PATH}/authorize`);
    expect(data.token_url).toBe(`${browser.origin}${DEMO_ACCOUNTS_PATH}/api/token`);

    // The consent page, as the connect page sends the browser to it.
    const verifier = randomUUID().replaceAll('-', '') + randomUUID().replaceAll('-', '');
    const authorize = new URL(data.authorize_url);
    for (const [k, v] of Object.entries({
      response_type: 'code',
      client_id: data.client_id,
      scope: data.scopes.join(' '),
      code_challenge_method: 'S256',
      code_challenge: createHash('sha256').update(verifier).digest('base64url'),
      redirect_uri: data.redirect_uri,
      state: 'st4te',
    }))
      authorize.searchParams.set(k, v);
    const page = await app.inject({ url: onApp(authorize.href), headers: { ...browser, cookie } });
    expect(page.statusCode, page.body).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<form method="post" action="authorize/decision">');
    // The page is the app's: its policy lets the form post to this origin and nowhere else.
    expect(page.headers['content-security-policy']).toContain("form-action 'self'");
    const requestId = /name="request_id" value="([^"]+)"/.exec(page.body)![1]!;
    const user = /<option value="([^"]+)" selected/.exec(page.body)![1]!;

    // Accept: the form posts relative to the page, so to the app; the world sends the browser back.
    const decided = await app.inject({
      method: 'POST',
      url: `${DEMO_ACCOUNTS_PATH}/authorize/decision`,
      headers: { ...browser, cookie, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ request_id: requestId, user, action: 'accept' }).toString(),
    });
    expect(decided.statusCode, decided.body).toBe(302);
    const back = new URL(String(decided.headers.location));
    expect(`${back.origin}${back.pathname}`).toBe(data.redirect_uri);
    expect(back.searchParams.get('state')).toBe('st4te');

    // The connect page's token exchange, at token_url.
    const token = await app.inject({
      method: 'POST',
      url: onApp(data.token_url),
      headers: { ...browser, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({
        client_id: data.client_id,
        grant_type: 'authorization_code',
        code: back.searchParams.get('code')!,
        redirect_uri: data.redirect_uri,
        code_verifier: verifier,
      }).toString(),
    });
    expect(token.statusCode, token.body).toBe(200);
    const tokenInfo = token.json<{ access_token: string; refresh_token: string }>();
    expect(tokenInfo.refresh_token).toBeTruthy();

    const connected = await app.inject({
      method: 'PUT',
      url: '/api/spotify/connect',
      remoteAddress: uniqueIp(),
      headers: { ...browser, cookie },
      payload: { token_info: tokenInfo },
    });
    expect(connected.statusCode, connected.body).toBe(200);
  });

  it('forwards the world’s refusals as they are, and nothing once demo mode is left', async () => {
    const refused = await app.inject({
      method: 'POST',
      url: `${DEMO_ACCOUNTS_PATH}/api/token`,
      headers: { ...browser, 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'grant_type=authorization_code&client_id=nobody',
    });
    expect(refused.statusCode).toBe(400);
    expect(refused.json()).toMatchObject({ error: 'invalid_client' });
    // Only the accounts service: the world's admin API and Web API are not on the app's origin.
    // Sent as they are (a browser, and app.inject, would resolve the dot segments first).
    const address = await app.listen({ host: '127.0.0.1', port: 0 });
    for (const climb of [
      '/../../admin/world',
      '/%2e%2e/%2E%2E/admin/world',
      '/authorize/../../../admin/world',
    ]) {
      const status = await new Promise<number | undefined>((resolve, reject) =>
        http
          .get(address, { path: `${DEMO_ACCOUNTS_PATH}${climb}`, headers: { host: browser.host } }, (res) => {
            res.resume();
            resolve(res.statusCode);
          })
          .on('error', reject),
      );
      expect(status, climb).toBe(404);
    }
    inDemo = false;
    try {
      const gone = await app.inject({ url: `${DEMO_ACCOUNTS_PATH}/authorize`, headers: browser });
      expect(gone.statusCode).toBe(404);
    } finally {
      inDemo = true;
    }
  });
});
