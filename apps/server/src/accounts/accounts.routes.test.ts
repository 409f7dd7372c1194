import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_TEXTS, ErrorReply, FIELD_TEXTS, LoginDataReply, WhoamiReply } from '@pacebeat/contract';
import {
  buildTestApp,
  markEmailVerified,
  sessionCookie,
  uniqueEmail,
  uniqueIp,
} from '../../test/accounts-app.ts';

type TestApp = Awaited<ReturnType<typeof buildTestApp>>;
const PASSWORD = 'run4fun!';

async function signUp(t: TestApp, email = uniqueEmail(), ip = uniqueIp()) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/signup',
    remoteAddress: ip,
    payload: { email, name: 'Runner', password: PASSWORD },
  });
  expect(res.statusCode, res.body).toBe(200);
  return { email, cookie: sessionCookie(res), res };
}

const login = (t: TestApp, payload: object, opts: { ip?: string; cookie?: string; headers?: object } = {}) =>
  t.app.inject({
    method: 'POST',
    url: '/api/login',
    remoteAddress: opts.ip ?? uniqueIp(),
    headers: { ...(opts.cookie ? { cookie: opts.cookie } : {}), ...opts.headers },
    payload,
  });

const whoami = async (t: TestApp, cookie?: string, query = '') => {
  const res = await t.app.inject({ url: `/api/whoami${query}`, headers: cookie ? { cookie } : {} });
  return { status: res.statusCode, body: res.json() as unknown, res };
};

