import { describe, expect, it } from 'vitest';
import { authorizeUrl, challengeOf, clearPending, randomVerifier, readPending, savePending } from './pkce.ts';

describe('PKCE', () => {
  it('makes 64-character verifiers over letters and digits, different each time', () => {
    const seen = new Set<string>();
    for (let i = 0; i < 50; i++) {
      const v = randomVerifier();
      expect(v).toMatch(/^[A-Za-z0-9]{64}$/);
      seen.add(v);
    }
    expect(seen.size).toBe(50);
  });

  it('uses every letter and digit', () => {
    const chars = new Set(Array.from({ length: 100 }, () => randomVerifier()).join(''));
    expect(chars.size).toBe(62);
  });

  it('computes the S256 challenge as URL-safe base64 without padding (RFC 7636 appendix B)', async () => {
    expect(await challengeOf('dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk')).toBe(
      'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM',
    );
  });

  it('builds the authorize URL with every parameter of spec §7', () => {
    const url = new URL(
      authorizeUrl('https://accounts.example/authorize', {
        client_id: 'cid',
        scopes: ['a', 'b'],
        challenge: 'ch',
        redirect_uri: 'http://127.0.0.1:8080/connect/spotify',
        state: 'st',
      }),
    );
    expect(Object.fromEntries(url.searchParams)).toEqual({
      response_type: 'code',
      client_id: 'cid',
      scope: 'a b',
      code_challenge_method: 'S256',
      code_challenge: 'ch',
      redirect_uri: 'http://127.0.0.1:8080/connect/spotify',
      state: 'st',
    });
  });

  it('keeps the pending authorization until it is cleared', () => {
    const p = { verifier: 'v', client_id: 'c', state: 's', token_url: 't', redirect_uri: 'r' };
    savePending(p);
    expect(readPending()).toEqual(p);
    clearPending();
    expect(readPending()).toBeNull();
  });
});
