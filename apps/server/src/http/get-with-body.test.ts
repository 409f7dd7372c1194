// No error-log spam: a GET (or HEAD) with a body, to a page, a static file or the API, without
// signing in, answers as a client mistake (below 500) and writes no error-level line, over a real socket as
// well as through inject. How the spam came about: the client resets the connection right after the
// body, so the hooks that run after the body (the per-address limits) found no client address (http-app.ts now
// reads it on arrival). And a malformed percent escape in a path answers 400 in the app's envelope.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testOrigins } from '../../test/accounts-app.ts';
import { testDb } from '../../test/db.ts';
import { createAccountsModule } from '../accounts/accounts.module.ts';
import { loadConfig } from '../app/config.ts';
import { buildApp } from '../app/http-app.ts';

/** The app on a web build of one page (and, with `asset`, one script), its log lines kept in `lines`. */
async function appWithLog(lines: Array<{ level: number }>, asset: boolean): Promise<FastifyInstance> {
  const dist = await fs.mkdtemp(path.join(os.tmpdir(), 'pacebeat-dist-'));
  await fs.writeFile(path.join(dist, 'index.html'), '<!doctype html><div id="root"></div>');
  if (asset) {
    await fs.mkdir(path.join(dist, 'assets'));
    await fs.writeFile(path.join(dist, 'assets', 'index-abc123.js'), 'console.log(1)');
  }
  const log = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _enc, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    }),
  );
  const accounts = createAccountsModule(testDb().db, {
    settings: { ...loadConfig({}), embedded: false },
    log,
  });
  return buildApp(
    {
      webDistDir: dist,
      origins: testOrigins(loadConfig({})),
      accounts: { accounts: accounts.accounts, sessions: accounts.sessions },
      checkReady: async () => undefined,
    },
    { loggerInstance: log },
  );
}

describe('a GET with a body', () => {
  let app: FastifyInstance;
  const lines: Array<{ level: number; msg?: string; err?: unknown }> = [];

  beforeAll(async () => {
    app = await appWithLog(lines, true);
  });
  afterAll(async () => {
    await app.close();
  });

  const cases = [
    { url: '/', contentType: 'text/plain', payload: 'hello' },
    { url: '/about', contentType: 'application/json', payload: '{"a":1}' },
    { url: '/about', contentType: 'application/json', payload: '{not json' },
    { url: '/assets/index-abc123.js', contentType: 'application/octet-stream', payload: 'xyz' },
    { url: '/assets/index-abc123.js', contentType: 'application/x-www-form-urlencoded', payload: 'a=1' },
    { url: '/favicon.ico', contentType: 'text/plain', payload: 'x' },
    { url: '/api/whoami', contentType: 'application/json', payload: '{"a":1}' },
    { url: '/api/whoami', contentType: 'text/plain', payload: 'x' },
    { url: '/readyz', contentType: 'text/plain', payload: 'x' },
  ];
  /** Over a real socket (inject skips Node's HTTP parser and the socket's life). */
  function send(
    method: string,
    url: string,
    headers: Record<string, string>,
    payload: string,
    chunked: boolean,
  ) {
    const { port } = app.server.address() as AddressInfo;
    return new Promise<number>((resolve, reject) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port,
          method,
          path: url,
          headers: chunked
            ? { ...headers, 'transfer-encoding': 'chunked' }
            : { ...headers, 'content-length': String(Buffer.byteLength(payload)) },
        },
        (res) => {
          res.resume();
          res.on('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.on('error', reject);
      req.end(payload);
    });
  }

  for (const c of cases)
    it(`${c.url} with ${c.contentType}: no error logged, no 5xx`, async () => {
      lines.length = 0;
      if (!app.server.listening) await app.listen({ host: '127.0.0.1', port: 0 });
      for (const method of ['GET', 'HEAD'] as const) {
        const r = await app.inject({
          method,
          url: c.url,
          headers: { 'content-type': c.contentType },
          payload: c.payload,
        });
        expect(r.statusCode, `${method} ${r.body}`).toBeLessThan(500);
        for (const chunked of [false, true]) {
          const status = await send(method, c.url, { 'content-type': c.contentType }, c.payload, chunked);
          expect(status, `${method} chunked=${chunked}`).toBeLessThan(500);
        }
      }
      await new Promise((r) => setTimeout(r, 100));
      expect(lines.filter((l) => l.level >= 50)).toEqual([]);
    });

  /** Writes `text` on a new socket and resets the connection at once (TCP RST), as a fuzzer or a client gone. */
  function sendAndReset(text: string) {
    const { port } = app.server.address() as AddressInfo;
    return new Promise<void>((resolve) => {
      const socket = net.connect(port, '127.0.0.1', () => {
        socket.write(text, () => {
          socket.resetAndDestroy();
          resolve();
        });
      });
      socket.on('error', () => resolve());
    });
  }

  // Once, a GET or TRACE with a body, its client gone (reset) before its hooks ran, had no address: the
  // per-address limits' key threw (`addressKey`: a TypeError), written as an error-level "unhandled error".
  it('a GET, HEAD, TRACE or POST with a body whose client resets the connection: no error logged', async () => {
    if (!app.server.listening) await app.listen({ host: '127.0.0.1', port: 0 });
    lines.length = 0;
    for (const method of ['GET', 'HEAD', 'TRACE', 'POST'])
      for (const url of ['/', '/about', '/assets/index-abc123.js', '/api/whoami', '/api/login'])
        for (const contentType of ['text/plain', 'application/json']) {
          const body =
            contentType === 'application/json'
              ? '{"provider":"local","email":"a@b.c","password":"x"}'
              : 'hello';
          await sendAndReset(
            `${method} ${url} HTTP/1.1\r\nHost: localhost\r\nContent-Type: ${contentType}\r\n` +
              `Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`,
          );
        }
    await new Promise((r) => setTimeout(r, 500));
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });
});