describe('accounts routes (local provider, no SMTP)', () => {
  let t: TestApp;
  const logLines: Record<string, unknown>[] = [];
  const admin = uniqueEmail();
  beforeAll(async () => {
    t = await buildTestApp({
      logLines,
      env: {
        ADMIN_EMAILS: admin,
        LOGIN_MAX_FAILURES_PER_ACCOUNT: '3',
        LOGIN_MAX_FAILURES_PER_ACCOUNT_ALL_ADDRESSES: '8',
        LOGIN_MAX_FAILURES_PER_ADDRESS: '5',
        SIGNUP_MAX_PER_ADDRESS: '3',
      },
    });
  });
  afterAll(() => t.close());

  it('login_data answers the local provider and no firebase config', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login_data',
      payload: { kinds: ['firebase', 'local'] },
    });
    expect(res.statusCode).toBe(200);
    const body = LoginDataReply.parse(res.json());
    expect(body.data.firebase).toBeUndefined();
    expect(body.data.local?.data.email_verification).toBe(false);
  });

  it('signs up, sets an HttpOnly SameSite=Lax session cookie, and whoami and ping answer for the user', async () => {
    const { email, cookie, res } = await signUp(t);
    expect(res.json()).toEqual({ data: { signed_in: true } });
    const setCookie = String(res.headers['set-cookie']);
    expect(setCookie).toMatch(/HttpOnly/);
    expect(setCookie).toMatch(/SameSite=Lax/);
    expect(setCookie).not.toMatch(/Secure/);
    const me = await whoami(t, cookie);
    const data = WhoamiReply.parse(me.body).data;
    expect(data).toMatchObject({ authenticated: true, sudo: null, services: {}, disabled_services: [] });
    expect(data.user?.email).toBe(email);
    expect(data.user?.is_admin).toBe(false);
    const ping = await t.app.inject({ url: '/api/ping', headers: { cookie } });
    expect(ping.statusCode).toBe(200);
    expect(ping.json()).toEqual({ message: `pong, ${email}` });
  });

  it('answers whoami for a visitor as not authenticated, and ping with 401', async () => {
    const me = await whoami(t);
    expect(me.status).toBe(200);
    expect(WhoamiReply.parse(me.body).data.authenticated).toBe(false);
    expect((await t.app.inject('/api/ping')).statusCode).toBe(401);
  });

  it('stores only a hash of the session secret', async () => {
    const { cookie } = await signUp(t);
    const secret = cookie.split('=')[1]!;
    const rows = await t.handle.pool.query('select id from sessions where id = $1', [secret]);
    expect(rows.rowCount).toBe(0);
  });

  it('logs in with the password, and rotates the session at login', async () => {
    const { email, cookie: first } = await signUp(t);
    const res = await login(
      t,
      { provider: 'local', email: email.toUpperCase(), password: PASSWORD },
      { cookie: first },
    );
    expect(res.statusCode, res.body).toBe(200);
    const second = sessionCookie(res);
    expect(second).not.toBe(first);
    expect(WhoamiReply.parse((await whoami(t, second)).body).data.authenticated).toBe(true);
    expect(WhoamiReply.parse((await whoami(t, first)).body).data.authenticated).toBe(false);
  });

  it('answers the widget texts for a wrong password, an unknown email, a used email and a weak password', async () => {
    const { email } = await signUp(t);
    const wrong = await login(t, { provider: 'local', email, password: 'nope12' });
    expect(wrong.statusCode).toBe(401);
    expect(ErrorReply.parse(wrong.json())).toMatchObject({
      error_name: 'WrongPassword',
      error: { message: AUTH_TEXTS.wrongPassword },
    });
    const unknown = await login(t, { provider: 'local', email: uniqueEmail(), password: PASSWORD });
    expect(unknown.statusCode).toBe(401);
    expect(ErrorReply.parse(unknown.json()).error.message).toBe(AUTH_TEXTS.userNotFound);
    const again = await t.app.inject({
      method: 'POST',
      url: '/api/signup',
      remoteAddress: uniqueIp(),
      payload: { email, name: 'Other', password: PASSWORD },
    });
    expect(again.statusCode).toBe(409);
    expect(ErrorReply.parse(again.json()).error.message).toBe(AUTH_TEXTS.emailInUse);
    const weak = await t.app.inject({
      method: 'POST',
      url: '/api/signup',
      remoteAddress: uniqueIp(),
      payload: { email: uniqueEmail(), name: 'Weak', password: 'abcdef' },
    });
    expect(weak.statusCode).toBe(400);
    expect(ErrorReply.parse(weak.json()).error.message).toBe(AUTH_TEXTS.weakPassword);
  });

  it('answers 400 with a message, never 500, for malformed or missing fields', async () => {
    const cases: [string, object | string][] = [
      ['/api/login', { provider: 'local', email: 'not-an-email', password: 'x' }],
      ['/api/login', { provider: 'local', email: '', password: 'x' }],
      ['/api/login', { provider: 'local', email: uniqueEmail() }],
      ['/api/login', { provider: 'nope', token: 'x' }],
      ['/api/login', {}],
      ['/api/login', '{not json'],
      ['/api/signup', { email: uniqueEmail(), password: PASSWORD, name: '' }],
      ['/api/login_data', { kinds: ['other'] }],
      ['/api/verify_email', {}],
      ['/api/password_reset/confirm', { code: 'x' }],
    ];
    for (const [url, payload] of cases) {
      const res = await t.app.inject({
        method: 'POST',
        url,
        headers: { 'content-type': 'application/json' },
        payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
      });
      expect(res.statusCode, `${url} ${JSON.stringify(payload)}`).toBe(400);
      expect(ErrorReply.parse(res.json()).error.message.length).toBeGreaterThan(0);
    }
    const malformed = await login(t, { provider: 'local', email: 'a@b', password: 'x' });
    expect(ErrorReply.parse(malformed.json()).error.message).toContain(AUTH_TEXTS.emailInvalid);
    const empty = await login(t, { provider: 'local', email: '', password: 'x' });
    expect(ErrorReply.parse(empty.json()).error.message).toContain(AUTH_TEXTS.emailMissing);
    const noName = await t.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { email: uniqueEmail(), password: PASSWORD, name: ' ' },
    });
    expect(ErrorReply.parse(noName.json()).error.message).toContain(AUTH_TEXTS.nameMissing);
  });

  it('keeps the usual email limits: 64 characters before the @, 254 in all (a 312-character one was accepted)', async () => {
    const signup = (email: string) =>
      t.app.inject({ method: 'POST', url: '/api/signup', payload: { email, password: PASSWORD, name: 'R' } });
    for (const email of [
      `${'a'.repeat(300)}@example.org`, // 312 characters
      `${'a'.repeat(65)}@example.org`, // 65 before the @
      `${'a'.repeat(60)}@${'b'.repeat(190)}.org`, // 255 in all
    ]) {
      const res = await signup(email);
      expect(res.statusCode, email).toBe(400);
      expect(ErrorReply.parse(res.json()).error.message).toContain(FIELD_TEXTS.emailTooLong);
    }
    const longest = `${'a'.repeat(64)}@${'b'.repeat(185)}.org`; // 64 before the @, 254 in all
    expect(longest).toHaveLength(254);
    expect((await signup(longest)).statusCode).toBe(200);
    const longName = await t.app.inject({
      method: 'POST',
      url: '/api/signup',
      payload: { email: uniqueEmail(), password: PASSWORD, name: 'n'.repeat(201) },
    });
    expect(ErrorReply.parse(longName.json()).error.message).toContain(FIELD_TEXTS.nameTooLong);
  });

  it('refuses an oversized body with 413', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ provider: 'local', email: uniqueEmail(), password: 'p'.repeat(100_000) }),
    });
    expect(res.statusCode).toBe(413);
    ErrorReply.parse(res.json());
  });

  it('ends the session at logout: the old cookie no longer signs in', async () => {
    const { cookie } = await signUp(t);
    const out = await t.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } });
    expect(out.statusCode).toBe(200);
    expect(String(out.headers['set-cookie'])).toMatch(/pacebeat_session=;/);
    expect(WhoamiReply.parse((await whoami(t, cookie)).body).data.authenticated).toBe(false);
    expect((await t.app.inject({ url: '/api/ping', headers: { cookie } })).statusCode).toBe(401);
  });

  it("logout by GET only from the app itself: an old browser's cross-site GET (no fetch metadata) is refused", async () => {
    const { cookie } = await signUp(t);
    const bare = await t.app.inject({ url: '/api/logout', headers: { cookie } });
    expect(bare.statusCode).toBe(403);
    expect(WhoamiReply.parse((await whoami(t, cookie)).body).data.authenticated).toBe(true);
    const own = await t.app.inject({
      url: '/api/logout',
      headers: { cookie, 'sec-fetch-site': 'same-origin' },
    });
    expect(own.statusCode).toBe(200);
    expect(WhoamiReply.parse((await whoami(t, cookie)).body).data.authenticated).toBe(false);
  });

  it('does not accept an expired session', async () => {
    const { email } = await signUp(t);
    const user = await t.handle.pool.query<{ id: string }>('select id from users where email = $1', [email]);
    const { createSessionService } = await import('../accounts/session.service.ts');
    const past = createSessionService({
      sessions: t.mod.sessionRows,
      idleHours: 1,
      absoluteHours: 2,
      now: () => new Date(Date.now() - 3 * 3_600_000),
    });
    const secret = await past.start(user.rows[0]!.id, null);
    const me = await whoami(t, `pacebeat_session=${secret}`);
    expect(WhoamiReply.parse(me.body).data.authenticated).toBe(false);
  });

  it('refuses cross-origin state-changing requests (CSRF) with 403, and accepts same-origin ones', async () => {
    const { email } = await signUp(t);
    const body = { provider: 'local', email, password: PASSWORD };
    const evil = await login(t, body, { headers: { origin: 'https://evil.example' } });
    expect(evil.statusCode).toBe(403);
    expect(ErrorReply.parse(evil.json()).error_name).toBe('CrossOriginRefused');
    const site = await login(t, body, { headers: { 'sec-fetch-site': 'cross-site' } });
    expect(site.statusCode).toBe(403);
    const logout = await t.app.inject({ url: '/api/logout', headers: { 'sec-fetch-site': 'cross-site' } });
    expect(logout.statusCode).toBe(403);
    const same = await login(t, body, {
      headers: { origin: 'http://localhost', 'sec-fetch-site': 'same-origin' },
    });
    expect(same.statusCode, same.body).toBe(200);
  });

  it('sudo: a non-admin gets 403; an admin (from ADMIN_EMAILS) sees the other user, and the request is logged', async () => {
    const { email: target, cookie: userCookie } = await signUp(t);
    const non = await whoami(t, userCookie, `?sudo=${encodeURIComponent(admin)}`);
    expect(non.status).toBe(403);
    expect(ErrorReply.parse(non.body).error_name).toBe('SudoForbidden');
    const visitor = await whoami(t, undefined, `?sudo=${encodeURIComponent(target)}`);
    expect(visitor.status).toBe(401);

    const { cookie: adminCookie } = await signUp(t, admin);
    // ADMIN_EMAILS names it, but without mail nothing is verified: no admin yet.
    expect(WhoamiReply.parse((await whoami(t, adminCookie)).body).data.user?.is_admin).toBe(false);
    await markEmailVerified(admin);
    const adminMe = WhoamiReply.parse((await whoami(t, adminCookie)).body).data;
    expect(adminMe.user?.is_admin).toBe(true);
    const as = await whoami(t, adminCookie, `?sudo=${encodeURIComponent(target)}`);
    expect(as.status).toBe(200);
    const data = WhoamiReply.parse(as.body).data;
    expect(data.user?.email).toBe(target);
    expect(data.sudo).toBe(target);
    const byId = await whoami(t, adminCookie, `?sudo=${data.user!.id}`);
    expect(WhoamiReply.parse(byId.body).data.user?.email).toBe(target);
    const logged = logLines.find((l) => l.msg === 'sudo request' && l.sudoUserId === data.user!.id);
    expect(logged?.adminId).toBe(adminMe.user!.id);
    const ping = await t.app.inject({
      url: `/api/ping?sudo=${encodeURIComponent(target)}`,
      headers: { cookie: adminCookie },
    });
    expect(ping.json()).toEqual({ message: `pong, ${target}` });
    const missing = await whoami(t, adminCookie, `?sudo=${encodeURIComponent(uniqueEmail())}`);
    expect(missing.status).toBe(404);
  });

  it('rate-limits failed sign-ins per account and address with the widget text, even with the right password', async () => {
    const { email } = await signUp(t);
    const ip = uniqueIp();
    for (let i = 0; i < 3; i++) {
      expect((await login(t, { provider: 'local', email, password: `wrong${i}x` }, { ip })).statusCode).toBe(
        401,
      );
    }
    const limited = await login(t, { provider: 'local', email, password: PASSWORD }, { ip });
    expect(limited.statusCode).toBe(429);
    expect(ErrorReply.parse(limited.json())).toMatchObject({
      error_name: 'TooManyAttempts',
      error: { message: AUTH_TEXTS.tooManyLogins },
    });
    // The owner on their own address is not locked out by someone guessing from another one.
    expect((await login(t, { provider: 'local', email, password: PASSWORD })).statusCode).toBe(200);
  });

  it('caps failed sign-ins of one account from all addresses together', async () => {
    const { email } = await signUp(t);
    for (let i = 0; i < 8; i++) {
      expect((await login(t, { provider: 'local', email, password: `wrong${i}x` })).statusCode).toBe(401);
    }
    expect((await login(t, { provider: 'local', email, password: PASSWORD })).statusCode).toBe(429);
  });

  it('guesses from many addresses lock the account everywhere until the owner resets the password', async () => {
    const { email } = await signUp(t);
    // ALL_ADDRESSES is 8 here, the per-pair limit 3: three addresses reach the ceiling.
    for (let i = 0; i < 8; i++) {
      const res = await login(t, { provider: 'local', email, password: `guess${i}x` }, { ip: uniqueIp() });
      expect(res.statusCode).toBe(401);
    }
    const owner = uniqueIp();
    expect((await login(t, { provider: 'local', email, password: PASSWORD }, { ip: owner })).statusCode).toBe(
      429,
    );
    await t.app.inject({
      method: 'POST',
      url: '/api/password_reset',
      remoteAddress: owner,
      payload: { email },
    });
    await t.mod.accounts.settled();
    const link = logLines.findLast((l) => l.to === email && String(l.link).includes('resetPassword'));
    const code = new URL(String(link!.link)).searchParams.get('code')!;
    const reset = await t.app.inject({
      method: 'POST',
      url: '/api/password_reset/confirm',
      payload: { code, password: 'newpace42' },
    });
    expect(reset.statusCode, reset.body).toBe(200);
    expect(
      (await login(t, { provider: 'local', email, password: 'newpace42' }, { ip: owner })).statusCode,
    ).toBe(200);
  });

  it('rate-limits failed sign-ins per address, and sign-ups per address', async () => {
    const ip = uniqueIp();
    for (let i = 0; i < 5; i++) {
      expect(
        (await login(t, { provider: 'local', email: uniqueEmail(), password: 'x1' }, { ip })).statusCode,
      ).toBe(401);
    }
    expect(
      (await login(t, { provider: 'local', email: uniqueEmail(), password: 'x1' }, { ip })).statusCode,
    ).toBe(429);

    const signupIp = uniqueIp();
    for (let i = 0; i < 3; i++) await signUp(t, uniqueEmail(), signupIp);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/signup',
      remoteAddress: signupIp,
      payload: { email: uniqueEmail(), name: 'R', password: PASSWORD },
    });
    expect(res.statusCode).toBe(429);
    expect(ErrorReply.parse(res.json()).error.message).toBe(AUTH_TEXTS.tooManySignups);
  });

  it('writes the verification and reset links to the log without SMTP, and both links work', async () => {
    const { email } = await signUp(t);
    const verifyLine = logLines.find(
      (l) => l.to === email && typeof l.link === 'string' && String(l.link).includes('verifyEmail'),
    );
    const verifyCode = new URL(String(verifyLine!.link)).searchParams.get('code')!;
    const v = await t.app.inject({ method: 'POST', url: '/api/verify_email', payload: { code: verifyCode } });
    expect(v.statusCode, v.body).toBe(200);
    const reused = await t.app.inject({
      method: 'POST',
      url: '/api/verify_email',
      payload: { code: verifyCode },
    });
    expect(reused.statusCode).toBe(400);
    expect(ErrorReply.parse(reused.json()).error.message).toBe(AUTH_TEXTS.invalidActionCode);

    const r = await t.app.inject({
      method: 'POST',
      url: '/api/password_reset',
      remoteAddress: uniqueIp(),
      payload: { email },
    });
    expect(r.statusCode).toBe(200);
    await t.mod.accounts.settled(); // the mail goes out after the answer
    const resetLine = logLines.find((l) => l.to === email && String(l.link).includes('resetPassword'));
    const resetCode = new URL(String(resetLine!.link)).searchParams.get('code')!;
    const c = await t.app.inject({
      method: 'POST',
      url: '/api/password_reset/confirm',
      payload: { code: resetCode, password: 'newpass42' },
    });
    expect(c.statusCode, c.body).toBe(200);
    expect((await login(t, { provider: 'local', email, password: PASSWORD })).statusCode).toBe(401);
    expect((await login(t, { provider: 'local', email, password: 'newpass42' })).statusCode).toBe(200);
  });
});

