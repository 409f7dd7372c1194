// The app's origin is decided once from the settings: links in mails never come from a request header,
// and requests addressed to another host (forged Host, DNS rebinding) are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, uniqueEmail, uniqueIp } from '../../test/accounts-app.ts';
import { ConfigError, loadConfig } from '../app/config.ts';
import { appOrigins, localhostRedirect, requestOrigin, spotifyRedirectProblem } from './origins.ts';

type TestApp = Awaited<ReturnType<typeof buildTestApp>>;
const PASSWORD = 'run4fun!';

describe('appOrigins', () => {
  it('uses PUBLIC_URL when set, else the address the server listens on with its loopback aliases', () => {
    expect(appOrigins(loadConfig({ PUBLIC_URL: 'https://pace.example.org/' }))).toMatchObject({
      linkOrigin: 'https://pace.example.org',
      allowedHosts: ['pace.example.org'],
    });
    const local = appOrigins(loadConfig({}));
    expect(local.linkOrigin).toBe('http://127.0.0.1:8080');
    // Listening on 127.0.0.1 only: [::1] is refused there, so it is not one of the app's addresses.
    expect(local.allowedHosts).toEqual(['127.0.0.1:8080', 'localhost:8080']);
    expect(appOrigins(loadConfig({ HOST: '::1' })).allowedHosts).toEqual(['[::1]:8080', 'localhost:8080']);
    // localhost: Fastify listens on every address the name resolves to.
    expect(appOrigins(loadConfig({ HOST: 'localhost' })).allowedHosts).toEqual([
      'localhost:8080',
      '127.0.0.1:8080',
      '[::1]:8080',
    ]);
    expect(appOrigins(loadConfig({ HOST: '192.0.2.10', PORT: '9000' })).allowedHosts).toEqual([
      '192.0.2.10:9000',
    ]);
  });

  it('refuses to start listening on every address without PUBLIC_URL or ALLOWED_ORIGINS', () => {
    expect(() => loadConfig({ HOST: '0.0.0.0' })).toThrow(ConfigError);
    expect(
      appOrigins(loadConfig({ HOST: '0.0.0.0', ALLOWED_ORIGINS: 'http://pace.lan:8080' })),
    ).toMatchObject({
      linkOrigin: 'http://pace.lan:8080',
      allowedHosts: ['pace.lan:8080'],
    });
  });
});

describe('localhost and Spotify', () => {
  it('sends a localhost page to a loopback address the app answers at, preferring the one it came in on', () => {
    const local = appOrigins(loadConfig({}));
    expect(localhostRedirect(local, 'localhost:8080')).toBe('http://127.0.0.1:8080');
    const both = appOrigins(loadConfig({ HOST: 'localhost' }));
    expect(localhostRedirect(both, 'localhost:8080', '::1')).toBe('http://[::1]:8080');
    expect(localhostRedirect(local, 'localhost:8080', '::ffff:127.0.0.1')).toBe('http://127.0.0.1:8080');
    expect(localhostRedirect(local, '127.0.0.1:8080')).toBeUndefined();
    // Listening on ::1 alone: to [::1], not to 127.0.0.1 where nothing listens.
    expect(localhostRedirect(appOrigins(loadConfig({ HOST: '::1' })), 'localhost:8080')).toBe(
      'http://[::1]:8080',
    );
    // PUBLIC_URL (plus the Vite dev server): no loopback origin to go to, nothing is redirected.
    const behind = appOrigins(
      loadConfig({ PUBLIC_URL: 'https://pace.example.org', ALLOWED_ORIGINS: 'http://localhost:5173' }),
    );
    expect(behind.localhostRedirects).toEqual({});
  });

  it('names the redirect URI after the configured origin, and never a localhost one', () => {
    const local = appOrigins(loadConfig({}));
    expect(requestOrigin(local, 'http', '127.0.0.1:8080')).toBe('http://127.0.0.1:8080');
    expect(spotifyRedirectProblem(local, 'http://127.0.0.1:8080')).toBeUndefined();
    expect(spotifyRedirectProblem(local, 'http://[::1]:8080')).toBeUndefined();
    expect(spotifyRedirectProblem(local, 'http://localhost:8080')).toContain(
      'Open http://127.0.0.1:8080/connect/spotify instead',
    );
    // Behind a TLS proxy without TRUST_PROXY the request says http: the origin is PUBLIC_URL's.
    const behind = appOrigins(
      loadConfig({ PUBLIC_URL: 'https://pace.example.org', ALLOWED_ORIGINS: 'http://localhost:5173' }),
    );
    expect(requestOrigin(behind, 'http', 'pace.example.org')).toBe('https://pace.example.org');
    expect(spotifyRedirectProblem(behind, 'https://pace.example.org')).toBeUndefined();
    // The Vite dev server at localhost: what to open, and the setting that lets the server answer there.
    expect(spotifyRedirectProblem(behind, requestOrigin(behind, 'http', 'localhost:5173'))).toBe(
      'Spotify does not accept localhost addresses, so it cannot send you back to this page. Open http://127.0.0.1:5173/connect/spotify instead (the server must answer there too: add http://127.0.0.1:5173 to ALLOWED_ORIGINS).',
    );
    // Plain http on a network name: Spotify refuses it too.
    const lan = appOrigins(loadConfig({ HOST: '0.0.0.0', ALLOWED_ORIGINS: 'http://pace.lan:8080' }));
    expect(spotifyRedirectProblem(lan, 'http://pace.lan:8080')).toContain('HTTPS');
  });
});

