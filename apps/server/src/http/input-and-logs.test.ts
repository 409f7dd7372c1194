// Bad input answers 400 (never a database error), and logs hold neither query parameters nor mailed codes.
import { DrizzleQueryError } from 'drizzle-orm/errors';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpotifyTokenInfo } from '@pacebeat/contract';
import { buildTestApp, uniqueEmail, uniqueIp } from '../../test/accounts-app.ts';
import { redactUrl, serializeError } from '../log.ts';

type TestApp = Awaited<ReturnType<typeof buildTestApp>>;

describe('NUL and control characters in input', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  const post = (url: string, payload: object) =>
    t.app.inject({ method: 'POST', url, remoteAddress: uniqueIp(), payload });

  it('answers 400 to a NUL in login, sign-up, reset and ?sudo values', async () => {
    const nul = 'a\u0000b';
    const replies = [
      await post('/api/login', { provider: 'local', email: `x${nul}@example.org`, password: 'x1' }),
      await post('/api/login', { provider: 'local', email: uniqueEmail(), password: nul }),
      await post('/api/signup', { email: uniqueEmail(), name: nul, password: 'run4fun!' }),
      await post('/api/password_reset', { email: `r${nul}@example.org` }),
      await post('/api/verify_email', { code: nul }),
      await t.app.inject({ url: `/api/whoami?sudo=${encodeURIComponent(nul)}` }),
    ];
    for (const r of replies) {
      expect(r.statusCode, r.body).toBe(400);
      expect(r.json()).toMatchObject({ error_name: 'ValidationError' });
    }
  });

  it('refuses Spotify tokens with CR, LF, NUL or spaces (they would go into a header)', () => {
    const good = {
      access_token: 'BQD-abc_123',
      token_type: 'Bearer',
      scope: 'user-library-read',
      expires_in: 3600,
      refresh_token: 'AQ-xyz',
    };
    expect(SpotifyTokenInfo.safeParse(good).success).toBe(true);
    for (const bad of ['a\r\nX-Evil: 1', 'a\u0000', 'a b']) {
      expect(SpotifyTokenInfo.safeParse({ ...good, access_token: bad }).success).toBe(false);
      expect(SpotifyTokenInfo.safeParse({ ...good, refresh_token: bad }).success).toBe(false);
    }
  });
});

describe('logs', () => {
  it('log a failed query with its SQL but never its parameters, at any depth', () => {
    const hash = '$argon2id$v=19$m=19456,t=2,p=1$secret-salt$secret-hash';
    const failed = new DrizzleQueryError(
      'update "users" set "password_hash" = $1',
      [hash],
      new Error('boom'),
    );
    const wrapped = new Error('could not save', { cause: failed });
    for (const e of [failed, wrapped]) {
      const text = JSON.stringify(serializeError(e));
      expect(text).not.toContain('secret-hash');
      expect(text).toContain('update \\"users\\"');
    }
  });

  it('redact mailed codes and tokens from URLs', () => {
    expect(redactUrl('/login?mode=resetPassword&code=abc123')).toBe(
      '/login?mode=resetPassword&code=%5Bredacted%5D',
    );
    expect(redactUrl('/connect/spotify?code=xyz&state=1')).not.toContain('xyz');
    // An invitation link's secret: whoever reads the request log must not sign up with it.
    expect(redactUrl('/login?invite=AbC_dEf-123')).not.toContain('AbC_dEf-123');
    expect(redactUrl('/api/whoami?sudo=a%40b.org')).toBe('/api/whoami?sudo=a%40b.org');
  });

  it('write one line per request, with the code taken out of the URL', async () => {
    const lines: Record<string, unknown>[] = [];
    const t = await buildTestApp({ logLines: lines });
    try {
      const before = lines.length;
      await t.app.inject({ url: '/login?mode=resetPassword&code=s3cret-code' });
      const mine = lines.slice(before);
      expect(mine).toHaveLength(1);
      expect(mine[0]).toMatchObject({ msg: 'request', method: 'GET' });
      expect(JSON.stringify(mine)).not.toContain('s3cret-code');
    } finally {
      await t.close();
    }
  });
});
