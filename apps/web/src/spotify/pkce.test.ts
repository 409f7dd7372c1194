import { describe, expect, it } from 'vitest';
import {
  authorizeUrl,
  challengeOf,
  clearPending,
  exchangeCode,
  randomVerifier,
  readPending,
  savePending,
} from './pkce.ts';

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

  describe('the token exchange', () => {
    const pending = {
      verifier: 'v'.repeat(64),
      client_id: 'client',
      state: 's',
      token_url: 'http://127.0.0.1:8080/demo/spotify/accounts/api/token',
      redirect_uri: 'http://127.0.0.1:8080/connect/spotify',
    };
    const json = (status: number, body: unknown) =>
      new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
    const answers = (...seq: Array<Response | Error>) => {
      const calls: string[] = [];
      const fetchImpl = (async (_url: RequestInfo | URL, init?: RequestInit) => {
        calls.push(String(init?.body));
        const next = seq.shift()!;
        if (next instanceof Error) throw next;
        return next;
      }) as typeof fetch;
      return { calls, fetchImpl };
    };

    it('tries a transient failure once more (no answer, 5xx), with the same code', async () => {
      for (const first of [new TypeError('Failed to fetch'), json(502, { error: 'bad gateway' })]) {
        const { calls, fetchImpl } = answers(first, json(200, { access_token: 'a' }));
        await expect(exchangeCode(pending, 'the-code', fetchImpl, 0)).resolves.toEqual({ access_token: 'a' });
        expect(calls).toHaveLength(2);
        expect(calls[1]).toBe(calls[0]);
        expect(calls[0]).toContain('code=the-code');
      }
    });

    it('does not try a refusal again, nor a second transient failure', async () => {
      const refused = answers(json(400, { error: 'invalid_grant' }));
      await expect(exchangeCode(pending, 'c', refused.fetchImpl, 0)).rejects.toThrow('answered 400');
      expect(refused.calls).toHaveLength(1);
      const twice = answers(json(503, {}), json(503, {}), json(200, {}));
      await expect(exchangeCode(pending, 'c', twice.fetchImpl, 0)).rejects.toThrow('answered 503');
      expect(twice.calls).toHaveLength(2);
    });
  });
});
