// Faults after the change was applied: a write lands, then its answer fails (5xx, a reset, or an
// answer that comes after the client gave up), as on the real Spotify. Every such request is logged.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../index.ts';
import { spotifyClient } from '../test-support.ts';
import { transientFaultMix, type FaultRule } from './faults.ts';

describe('faults after the change was applied', () => {
  let sb: Sandbox;
  let token: string;
  beforeAll(async () => {
    sb = await startSandbox({ size: 'tiny', seed: 5, rateLimit: false, dailyQuota: false });
  });
  afterAll(() => sb.close());
  beforeEach(() => {
    sb.admin.reset();
    token = sb.admin.connect({ userId: 'ana.runs' }).access_token;
  });

  const api = () => spotifyClient(sb, token);
  const newPlaylist = () => sb.admin.createPlaylist('ana.runs', { name: 'Target', trackIds: [] }).id;
  const uri = (g: number) => `spotify:track:${sb.world.trackId(g)}`;
  const ownedNames = () => sb.admin.user('ana.runs').playlists.map((p) => p.name);
  /** A fetch that gives up after `ms`, as a client with a time limit does. */
  const withTimeout = (method: string, path: string, json: unknown, ms: number) =>
    fetch(`${sb.baseUrls.spotifyApi}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify(json),
      signal: AbortSignal.timeout(ms),
    });
  const lastLogged = () => sb.admin.requests({ service: 'spotify-api' }).at(-1);
  const waitFor = async (ok: () => boolean) => {
    for (let i = 0; i < 100 && !ok(); i++) await new Promise((r) => setTimeout(r, 20));
  };

  it('applies an add, a removal and a playlist creation, then answers 500, 502 or 503', async () => {
    const id = newPlaylist();
    const rule = (status: number, method: string, path: string): FaultRule => ({
      kind: 'status',
      status,
      method,
      path,
      afterApply: true,
      times: 1,
    });
    sb.admin.setFaults([rule(500, 'POST', '/items')]);
    const add = await api()('POST', `/playlists/${id}/items`, { uris: [uri(3), uri(4)] });
    expect(add.status).toBe(500);
    expect(add.body).toEqual({ error: { status: 500, message: 'Server error.' } });
    expect(sb.admin.playlistItems(id)).toEqual([sb.world.trackId(3), sb.world.trackId(4)]);
    expect(lastLogged()).toMatchObject({ method: 'POST', status: 500, fault: 'status 500 after apply' });

    sb.admin.setFaults([rule(502, 'DELETE', '/items')]);
    const del = await api()('DELETE', `/playlists/${id}/items`, { items: [{ uri: uri(3) }] });
    expect(del.status).toBe(502);
    expect(sb.admin.playlistItems(id)).toEqual([sb.world.trackId(4)]);

    sb.admin.setFaults([rule(503, 'POST', '/me/playlists')]);
    const created = await api()('POST', '/me/playlists', { name: 'Pacebeat 170-180', public: false });
    expect(created.status).toBe(503);
    expect(ownedNames()).toContain('Pacebeat 170-180');
  });

  it('applies a write, then resets the connection without an answer, and logs it', async () => {
    const id = newPlaylist();
    sb.admin.setFaults([{ kind: 'reset', method: 'POST', path: '/items', afterApply: true, times: 1 }]);
    await expect(api()('POST', `/playlists/${id}/items`, { uris: [uri(7)] })).rejects.toThrow();
    expect(sb.admin.playlistItems(id)).toEqual([sb.world.trackId(7)]);
    await waitFor(() => lastLogged()?.fault === 'reset after apply');
    expect(lastLogged()).toMatchObject({ method: 'POST', status: 0, fault: 'reset after apply' });
  });

  it('applies a write and answers after the client gave up; the request is logged, not lost', async () => {
    const id = newPlaylist();
    sb.admin.setFaults([
      { kind: 'slow', delayMs: 600, method: 'POST', path: '/items', afterApply: true, times: 1 },
    ]);
    await expect(withTimeout('POST', `/playlists/${id}/items`, { uris: [uri(9)] }, 200)).rejects.toThrow();
    expect(sb.admin.playlistItems(id)).toEqual([sb.world.trackId(9)]);
    await waitFor(() => lastLogged()?.fault === 'slow after apply');
    expect(lastLogged()).toMatchObject({ status: 201, fault: 'slow after apply', clientGone: true });
  });

  it('a slow answer the client gave up on before it was handled changes nothing, and is logged', async () => {
    const id = newPlaylist();
    sb.admin.setFaults([{ kind: 'slow', delayMs: 500, method: 'POST', path: '/items', times: 1 }]);
    await expect(withTimeout('POST', `/playlists/${id}/items`, { uris: [uri(9)] }, 150)).rejects.toThrow();
    await waitFor(() => lastLogged()?.fault === 'slow');
    await new Promise((r) => setTimeout(r, 500));
    expect(sb.admin.playlistItems(id)).toEqual([]);
    expect(lastLogged()).toMatchObject({ method: 'POST', status: 0, fault: 'slow', clientGone: true });
  });

  it('the transient fault mix fails writes after applying them, for adds, removals and creation', async () => {
    const mix = transientFaultMix(1, 300);
    for (const method of ['POST', 'PUT', 'DELETE'])
      expect(
        mix
          .filter((r) => r.afterApply && r.method === method)
          .map((r) => r.kind)
          .sort(),
      ).toEqual(['reset', 'slow', 'status', 'status']);
    // At 25 times the usual share, some of 40 adds fail after landing.
    sb.admin.setFaults(transientFaultMix(25, 300).filter((r) => r.afterApply));
    const id = newPlaylist();
    let failed = 0;
    for (let k = 0; k < 40; k++) {
      const res = await withTimeout('POST', `/playlists/${id}/items`, { uris: [uri(k)] }, 150).catch(
        () => undefined,
      );
      if (!res || res.status >= 500) failed++;
    }
    expect(failed).toBeGreaterThan(3);
    await new Promise((r) => setTimeout(r, 400));
    expect(sb.admin.playlistItems(id)).toHaveLength(40);
  });
});
