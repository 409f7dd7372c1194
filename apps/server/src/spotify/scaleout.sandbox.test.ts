// What lets several processes share one installation: demo mode against one simulated world running on
// its own (DEMO_SANDBOX_URL), and one token key for every process of a database.
import { randomBytes, randomUUID } from 'node:crypto';
import pino from 'pino';
import { startSandbox } from '@pacebeat/sandbox';
import { afterAll, describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../app/config.ts';
import { testDb } from '../../test/db.ts';
import { DEMO_ACCOUNTS_PATH, sandboxSpotifyEndpoints, startDemoSpotify } from './demo.ts';
import { keyId } from './token-crypto.ts';
import { assertInstallationTokenKey } from './token-key.ts';
import { createTokenKeyRepository } from './token-key.repository.ts';

const log = pino({ level: 'silent' });

describe('demo mode against a simulated world of its own (DEMO_SANDBOX_URL)', () => {
  it('takes the base URLs, client id and GetSongBPM key from the running world, and leaves it running', async () => {
    const sb = await startSandbox({ size: 'tiny', port: 0 });
    try {
      const config = loadConfig({ DEMO_SANDBOX_URL: sb.url });
      const redirect = 'https://pace.example.org/connect/spotify';
      const demo = await startDemoSpotify({
        log,
        sandboxUrl: config.DEMO_SANDBOX_URL,
        redirectUris: [redirect],
      });
      expect(demo.endpoints).toEqual({
        ...sandboxSpotifyEndpoints(sb),
        // The browser reaches the world's consent page through the app's origin, not the world's address.
        browserAccountsUrl: DEMO_ACCOUNTS_PATH,
      });
      expect(demo.baseUrls).toEqual(sb.baseUrls);
      expect(demo.getsongbpmKey).toBe(sb.admin.config().getsongbpm.apiKeys[0]);
      // The app's connect page is registered with that world, as an admin registers it with Spotify; a
      // second process adds nothing twice.
      expect(sb.admin.config().redirectUris).toEqual({ [demo.endpoints.clientId]: [redirect] });
      await (await startDemoSpotify({ log, sandboxUrl: sb.url, redirectUris: [redirect] })).close();
      expect(sb.admin.config().redirectUris).toEqual({ [demo.endpoints.clientId]: [redirect] });
      await demo.close();
      expect((await fetch(`${sb.url}/admin/world`)).status).toBe(200); // not ours to stop
    } finally {
      await sb.close();
    }
  });

  it('sends the world’s admin token (DEMO_SANDBOX_ADMIN_TOKEN), and without it says what to set', async () => {
    const sb = await startSandbox({ size: 'tiny', port: 0, adminToken: 'world-token-1' });
    try {
      const config = loadConfig({ DEMO_SANDBOX_URL: sb.url, DEMO_SANDBOX_ADMIN_TOKEN: 'world-token-1' });
      const demo = await startDemoSpotify({
        log,
        sandboxUrl: config.DEMO_SANDBOX_URL,
        sandboxAdminToken: config.DEMO_SANDBOX_ADMIN_TOKEN,
        redirectUris: [],
      });
      expect(demo.endpoints).toEqual({
        ...sandboxSpotifyEndpoints(sb),
        browserAccountsUrl: DEMO_ACCOUNTS_PATH,
      });
      await demo.close();
      await expect(startDemoSpotify({ log, sandboxUrl: sb.url, redirectUris: [] })).rejects.toThrow(
        /wants its admin token: set DEMO_SANDBOX_ADMIN_TOKEN/,
      );
    } finally {
      await sb.close();
    }
  });

  it('with DEMO_SANDBOX_ADMIN_TOKEN alone, the in-process world’s admin API takes that token', async () => {
    const demo = await startDemoSpotify({ log, sandboxAdminToken: 'in-process-1', redirectUris: [] });
    try {
      const admin = demo.baseUrls.admin;
      expect((await fetch(`${admin}/world`)).status).toBe(401);
      const ok = await fetch(`${admin}/world`, { headers: { authorization: 'Bearer in-process-1' } });
      expect(ok.status).toBe(200);
    } finally {
      await demo.close();
    }
  });

  it('refuses a URL where no world answers, saying which', async () => {
    await expect(
      startDemoSpotify({ log, sandboxUrl: 'http://127.0.0.1:9', redirectUris: [] }),
    ).rejects.toThrow(/DEMO_SANDBOX_URL: the simulated world at http:\/\/127.0.0.1:9 does not answer/);
    expect(() => loadConfig({ DEMO_SANDBOX_URL: 'not a url' })).toThrow(ConfigError);
  });
});

describe('one token key per installation', () => {
  const db = testDb();
  afterAll(() => db.close());

  it('the first process records its key id; another key is refused, the same key passes', async () => {
    const repo = createTokenKeyRepository(db.db);
    // Each test run shares one database: a fact name of its own keeps this test apart from the app's.
    const fact = `test-key-${randomUUID()}`;
    const mine = keyId(randomBytes(32));
    expect(await repo.claim(fact, mine)).toBe(mine);
    expect(await repo.claim(fact, keyId(randomBytes(32)))).toBe(mine);
    await repo.forget(fact);
    expect(await repo.claim(fact, 'other')).toBe('other');
    await repo.forget(fact);
  });

  it('a process whose key differs from the installation’s stops with a message naming the setting', async () => {
    const claimed = new Map<string, string>();
    const repo = { claim: async (n: string, v: string) => claimed.get(n) ?? (claimed.set(n, v), v) };
    await assertInstallationTokenKey(repo, 'aaaa');
    await assertInstallationTokenKey(repo, 'aaaa');
    await expect(assertInstallationTokenKey(repo, 'bbbb')).rejects.toThrow(ConfigError);
    await expect(assertInstallationTokenKey(repo, 'bbbb')).rejects.toThrow(
      /TOKEN_ENCRYPTION_KEY: .*id bbbb.*id aaaa/,
    );
  });
});
