import { describe, expect, it } from 'vitest';
import { contentSecurityPolicy } from './csp.ts';

describe('the Content-Security-Policy', () => {
  it("frames Spotify's embed player only with a real Spotify, and nothing else from it", () => {
    const real = contentSecurityPolicy({ spotifyAccountsUrl: 'https://accounts.spotify.com' });
    expect(real).toContain('frame-src https://open.spotify.com;');
    expect(real).toContain("script-src 'self';");
    expect(real).toContain("frame-ancestors 'none'");
    const demo = contentSecurityPolicy({ spotifyAccountsUrl: 'http://127.0.0.1:8090/accounts' });
    expect(demo).toContain("frame-src 'none'");
  });
});
