// Demo mode as a runner's browser meets it when it can reach only the app (a container, a proxy, another
// device): the simulated world runs as main.ts starts it (startDemoSpotify, loopback, a random port), and
// the whole connect, consent page, decision, token exchange and PUT connect, goes to the app's own origin.
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpotifyConnectDataReply } from '@pacebeat/contract';
import { createAccountsModule } from '../accounts/accounts.module.ts';
import { loadConfig } from '../app/config.ts';
import { buildApp } from '../app/http-app.ts';
import { spotifyTestAppDeps, testOrigins, uniqueIp } from '../../test/accounts-app.ts';
import { testDb } from '../../test/db.ts';
import { DEMO_ACCOUNTS_PATH, demoRedirectUris, startDemoSpotify, type DemoSpotify } from './demo.ts';
import { createSpotifyModule } from './spotify.module.ts';

/** Every warning and error the app and the world write: the refusals below must write no error line. */
const logLines: Array<{ level: number; msg?: string }> = [];
const log = pino(
  { level: 'warn' },
  { write: (line: string) => void logLines.push(JSON.parse(line) as { level: number; msg?: string }) },
);
const errorLines = () => logLines.filter((l) => l.level >= 50);
const db = testDb();
let demo: DemoSpotify;
let app: Awaited<ReturnType<typeof buildApp>>;
let inDemo = true;
/** Where the app listens: the raw requests below go over a real socket. */
let address: string;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pacebeat-demo-accounts-'));
/** What a browser at http://127.0.0.1 sends: the app's own host, and its origin on a form post. */
const browser = { host: '127.0.0.1', origin: 'http://127.0.0.1' };
/**
 * Every request the world received from the app: the demo route forwards to this recorder, which passes
 * each on to the world as it came (so "the world saw no such request" is checked at the world's door).
 */
const seen: string[] = [];
let recorder: http.Server;

beforeAll(async () => {
  const config = loadConfig({});
  demo = await startDemoSpotify({
    log,
    transientFailures: 0,
    dailyQuota: null,
    // As main.ts registers them: the connect page at the app's own origins (here http://127.0.0.1 too).
    redirectUris: demoRedirectUris(testOrigins(config)),
  });
  const world = new URL(demo.endpoints.accountsUrl);
  recorder = http.createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    const out = http.request(
      { host: world.hostname, port: world.port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    out.on('error', () => res.destroy());
    req.pipe(out);
  });
  await new Promise<void>((resolve) => recorder.listen(0, '127.0.0.1', resolve));
  const recorderAccountsUrl = `http://127.0.0.1:${(recorder.address() as AddressInfo).port}${world.pathname}`;
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
        upstream: recorderAccountsUrl,
        demoInForce: async () => inDemo,
      },
    },
    { loggerInstance: log },
  );
  address = await app.listen({ host: '127.0.0.1', port: 0 });
});
afterAll(async () => {
  await app?.close();
  await new Promise((resolve) => recorder?.close(resolve));
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

/**
 * One request written byte for byte on a socket (no client library, which would resolve dot segments or
 * turn `\` into `/`), and the answer's status, headers and body (read to its Content-Length, or to the
 * last chunk).
 */
function rawRequest(
  requestLine: string,
  headers: Record<string, string> = {},
  body = '',
): Promise<{ status: number; head: string; body: string }> {
  const { port } = new URL(address);
  const head = Object.entries({
    host: browser.host,
    ...(body ? { 'content-length': String(Buffer.byteLength(body)) } : {}),
    ...headers,
  })
    .map(([k, v]) => `${k}: ${v}\r\n`)
    .join('');
  return new Promise((resolve, reject) => {
    const socket = net.connect(Number(port), '127.0.0.1', () =>
      socket.write(`${requestLine}\r\n${head}\r\n${body}`),
    );
    let text = '';
    const answer = () => {
      const end = text.indexOf('\r\n\r\n');
      const head = text.slice(0, end);
      return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0), head, body: text.slice(end + 4) };
    };
    socket.setEncoding('latin1');
    socket.on('data', (d: string) => {
      text += d;
      const a = answer();
      if (!text.includes('\r\n\r\n')) return;
      const length = /^content-length: *(\d+)/im.exec(a.head)?.[1];
      const done = /^transfer-encoding: *chunked/im.test(a.head)
        ? a.body.endsWith('0\r\n\r\n')
        : Buffer.byteLength(a.body, 'latin1') >= Number(length ?? 0);
      if (done || requestLine.startsWith('HEAD ')) {
        socket.destroy();
        resolve(a);
      }
    });
    socket.on('error', reject);
    socket.on('close', () => resolve(answer()));
  });
}

