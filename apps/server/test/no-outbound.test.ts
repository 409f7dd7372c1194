import { describe, expect, it } from 'vitest';

describe('tests reach only this machine', () => {
  it('refuses a connection to another host before any packet leaves', async () => {
    await expect(fetch('http://api.deezer.com/track/3135556')).rejects.toThrow();
    const err = await fetch('https://api.spotify.com/v1/me').catch((e: Error) => e);
    expect(String((err as Error).cause)).toMatch(/tests may only reach this machine/);
  });

  it('lets loopback through', async () => {
    const http = await import('node:http');
    const server = http.createServer((_req, res) => res.end('here'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as { port: number };
    expect(await (await fetch(`http://127.0.0.1:${port}/`)).text()).toBe('here');
    server.close();
  });
});
