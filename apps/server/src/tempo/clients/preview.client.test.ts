import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createServiceCaller, type Pacer } from './outside.ts';
import { createPreviewClient, hostAllowed } from './preview.client.ts';

// A real HTTP server standing in for the CDN: one route per way a preview download can go.
let server: http.Server;
let base: string;
const requests: string[] = [];
beforeAll(async () => {
  server = http.createServer((req, res) => {
    requests.push(req.url ?? '');
    if (req.url === '/ok.mp3') return res.end(Buffer.alloc(1000, 7));
    if (req.url === '/gone.mp3') return res.writeHead(404).end();
    if (req.url === '/huge-declared.mp3') {
      res.writeHead(200, { 'content-length': String(5 * 1024 * 1024) });
      return res.end(Buffer.alloc(16));
    }
    if (req.url === '/huge-chunked.mp3') {
      // No Content-Length: 5 MiB in chunks; the client must stop reading past 4 MiB.
      res.writeHead(200, { 'transfer-encoding': 'chunked' });
      for (let i = 0; i < 80; i++) res.write(Buffer.alloc(64 * 1024, 1));
      return res.end();
    }
    res.writeHead(500).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => new Promise<void>((r) => server.close(() => r())));

const pacer: Pacer = {
  takeSlot: async () => ({ ok: true }),
  setCooldown: async () => {},
};
const client = (allowedHosts: string[]) =>
  createPreviewClient({
    http: createServiceCaller({
      service: 'deezer-preview',
      pacer,
      ratePerSecond: 1000,
      timeoutMs: 5000,
      sleep: async () => {},
    }),
    allowedHosts,
  });

describe('preview downloads', () => {
  it('matches allowed hosts and their subdomains only', () => {
    expect(hostAllowed('cdnt-preview.dzcdn.net', ['dzcdn.net'])).toBe(true);
    expect(hostAllowed('dzcdn.net', ['dzcdn.net'])).toBe(true);
    expect(hostAllowed('evildzcdn.net', ['dzcdn.net'])).toBe(false);
    expect(hostAllowed('dzcdn.net.evil.org', ['dzcdn.net'])).toBe(false);
  });

  it('downloads from an allowed host', async () => {
    const r = await client(['127.0.0.1']).download(`${base}/ok.mp3`);
    expect(r).toMatchObject({ kind: 'ok' });
    expect(r.kind === 'ok' && r.value.byteLength).toBe(1000);
  });

  it('refuses a URL on any other host without sending a request', async () => {
    const before = requests.length;
    const r = await client(['dzcdn.net']).download(`${base}/ok.mp3`);
    expect(r).toEqual({
      kind: 'not-found',
      reason: 'preview: host 127.0.0.1 is not an allowed preview host',
    });
    expect(await client(['127.0.0.1']).download('file:///etc/passwd')).toMatchObject({ kind: 'not-found' });
    expect(await client(['127.0.0.1']).download('not a url')).toMatchObject({ kind: 'not-found' });
    expect(requests.length).toBe(before);
  });

  it('answers a missing preview as not found', async () => {
    expect(await client(['127.0.0.1']).download(`${base}/gone.mp3`)).toEqual({
      kind: 'not-found',
      reason: 'preview: HTTP 404',
    });
  });

  it.each(['/huge-declared.mp3', '/huge-chunked.mp3'])(
    'refuses a body over 4 MiB (%s) instead of buffering it',
    async (path) => {
      const r = await client(['127.0.0.1']).download(`${base}${path}`);
      expect(r.kind).toBe('failed');
      expect(r.kind === 'failed' && r.reason).toMatch(/larger than 4194304 bytes/);
    },
  );
});