describe('behind a TLS proxy (TRUST_PROXY)', () => {
  it('believes X-Forwarded-Proto and -For from a trusted proxy: Secure cookies, limits per real client', async () => {
    const t = await buildTestApp({
      env: { TRUST_PROXY: '127.0.0.1', SIGNUP_MAX_PER_ADDRESS: '1' },
      trustProxy: true,
    });
    try {
      const signup = (client: string) =>
        t.app.inject({
          method: 'POST',
          url: '/api/signup',
          remoteAddress: '127.0.0.1',
          headers: { host: 'localhost', 'x-forwarded-proto': 'https', 'x-forwarded-for': client },
          payload: { email: uniqueEmail(), name: 'R', password: PASSWORD },
        });
      const first = await signup('198.51.100.1');
      expect(first.statusCode, first.body).toBe(200);
      expect(String(first.headers['set-cookie'])).toMatch(/Secure/);
      expect((await signup('198.51.100.2')).statusCode).toBe(200); // another client behind the same proxy
      expect((await signup('198.51.100.1')).statusCode).toBe(429);
    } finally {
      await t.close();
    }
  });
});

describe('session cookie over HTTPS', () => {
  it('is Secure when PUBLIC_URL is https, and then only that origin may post', async () => {
    // Sign-up on a public address is by invitation by default: open here, for the cookie.
    const t = await buildTestApp({ env: { PUBLIC_URL: 'https://pace.example.org', SIGNUP_MODE: 'open' } });
    try {
      const payload = { email: uniqueEmail(), name: 'R', password: PASSWORD };
      const other = await t.app.inject({
        method: 'POST',
        url: '/api/signup',
        headers: { host: 'pace.example.org', origin: 'http://localhost' },
        payload,
      });
      expect(other.statusCode).toBe(403);
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/signup',
        headers: { host: 'pace.example.org', origin: 'https://pace.example.org' },
        payload,
      });
      expect(res.statusCode).toBe(200);
      expect(String(res.headers['set-cookie'])).toMatch(/Secure/);
    } finally {
      await t.close();
    }
  });
});