describe('demo mode: the demo route lets through the accounts service’s three paths, nothing else (issue 33)', () => {
  const P = DEMO_ACCOUNTS_PATH;
  // Each climbs to the world's admin API once a WHATWG URL parser has normalised it, or tries to.
  const climbs = [
    `${P}/x\\..\\..\\..\\admin/world`,
    `${P}/authorize\\..\\..\\..\\admin/world`,
    `${P}\\..\\..\\admin\\world`,
    `${P}/%2e%2e/%2e%2e/admin/world`,
    `${P}/%2E%2E/%2E%2E/admin/world`,
    `${P}/.%2e/.%2e/admin/world`,
    `${P}/x/..%2f..%2f..%2fadmin/world`,
    `${P}/..%2F..%2Fadmin%2Fworld`,
    `${P}/authorize%2f..%2f..%2f..%2fadmin%2fworld`,
    `${P}/x%5c..%5c..%5c..%5cadmin/world`,
    `${P}/x%5C..%5C..%5C..%5Cadmin/world`,
    `${P}/../../admin/world`,
    `${P}/authorize/../../../admin/world`,
    `${P}/./authorize`,
    `${P}//authorize`,
    `${P}//..//..//admin/world`,
    `${P}/api//token`,
    `${P}/authorize/`,
    `${P}/%61uthorize`,
    `${P}/x/../authorize`,
  ];

  it('answers 404 to backslashes, encoded dots and slashes, dot segments and doubled slashes, and forwards none', async () => {
    seen.length = 0;
    for (const target of climbs) {
      for (const method of ['GET', 'POST'] as const) {
        const res = await rawRequest(
          `${method} ${target} HTTP/1.1`,
          method === 'POST' ? { 'content-type': 'application/json' } : {},
          method === 'POST' ? '{"users":100000}' : '',
        );
        expect([400, 404], `${method} ${target}: ${res.status} ${res.body}`).toContain(res.status);
        expect(res.body, target).not.toContain('baseUrls'); // the world's GET /admin/world
      }
    }
    // The crowd endpoint the issue names, through every spelling above.
    for (const target of climbs.map((t) => t.replace(/world$/, 'crowd'))) {
      const res = await rawRequest(`POST ${target} HTTP/1.1`, { 'content-type': 'application/json' }, '{}');
      expect([400, 404], `POST ${target}: ${res.status}`).toContain(res.status);
    }
    expect(seen).toEqual([]);
    expect(errorLines()).toEqual([]);
  });

  it('answers 400 with a JSON message to a malformed percent escape in the path or the query, and forwards none', async () => {
    seen.length = 0;
    for (const target of [
      `${P}/authorize%zz`,
      `${P}/%zz/../../admin/world`,
      `${P}/authorize?client_id=%zz`,
      `${P}/authorize?client_id=pacebeat-demo&state=%`,
      `${P}/authorize?%E0%A4%A=x`,
      `${P}/api/token?x=%G1`,
      `${P}/authorize?state=%E0%A4`,
    ]) {
      const res = await rawRequest(`GET ${target} HTTP/1.1`);
      expect(res.status, `${target}: ${res.body}`).toBe(400);
      const body = JSON.parse(res.body) as { error: { message: string } };
      expect(body.error.message, target).toMatch(/malformed percent escape/);
    }
    expect(seen).toEqual([]);
    expect(errorLines()).toEqual([]);
  });

  it('answers a broken Content-Type (application/json;;) with a 4xx, never a 500', async () => {
    for (const contentType of ['application/json;;', 'application/json; charset', ';;', 'a/b;=;']) {
      const res = await rawRequest(
        `POST ${P}/api/token HTTP/1.1`,
        { 'content-type': contentType },
        'grant_type=authorization_code',
      );
      expect(res.status, `${contentType}: ${res.body}`).toBeGreaterThanOrEqual(400);
      expect(res.status, `${contentType}: ${res.body}`).toBeLessThan(500);
    }
    // A GET, HEAD or OPTIONS with a body goes on without it (it used to throw in the proxy: a 500).
    for (const method of ['GET', 'HEAD', 'OPTIONS']) {
      const res = await rawRequest(
        `${method} ${P}/${method === 'OPTIONS' ? 'api/token' : 'authorize?client_id=nobody'} HTTP/1.1`,
        { 'content-type': 'application/json;;' },
        '{"a":1}',
      );
      expect(res.status, `${method}: ${res.head}`).toBeLessThan(500);
    }
    expect(errorLines()).toEqual([]);
  });

  it('still forwards the allowed paths, with their query written again', async () => {
    seen.length = 0;
    const page = await rawRequest(`GET ${P}/authorize?client_id=pacebeat-demo&redirect_uri=x HTTP/1.1`);
    // The world's own refusal (an unregistered redirect URI), forwarded: the path reached it.
    expect(page.status).toBe(400);
    expect(page.body).toContain('INVALID_CLIENT: Invalid redirect URI');
    expect(seen).toEqual(['GET /spotify/accounts/authorize?client_id=pacebeat-demo&redirect_uri=x']);
    // The world's connection headers stay between it and the app: a browser's `close` is honoured.
    const closed = await rawRequest(`GET ${P}/authorize?client_id=pacebeat-demo HTTP/1.1`, {
      connection: 'close',
    });
    expect(closed.head).toMatch(/^connection: close/im);
  });
});

