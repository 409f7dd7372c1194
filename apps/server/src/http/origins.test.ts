// The app's origin is decided once from the settings: links in mails never come from a request header,
// and requests addressed to another host (forged Host, DNS rebinding) are refused.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, uniqueEmail, uniqueIp } from '../../test/accounts-app.ts';
import { ConfigError, loadConfig } from '../config.ts';
import { appOrigins } from './origins.ts';

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
    expect(local.allowedHosts).toEqual(['127.0.0.1:8080', 'localhost:8080', '[::1]:8080']);
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
    expect(mailedLinks(email)).toHaveLength(before);
  });

  it('links point to the configured origin even when the request used a loopback alias', async () => {
    const email = uniqueEmail();
    await post('/api/signup', { email, name: 'R', password: PASSWORD }, { host: 'localhost:8080' });
    const res = await post('/api/password_reset', { email }, { host: 'localhost:8080' });
    expect(res.statusCode, res.body).toBe(200);
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

  it('answers a malformed Host with 400, and health checks by any name', async () => {
    const bad = await t.app.inject({ url: '/api/whoami', headers: { host: 'a b/c' } });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toMatchObject({ error_name: 'BadHost' });
    const health = await t.app.inject({ url: '/healthz', headers: { host: 'monitor.internal' } });
    expect(health.statusCode).toBe(200);
  });
});