describe('Host header', () => {
  let t: TestApp;
  const logLines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    // The real default settings: HOST 127.0.0.1, PORT 8080, no PUBLIC_URL.
    t = await buildTestApp({ logLines, origins: appOrigins(loadConfig({})) });
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object, headers: Record<string, string>) =>
    t.app.inject({ method: 'POST', url, remoteAddress: uniqueIp(), headers, payload });
  const mailedLinks = (email: string) =>
    logLines.filter((l) => l.to === email && typeof l.link === 'string').map((l) => String(l.link));

  it('a reset requested with a forged Host is refused, and no mail goes out', async () => {
    const email = uniqueEmail();
    const signup = await post(
      '/api/signup',
      { email, name: 'R', password: PASSWORD },
      { host: '127.0.0.1:8080' },
    );
    expect(signup.statusCode, signup.body).toBe(200);
    const before = mailedLinks(email).length;
    const forged = await post('/api/password_reset', { email }, { host: 'attacker.example' });
    expect(forged.statusCode).toBe(421);
    expect(forged.json()).toMatchObject({ error_name: 'HostNotAllowed' });
    await t.mod.accounts.settled();
    expect(mailedLinks(email)).toHaveLength(before);
  });

  it('links point to the configured origin even when the request used a loopback alias', async () => {
    const email = uniqueEmail();
    await post('/api/signup', { email, name: 'R', password: PASSWORD }, { host: 'localhost:8080' });
    const res = await post('/api/password_reset', { email }, { host: 'localhost:8080' });
    expect(res.statusCode, res.body).toBe(200);
    await t.mod.accounts.settled(); // the reset mail goes out after the answer
    const links = mailedLinks(email);
    expect(links.length).toBeGreaterThanOrEqual(2);
    for (const link of links) expect(new URL(link).origin).toBe('http://127.0.0.1:8080');
  });

  it('refuses DNS rebinding: Host and Origin both naming an attacker host', async () => {
    const res = await post(
      '/api/login',
      { provider: 'local', email: uniqueEmail(), password: 'x1' },
      { host: 'attacker.example:8080', origin: 'http://attacker.example:8080' },
    );
    expect(res.statusCode).toBe(421);
    const page = await t.app.inject({ url: '/', headers: { host: 'attacker.example:8080' } });
    expect(page.statusCode).toBe(421);
  });

  it('a page opened at localhost moves to 127.0.0.1 at once, path and query kept; the API stays', async () => {
    for (const url of ['/', '/connect/spotify?code=c&state=s', '/login', '/assets/x.js']) {
      const page = await t.app.inject({ url, headers: { host: 'localhost:8080' } });
      expect(page.statusCode, url).toBe(307);
      expect(page.headers.location).toBe(`http://127.0.0.1:8080${url}`);
      expect(page.headers['cache-control']).toBe('no-store');
    }
    const head = await t.app.inject({ method: 'HEAD', url: '/paces', headers: { host: 'localhost:8080' } });
    expect(head.headers.location).toBe('http://127.0.0.1:8080/paces');
    const api = await t.app.inject({ url: '/api/whoami', headers: { host: 'localhost:8080' } });
    expect(api.statusCode).toBe(200);
    const health = await t.app.inject({ url: '/healthz', headers: { host: 'localhost:8080' } });
    expect(health.statusCode).toBe(200);
    const there = await t.app.inject({ url: '/connect/spotify', headers: { host: '127.0.0.1:8080' } });
    expect(there.headers.location).toBeUndefined();
  });

  it('answers a malformed Host with 400, and health checks by any name', async () => {
    const bad = await t.app.inject({ url: '/api/whoami', headers: { host: 'a b/c' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error_name: 'BadHost' });
    const health = await t.app.inject({ url: '/healthz', headers: { host: 'monitor.internal' } });
    expect(health.statusCode).toBe(200);
  });
});
