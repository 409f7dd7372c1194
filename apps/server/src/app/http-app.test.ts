import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import pino from 'pino';
import { ErrorReply } from '@pacebeat/contract';
import { testOrigins } from '../../test/accounts-app.ts';
import { testDb } from '../../test/db.ts';
import { createAccountsModule } from '../accounts/accounts.module.ts';
import { loadConfig } from './config.ts';
import { buildApp } from './http-app.ts';
import { contentSecurityPolicy } from './csp.ts';
import { NotReadyError } from '../http/health.routes.ts';

const INDEX_HTML = '<!doctype html><title>Pacebeat</title><div id="root"></div>';

describe('http app', () => {
  let app: FastifyInstance;
  let dist: string;
  let ready: 'yes' | 'down' | 'refused' | 'other' = 'yes';
  const handle = testDb();

  beforeAll(async () => {
    dist = await fs.mkdtemp(path.join(os.tmpdir(), 'pacebeat-dist-'));
    await fs.mkdir(path.join(dist, 'assets'));
    await fs.writeFile(path.join(dist, 'index.html'), INDEX_HTML);
    await fs.writeFile(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
    // What the build's precompress step writes beside each text file.
    await fs.writeFile(
      path.join(dist, 'assets', 'index-abc123.js.br'),
      zlib.brotliCompressSync('console.log(1)'),
    );
    await fs.writeFile(path.join(dist, 'assets', 'index-abc123.js.gz'), zlib.gzipSync('console.log(1)'));
    await fs.writeFile(path.join(dist, 'index.html.gz'), zlib.gzipSync(INDEX_HTML));
    await fs.writeFile(path.join(dist, 'favicon.svg'), '<svg/>');
    const accounts = createAccountsModule(handle.db, {
      settings: { ...loadConfig({}), embedded: false },
      log: pino({ level: 'silent' }),
    });
    app = await buildApp({
      webDistDir: dist,
      origins: testOrigins(loadConfig({})),
      accounts: { accounts: accounts.accounts, sessions: accounts.sessions },
      checkReady: async () => {
        if (ready === 'down') throw new NotReadyError('shutting down');
        if (ready === 'refused') {
          // What node-postgres throws when the database's port is closed: it names the internal address.
          const cause = Object.assign(new Error('connect ECONNREFUSED 10.0.3.7:5432'), {
            code: 'ECONNREFUSED',
          });
          throw new Error('Failed query: select 1', { cause });
        }
        if (ready === 'other')
          throw new Error('password authentication failed for user "pacebeat" at db.internal:5432');
      },
    });
  });
  afterAll(async () => {
    await app.close();
    await handle.close();
    await fs.rm(dist, { recursive: true, force: true });
  });

  it('sends a strict Content-Security-Policy with every answer', async () => {
    const csp = String((await app.inject('/')).headers['content-security-policy']);
    expect(csp).toContain("script-src 'self';");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).not.toContain('googleapis');
  });

  it("allows Spotify's token endpoint, and Firebase only when its widget is used", () => {
    const plain = contentSecurityPolicy({ spotifyAccountsUrl: 'https://accounts.spotify.com/api/token' });
    expect(plain).toContain("connect-src 'self' https://accounts.spotify.com;");
    // Spotify's embed player, for the fix-tempo dialog (csp.test.ts); nothing else is framed.
    expect(plain).toContain('frame-src https://open.spotify.com;');
    const firebase = contentSecurityPolicy({
      firebase: { authDomain: 'pace.firebaseapp.com', emulatorUrl: 'http://127.0.0.1:9099' },
    });
    expect(firebase).toContain('https://identitytoolkit.googleapis.com');
    expect(firebase).toContain('http://127.0.0.1:9099');
    expect(firebase).toContain('frame-src https://pace.firebaseapp.com');
  });

  it('answers /healthz', async () => {
    const res = await app.inject('/healthz');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual({ status: 'ok' });
  });

  it('answers /readyz with 200 when ready and 503 with a reason that names no internal address when not', async () => {
    const answer = await app.inject('/readyz');
    expect(answer.statusCode).toBe(200);
    // Which release answers: the root package.json's version (the image's tag), and a commit.
    const release = JSON.parse(
      await fs.readFile(new URL('../../../../package.json', import.meta.url), 'utf8'),
    );
    expect(answer.json()).toEqual({ status: 'ready', version: release.version, commit: expect.any(String) });
    const reasons: Record<string, string> = {};
    for (const state of ['down', 'refused', 'other'] as const) {
      ready = state;
      const res = await app.inject('/readyz');
      expect(res.statusCode).toBe(503);
      reasons[state] = (res.json() as { reason: string }).reason;
      expect(res.body).not.toMatch(/10\.0\.3\.7|5432|db\.internal|pacebeat"/);
    }
    ready = 'yes';
    expect(reasons).toEqual({
      down: 'shutting down',
      refused: 'database unreachable',
      other: 'not ready (see the server log)',
    });
  });

  it('answers /api/ping with 401 and the error envelope for a visitor', async () => {
    const res = await app.inject('/api/ping');
    expect(res.statusCode).toBe(401);
    const body = ErrorReply.parse(res.json());
    expect(body.error.code).toBe('Unauthorized');
    expect(body.error_name).toBe('Unauthorized');
  });

  it('validates the query: a bad sudo value is a 400 with the field, never a 500', async () => {
    const res = await app.inject(`/api/ping?sudo=${'x'.repeat(400)}`);
    expect(res.statusCode).toBe(400);
    const body = ErrorReply.parse(res.json());
    expect(body.error.code).toBe('ValidationError');
    expect(body.error.message).toContain('sudo');
  });

  it('answers unknown API paths with a JSON 404, not the web app', async () => {
    const res = await app.inject('/api/no-such-thing');
    expect(res.statusCode).toBe(404);
    expect(ErrorReply.parse(res.json()).error.code).toBe('NotFound');
  });

  it('rejects oversized bodies with 413 and the envelope', async () => {
    const big = await app.inject({
      method: 'POST',
      url: '/api/anything',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ x: 'y'.repeat(100_000) }),
    });
    expect(big.statusCode).toBe(413);
    expect(ErrorReply.parse(big.json()).error.message).toMatch(/too large/i);
  });

  it('serves hashed assets with long cache headers and other files revalidated', async () => {
    const asset = await app.inject('/assets/index-abc123.js');
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    const icon = await app.inject('/favicon.svg');
    expect(icon.headers['cache-control']).toBe('no-cache');
  });

  it('sends the precompressed copies the browser accepts, with Content-Encoding and Vary', async () => {
    const url = '/assets/index-abc123.js';
    const br = await app.inject({ url, headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['vary']).toMatch(/accept-encoding/i);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe('console.log(1)');

    const gz = await app.inject({ url, headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe('console.log(1)');

    const plain = await app.inject({ url, headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.headers['vary']).toMatch(/accept-encoding/i);
    expect(plain.body).toBe('console.log(1)');

    // The history-mode fallback too; a file without a compressed copy is sent as it is.
    const page = await app.inject({ url: '/about', headers: { 'accept-encoding': 'br, gzip' } });
    expect(page.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(page.rawPayload).toString()).toBe(INDEX_HTML);
    const icon = await app.inject({ url: '/favicon.svg', headers: { 'accept-encoding': 'br, gzip' } });
    expect(icon.headers['content-encoding']).toBeUndefined();
    expect(icon.body).toBe('<svg/>');
  });

  it('falls back to index.html for every non-API path (history mode)', async () => {
    for (const url of ['/', '/about', '/connect/spotify?code=x', '/no/such/page']) {
      const res = await app.inject(url);
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toMatch(/text\/html/);
      expect(res.body).toContain('<div id="root">');
    }
  });

  it('sets basic security headers', async () => {
    const res = await app.inject('/');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('DENY');
  });
});
