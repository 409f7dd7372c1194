import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy, cspInForce } from './csp.ts';

describe('the Content-Security-Policy', () => {
  it("frames Spotify's embed player only with a real Spotify, and nothing else from it", () => {
    const real = contentSecurityPolicy({ spotifyAccountsUrl: 'https://accounts.spotify.com' });
    expect(real).toContain('frame-src https://open.spotify.com;');
    expect(real).toContain("script-src 'self';");
    expect(real).toContain("frame-ancestors 'none'");
    const demo = contentSecurityPolicy({ spotifyAccountsUrl: 'http://127.0.0.1:8090/accounts' });
    expect(demo).toContain("frame-src 'none'");
  });

  it('follows the Spotify in force, answer by answer (leaving demo mode needs no restart), and keeps the last one when it cannot be read', async () => {
    // Demo mode: the browser reaches the simulated accounts service on the app's own origin ('self').
    let now: { accountsUrl: string; browserAccountsUrl?: string } | Error = {
      accountsUrl: 'http://127.0.0.1:8090/spotify/accounts',
      browserAccountsUrl: '/demo/spotify/accounts',
    };
    const csp = cspInForce(async () => {
      if (now instanceof Error) throw now;
      return now;
    });
    expect(await csp()).toContain("connect-src 'self';");
    expect(await csp()).toContain("frame-src 'none'");
    now = { accountsUrl: 'https://accounts.spotify.com' };
    const real = await csp();
    expect(real).toContain("connect-src 'self' https://accounts.spotify.com;");
    expect(real).toContain('frame-src https://open.spotify.com;');
    now = new Error('database down');
    expect(await csp()).toBe(real);
  });
});