describe('demo mode: the in-process world’s admin API and consent page (issue 33)', () => {
  it('the admin API answers 401 without its token, which is random per start', async () => {
    const admin = demo.baseUrls.admin;
    expect((await fetch(`${admin}/world`)).status).toBe(401);
    const crowd = await fetch(`${admin}/crowd`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"users":10}',
    });
    expect(crowd.status).toBe(401);
    expect(demo.adminToken).toMatch(/^[A-Za-z0-9_-]{24,}$/);
    const ok = await fetch(`${admin}/world`, { headers: { authorization: `Bearer ${demo.adminToken}` } });
    expect(ok.status).toBe(200);
    const other = await startDemoSpotify({ log, redirectUris: [] });
    try {
      expect(other.adminToken).not.toBe(demo.adminToken);
      expect((await fetch(`${other.baseUrls.admin}/world`)).status).toBe(401);
    } finally {
      await other.close();
    }
  });

  /** The consent page's URL on the app for a redirect URI. */
  const authorizeUrl = (redirectUri: string) =>
    `${DEMO_ACCOUNTS_PATH}/authorize?${new URLSearchParams({
      response_type: 'code',
      client_id: demo.endpoints.clientId,
      scope: 'user-library-read',
      code_challenge_method: 'S256',
      code_challenge: createHash('sha256').update('v'.repeat(43)).digest('base64url'),
      redirect_uri: redirectUri,
      state: 's',
    })}`;

  it('the consent page sends the browser back only to the app’s registered redirect URI', async () => {
    for (const evil of [
      'https://evil.example/cb',
      'https://evil.example/connect/spotify',
      'http://127.0.0.1:9/connect/spotify',
      `${browser.origin}/connect/spotify/../../evil`,
      `${browser.origin}/somewhere-else`,
    ]) {
      const res = await app.inject({ url: authorizeUrl(evil), headers: browser });
      expect(res.statusCode, evil).toBe(400);
      expect(res.headers['content-type'], evil).toMatch(/^text\/html/);
      expect(res.body, evil).toContain('INVALID_CLIENT: Invalid redirect URI');
      expect(res.headers.location, evil).toBeUndefined();
    }
    // A bad request with a bad redirect URI is refused on the page too, not sent back with an error.
    const noPkce = await app.inject({
      url: authorizeUrl('https://evil.example/cb').replace(
        'code_challenge_method=S256',
        'code_challenge_method=plain',
      ),
      headers: browser,
    });
    expect(noPkce.statusCode).toBe(400);
    expect(noPkce.headers.location).toBeUndefined();

    const registered = `${browser.origin}/connect/spotify`;
    const page = await app.inject({ url: authorizeUrl(registered), headers: browser });
    expect(page.statusCode, page.body).toBe(200);
    const requestId = /name="request_id" value="([^"]+)"/.exec(page.body)![1]!;
    const cancel = await app.inject({
      method: 'POST',
      url: `${DEMO_ACCOUNTS_PATH}/authorize/decision`,
      headers: { ...browser, 'content-type': 'application/x-www-form-urlencoded' },
      payload: new URLSearchParams({ request_id: requestId, action: 'cancel' }).toString(),
    });
    expect(cancel.statusCode).toBe(302);
    expect(String(cancel.headers.location)).toBe(`${registered}?error=access_denied&state=s`);
  });
});