describe('a malformed percent escape in the address', () => {
  let app: FastifyInstance;
  const lines: Array<{ level: number; msg?: string }> = [];

  beforeAll(async () => {
    app = await appWithLog(lines, false);
    await app.listen({ host: '127.0.0.1', port: 0 });
  });
  afterAll(async () => {
    await app.close();
  });

  /** A raw request line on a socket: Node's HTTP client would refuse or re-encode these targets. */
  function raw(target: string) {
    const { port } = app.server.address() as AddressInfo;
    return new Promise<{ status: number; body: string; head: string }>((resolve, reject) => {
      const socket = net.connect(port, '127.0.0.1', () =>
        socket.write(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`),
      );
      let text = '';
      socket.setEncoding('latin1');
      socket.on('data', (d: string) => (text += d));
      socket.on('error', reject);
      socket.on('close', () => {
        const end = text.indexOf('\r\n\r\n');
        resolve({
          status: Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0),
          head: text.slice(0, end),
          body: text.slice(end + 4),
        });
      });
    });
  }

  it('in the path, answers 400 in the app’s envelope, never a 500, on every kind of route', async () => {
    lines.length = 0;
    for (const target of ['/%zz', '/about%zz', '/api/whoami%zz', '/api/%E0%A4', '/assets/%zz.js', '/%']) {
      const res = await raw(target);
      expect(res.status, `${target}: ${res.body}`).toBe(400);
      const body = JSON.parse(res.body) as { error: { code: string; message: string }; requestId: string };
      expect(body.error.message, target).toMatch(/malformed percent escape/);
      expect(body.requestId, target).toBeTruthy();
    }
    for (const target of ['/api/whoami?x=%zz', '/about?%', '/?a=%E0%A4']) {
      const res = await raw(target);
      expect(res.status, `${target}: ${res.body}`).toBeLessThan(500);
    }
    expect(lines.filter((l) => l.level >= 50)).toEqual([]);
  });
});
