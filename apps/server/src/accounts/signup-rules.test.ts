// A first admin on every installation (whatever the database), ADMIN_EMAILS only for verified
// addresses, the admin CLI, and who may sign up (open, invite, closed). Each describe has a database of its
// own: the first admin and the sign-up mode are facts of one installation.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  AdminSignupReply,
  ErrorReply,
  InvitationCreatedReply,
  LoginDataReply,
  SIGNUP_TEXTS,
  WhoamiReply,
} from '@pacebeat/contract';
import {
  buildTestApp,
  markEmailVerified,
  sessionCookie,
  uniqueEmail,
  uniqueIp,
} from '../../test/accounts-app.ts';
import { freshTestDb } from '../../test/db.ts';
import type { FirebaseVerifier } from './firebase.ts';
import { runAdminCommand } from './admin-command.ts';

type TestApp = Awaited<ReturnType<typeof buildTestApp>>;
type Fresh = Awaited<ReturnType<typeof freshTestDb>>;
const PASSWORD = 'run4fun!';
const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

/** What Compose gives the server: an external PostgreSQL (DATABASE_URL), so `embedded` is false. */
const COMPOSE_ENV = {
  HOST: '0.0.0.0',
  PUBLIC_URL: 'http://127.0.0.1:8080',
  ALLOWED_ORIGINS: 'http://localhost:8080',
};
/** compose.caddy.yaml's: a public HTTPS address. */
const CADDY_ENV = { HOST: '0.0.0.0', PUBLIC_URL: 'https://pace.example.org', TRUST_PROXY: '1' };

/** Requests as a browser at `origin` sends them (the app answers only there). */
function client(t: TestApp, origin = 'http://localhost') {
  const host = new URL(origin).host;
  const headers = (cookie?: string) => ({ host, origin, ...(cookie ? { cookie } : {}) });
  return {
    signUp: (email: string, invitation?: string) =>
      t.app.inject({
        method: 'POST',
        url: '/api/signup',
        remoteAddress: uniqueIp(),
        headers: headers(),
        payload: { email, name: 'Runner', password: PASSWORD, ...(invitation ? { invitation } : {}) },
      }),
    loginData: async (invitation?: string) => {
      const res = await t.app.inject({
        method: 'POST',
        url: '/api/login_data',
        headers: headers(),
        payload: { kinds: ['local'], ...(invitation ? { invitation } : {}) },
      });
      expect(res.statusCode, res.body).toBe(200);
      return LoginDataReply.parse(res.json()).data.signup!;
    },
    whoami: async (cookie: string) =>
      WhoamiReply.parse((await t.app.inject({ url: '/api/whoami', headers: headers(cookie) })).json()).data,
    call: (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, cookie?: string, payload?: object) =>
      t.app.inject({ method, url, headers: headers(cookie), ...(payload === undefined ? {} : { payload }) }),
  };
}

const adminsIn = async (f: Fresh) =>
  (
    await f.handle.pool.query<{ email: string }>('select email from users where is_admin order by email')
  ).rows.map((r) => r.email);
const errorName = (res: { json(): unknown }) => ErrorReply.parse(res.json()).error_name;
const tokenOf = (link: string) => new URL(link).searchParams.get('invite')!;

describe('the first admin on the Compose shape (DATABASE_URL, embedded=false, at 127.0.0.1)', () => {
  let f: Fresh;
  let t: TestApp;
  beforeAll(async () => {
    f = await freshTestDb();
    t = await buildTestApp({ db: f.handle, embedded: false, env: { ...COMPOSE_ENV, DATABASE_URL: f.url } });
  });
  afterAll(async () => {
    await t?.close();
    await f?.drop();
  });

  it('makes exactly one of 8 concurrent first sign-ups the admin (checked in the database); the rest are runners', async () => {
    const c = client(t, 'http://127.0.0.1:8080');
    expect(await c.loginData()).toMatchObject({ mode: 'open', allowed: true });
    const emails = Array.from({ length: 8 }, (_, i) => `first-${i}@example.org`);
    const replies = await Promise.all(emails.map((e) => c.signUp(e)));
    expect(replies.map((r) => r.statusCode)).toEqual(emails.map(() => 200));
    const admins = await adminsIn(f);
    expect(admins).toHaveLength(1);
    const flags = await Promise.all(
      replies.map(async (r) => (await c.whoami(sessionCookie(r))).user?.is_admin),
    );
    expect(flags.filter(Boolean)).toHaveLength(1);
    // A later sign-up is no admin either.
    const late = await c.signUp('late@example.org');
    expect((await c.whoami(sessionCookie(late))).user?.is_admin).toBe(false);
    expect(await adminsIn(f)).toEqual(admins);
  });
});

describe('the first admin at a public address (compose.caddy.yaml): the setup link printed in the log', () => {
  let f: Fresh;
  let t: TestApp;
  const origin = 'https://pace.example.org';
  beforeAll(async () => {
    f = await freshTestDb();
    t = await buildTestApp({ db: f.handle, env: { ...CADDY_ENV, DATABASE_URL: f.url } });
  });
  afterAll(async () => {
    await t?.close();
    await f?.drop();
  });

  it('refuses a stranger who signs up first (sign-up is by invitation); only the setup link makes the admin, once', async () => {
    const c = client(t, origin);
    const state = await c.loginData();
    expect(state).toMatchObject({ mode: 'invite', allowed: false });
    const stranger = await c.signUp('stranger@example.org');
    expect(stranger.statusCode).toBe(403);
    expect(errorName(stranger)).toBe('InvitationRequired');
    expect(ErrorReply.parse(stranger.json()).error.message).toBe(SIGNUP_TEXTS.inviteOnly);

    const { setupLink } = await t.mod.accounts.announceFirstAdmin(origin);
    expect(setupLink).toMatch(/^https:\/\/pace\.example\.org\/login\?invite=[A-Za-z0-9_-]{43}$/);
    const token = tokenOf(setupLink!);
    expect((await c.loginData(token)).invitation).toMatchObject({ valid: true, makes_admin: true });
    // Two sign-ups with the link at once: one admin, the other refused.
    const [a, b] = await Promise.all([
      c.signUp('owner@example.org', token),
      c.signUp('racer@example.org', token),
    ]);
    expect([a.statusCode, b.statusCode].sort()).toEqual([200, 403]);
    expect(await adminsIn(f)).toHaveLength(1);
    const loser = a.statusCode === 403 ? a : b;
    expect(errorName(loser)).toBe('InvitationInvalid');
    // Spent: the link says so, and a restart prints none (there is an admin).
    expect((await c.loginData(token)).invitation).toMatchObject({ valid: false, makes_admin: false });
    expect((await c.signUp('third@example.org', token)).statusCode).toBe(403);
    expect((await t.mod.accounts.announceFirstAdmin(origin)).setupLink).toBeNull();
  });

  it('with SIGNUP_MODE=open, the first account at a public address is a runner, not the admin', async () => {
    const g = await freshTestDb();
    const open = await buildTestApp({ db: g.handle, env: { ...CADDY_ENV, SIGNUP_MODE: 'open' } });
    try {
      const res = await client(open, origin).signUp('early@example.org');
      expect(res.statusCode).toBe(200);
      expect(await adminsIn(g)).toEqual([]);
    } finally {
      await open.close();
      await g.drop();
    }
  });
});

describe('ADMIN_EMAILS counts only for a verified address', () => {
  let t: TestApp;
  const listed = uniqueEmail();
  const lines: Record<string, unknown>[] = [];
  beforeAll(async () => {
    // The shared database, which has an admin already: the listed address is not the first account.
    t = await buildTestApp({ env: { ADMIN_EMAILS: listed }, logLines: lines });
  });
  afterAll(() => t.close());

  it('without mail, signing up with a listed address grants nothing; a verified one is an admin', async () => {
    const c = client(t);
    const res = await c.signUp(listed);
    expect(res.statusCode).toBe(200);
    const cookie = sessionCookie(res);
    expect((await c.whoami(cookie)).user?.is_admin).toBe(false);
    expect((await c.call('GET', '/api/admin/signup', cookie)).statusCode).toBe(403);
    await markEmailVerified(listed);
    expect((await c.whoami(cookie)).user?.is_admin).toBe(true);
  });

  it('says in the log at start to use the CLI, since without SMTP_URL nothing is verified', async () => {
    await t.mod.accounts.announceFirstAdmin('http://localhost');
    expect(lines.some((l) => String(l.msg).includes('npm run admin -- grant EMAIL') && l.level === 40)).toBe(
      true,
    );
  });
});

describe('a verified ADMIN_EMAILS account is the admin of its installation', () => {
  it('so no later sign-up becomes the first admin, and no setup link is printed', async () => {
    const f = await freshTestDb();
    const listed = 'owner@example.org';
    const t = await buildTestApp({ db: f.handle, env: { ADMIN_EMAILS: listed } });
    try {
      const c = client(t);
      // A verified account with the listed address (as after its mailed link), without the admin flag.
      await f.handle.pool.query(
        `insert into users (email, name, email_verified_at) values ($1, 'Owner', now())`,
        [listed],
      );
      const next = await c.signUp(uniqueEmail());
      expect(next.statusCode).toBe(200);
      expect((await c.whoami(sessionCookie(next))).user?.is_admin).toBe(false);
      expect((await t.mod.accounts.announceFirstAdmin('http://localhost')).setupLink).toBeNull();
    } finally {
      await t.close();
      await f.drop();
    }
  });
});

describe('npm run admin (grant, revoke, list)', () => {
  let f: Fresh;
  let t: TestApp;
  beforeAll(async () => {
    f = await freshTestDb();
    t = await buildTestApp({ db: f.handle, env: { ...CADDY_ENV, SIGNUP_MODE: 'open' } });
  });
  afterAll(async () => {
    await t?.close();
    await f?.drop();
  });

  it('grants and revokes admin by email, at once for a signed-in session', async () => {
    const c = client(t, 'https://pace.example.org');
    const email = uniqueEmail();
    const cookie = sessionCookie(await c.signUp(email));
    expect((await c.whoami(cookie)).user?.is_admin).toBe(false);
    const out: string[] = [];
    expect(await runAdminCommand(f.handle.db, ['grant', email.toUpperCase()], (l) => out.push(l))).toBe(0);
    expect(out.join('\n')).toContain(`${email} is an admin now`);
    expect((await c.whoami(cookie)).user?.is_admin).toBe(true);
    expect((await c.call('GET', '/api/admin/signup', cookie)).statusCode).toBe(200);
    out.length = 0;
    expect(await runAdminCommand(f.handle.db, ['list'], (l) => out.push(l))).toBe(0);
    expect(out).toContain(`  ${email}`);
    expect(await runAdminCommand(f.handle.db, ['revoke', email], (l) => out.push(l))).toBe(0);
    expect((await c.whoami(cookie)).user?.is_admin).toBe(false);
    expect(await runAdminCommand(f.handle.db, ['grant', 'nobody@example.org'], (l) => out.push(l))).toBe(1);
    expect(await runAdminCommand(f.handle.db, ['promote'], (l) => out.push(l))).toBe(2);
  });

  it('runs as the CLI does, against DATABASE_URL', async () => {
    const c = client(t, 'https://pace.example.org');
    const email = uniqueEmail();
    await c.signUp(email);
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['apps/server/src/app/admin-cli.ts', 'grant', email],
      { cwd: REPO, env: { ...process.env, DATABASE_URL: f.url, DATA_DIR: '/nonexistent' } },
    );
    expect(stdout).toContain(`${email} is an admin now`);
    expect(await adminsIn(f)).toContain(email);
  });
});

describe('who may sign up: open, by invitation, closed (the admin page and the sign-up API)', () => {
  let f: Fresh;
  let t: TestApp;
  let c: ReturnType<typeof client>;
  let adminCookie: string;
  beforeAll(async () => {
    f = await freshTestDb();
    // Demo mode at a loopback address: open by default, and the first account is the admin.
    t = await buildTestApp({ db: f.handle, demo: async () => true });
    c = client(t);
    const first = await c.signUp('owner@example.org');
    adminCookie = sessionCookie(first);
    expect((await c.whoami(adminCookie)).user?.is_admin).toBe(true);
  });
  afterAll(async () => {
    await t?.close();
    await f?.drop();
  });

  const setMode = async (mode: string) => {
    const res = await c.call('PUT', '/api/admin/signup', adminCookie, { mode });
    expect(res.statusCode, res.body).toBe(200);
    return AdminSignupReply.parse(res.json()).data;
  };
  const invite = async (email?: string) => {
    const res = await c.call('POST', '/api/admin/invitations', adminCookie, email ? { email } : {});
    expect(res.statusCode, res.body).toBe(200);
    return InvitationCreatedReply.parse(res.json()).data;
  };

  it('is admin-only: a visitor 401, a runner 403, bad input 400', async () => {
    expect((await c.call('GET', '/api/admin/signup')).statusCode).toBe(401);
    const runner = sessionCookie(await c.signUp(uniqueEmail()));
    expect((await c.call('GET', '/api/admin/signup', runner)).statusCode).toBe(403);
    expect((await c.call('PUT', '/api/admin/signup', runner, { mode: 'open' })).statusCode).toBe(403);
    expect((await c.call('POST', '/api/admin/invitations', runner, {})).statusCode).toBe(403);
    expect((await c.call('PUT', '/api/admin/signup', adminCookie, { mode: 'ajar' })).statusCode).toBe(400);
    expect((await c.call('POST', '/api/admin/invitations', adminCookie, { email: 'x' })).statusCode).toBe(
      400,
    );
    expect((await c.call('DELETE', '/api/admin/invitations/not-a-uuid', adminCookie)).statusCode).toBe(400);
    // Cross-site: refused before anything else.
    const csrf = await t.app.inject({
      method: 'PUT',
      url: '/api/admin/signup',
      headers: { cookie: adminCookie, origin: 'https://evil.example' },
      payload: { mode: 'open' },
    });
    expect(csrf.statusCode).toBe(403);
  });

  it('open (the default in demo mode at a loopback address): anyone signs up; the page shows the counts', async () => {
    const state = AdminSignupReply.parse((await c.call('GET', '/api/admin/signup', adminCookie)).json()).data;
    expect(state).toMatchObject({ mode: 'open', source: 'default', default_mode: 'open', demo: true });
    expect(state).toMatchObject({ admins: 1, connected_runners: 0, runner_limit: 5 });
    expect(state.accounts).toBeGreaterThanOrEqual(1);
    expect((await c.signUp(uniqueEmail())).statusCode).toBe(200);
  });

  it('invite: refused without an invitation; a link works once; a reused one is refused', async () => {
    expect(await setMode('invite')).toMatchObject({ mode: 'invite', source: 'database' });
    expect(await c.loginData()).toMatchObject({ mode: 'invite', allowed: false, invitation: null });
    const bare = await c.signUp(uniqueEmail());
    expect(bare.statusCode).toBe(403);
    expect(errorName(bare)).toBe('InvitationRequired');

    const made = await invite();
    expect(made.link).toMatch(/^http:\/\/localhost\/login\?invite=[A-Za-z0-9_-]{43}$/);
    expect(made.invitation).toMatchObject({ email: null, status: 'open', used_by: null });
    const token = tokenOf(made.link);
    expect((await c.loginData(token)).invitation).toMatchObject({
      valid: true,
      email: null,
      makes_admin: false,
    });
    const guest = uniqueEmail();
    const ok = await c.signUp(guest, token);
    expect(ok.statusCode, ok.body).toBe(200);
    expect((await c.whoami(sessionCookie(ok))).user?.is_admin).toBe(false);

    const reused = await c.signUp(uniqueEmail(), token);
    expect(reused.statusCode).toBe(403);
    expect(errorName(reused)).toBe('InvitationInvalid');
    expect(ErrorReply.parse(reused.json()).error.message).toBe(SIGNUP_TEXTS.invitationUsed);
    expect((await c.loginData(token)).invitation).toMatchObject({
      valid: false,
      problem: SIGNUP_TEXTS.invitationUsed,
    });
    const listed = AdminSignupReply.parse(
      (await c.call('GET', '/api/admin/signup', adminCookie)).json(),
    ).data;
    expect(listed.invitations.find((i) => i.id === made.invitation.id)).toMatchObject({
      status: 'used',
      used_by: guest,
    });
  });

  it('invite: two sign-ups with one link at once make one account', async () => {
    const token = tokenOf((await invite()).link);
    const replies = await Promise.all([0, 1, 2].map(() => c.signUp(uniqueEmail(), token)));
    expect(replies.map((r) => r.statusCode).sort()).toEqual([200, 403, 403]);
  });

  it('invite: an expired invitation is refused', async () => {
    const made = await invite();
    await f.handle.pool.query(
      `update invitations set expires_at = now() - interval '1 minute' where id = $1`,
      [made.invitation.id],
    );
    const res = await c.signUp(uniqueEmail(), tokenOf(made.link));
    expect(res.statusCode).toBe(403);
    expect(ErrorReply.parse(res.json()).error.message).toBe(SIGNUP_TEXTS.invitationExpired);
    expect((await c.loginData(tokenOf(made.link))).invitation?.problem).toBe(SIGNUP_TEXTS.invitationExpired);
  });

  it('invite: an invitation for one address refuses another, and takes that one', async () => {
    const invited = uniqueEmail();
    const made = await invite(invited);
    expect(made.invitation.email).toBe(invited);
    expect(made.mailed).toBe(false);
    const token = tokenOf(made.link);
    expect((await c.loginData(token)).invitation).toMatchObject({ valid: true, email: invited });
    const other = await c.signUp(uniqueEmail(), token);
    expect(other.statusCode).toBe(403);
    expect(ErrorReply.parse(other.json()).error.message).toBe(SIGNUP_TEXTS.invitationOtherEmail(invited));
    expect((await c.signUp(invited, token)).statusCode).toBe(200);
  });

  it('invite: a revoked invitation is refused; revoking twice answers 404', async () => {
    const made = await invite();
    expect(
      (await c.call('DELETE', `/api/admin/invitations/${made.invitation.id}`, adminCookie)).statusCode,
    ).toBe(200);
    expect(
      (await c.call('DELETE', `/api/admin/invitations/${made.invitation.id}`, adminCookie)).statusCode,
    ).toBe(404);
    const res = await c.signUp(uniqueEmail(), tokenOf(made.link));
    expect(res.statusCode).toBe(403);
    expect(ErrorReply.parse(res.json()).error.message).toBe(SIGNUP_TEXTS.invitationUnknown);
  });

  it('closed: every sign-up is refused, with an invitation too, and the sign-in page is told', async () => {
    const token = tokenOf((await invite()).link);
    expect(await setMode('closed')).toMatchObject({ mode: 'closed' });
    expect(await c.loginData()).toMatchObject({ mode: 'closed', allowed: false });
    expect((await c.loginData(token)).invitation).toMatchObject({
      valid: false,
      problem: SIGNUP_TEXTS.closed,
    });
    for (const res of [await c.signUp(uniqueEmail()), await c.signUp(uniqueEmail(), token)]) {
      expect(res.statusCode).toBe(403);
      expect(errorName(res)).toBe('SignupClosed');
      expect(ErrorReply.parse(res.json()).error.message).toBe(SIGNUP_TEXTS.closed);
    }
    // Signing in still works.
    const login = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress: uniqueIp(),
      payload: { provider: 'local', email: 'owner@example.org', password: PASSWORD },
    });
    expect(login.statusCode).toBe(200);
    await setMode('open');
    expect((await c.signUp(uniqueEmail())).statusCode).toBe(200);
  });

  it('SIGNUP_MODE wins over the page', async () => {
    const envApp = await buildTestApp({
      db: f.handle,
      demo: async () => true,
      env: { SIGNUP_MODE: 'closed' },
    });
    try {
      const e = client(envApp);
      const state = AdminSignupReply.parse(
        (await e.call('GET', '/api/admin/signup', adminCookie)).json(),
      ).data;
      expect(state).toMatchObject({ mode: 'closed', source: 'env' });
      expect((await e.signUp(uniqueEmail())).statusCode).toBe(403);
    } finally {
      await envApp.close();
    }
  });
});

describe('the default sign-up mode', () => {
  it('is invite with a real Spotify at a loopback address, and at a public address in demo mode', async () => {
    const f = await freshTestDb();
    try {
      const cases: { env: Record<string, string>; demo?: () => Promise<boolean> }[] = [
        { env: { SPOTIFY_CLIENT_ID: 'abcdef0123456789abcdef0123456789' } },
        { env: CADDY_ENV, demo: async () => true },
      ];
      for (const o of cases) {
        const t = await buildTestApp({ db: f.handle, ...o });
        const origin = o.env.PUBLIC_URL ?? 'http://localhost';
        expect(await client(t, origin).loginData()).toMatchObject({ mode: 'invite' });
        await t.close();
      }
    } finally {
      await f.drop();
    }
  });
});

describe('Firebase: a new identity follows the same rules', () => {
  it('needs the setup link at a public address without an admin, and is refused in closed mode', async () => {
    const f = await freshTestDb();
    const identities: Record<string, { uid: string; email: string }> = {};
    const firebase: FirebaseVerifier = {
      verifyIdToken: async (token) => ({ ...identities[token]!, emailVerified: true, name: 'Fi' }),
      close: async () => undefined,
    };
    const t = await buildTestApp({
      db: f.handle,
      firebase,
      env: {
        ...CADDY_ENV,
        FIREBASE_PROJECT_ID: 'demo-pacebeat',
        FIREBASE_WEB_CONFIG: '{"apiKey":"k","authDomain":"d","projectId":"demo-pacebeat"}',
      },
    });
    try {
      const c = client(t, 'https://pace.example.org');
      const login = (token: string, invitation?: string) =>
        c.call('POST', '/api/login', undefined, {
          provider: 'firebase',
          token,
          ...(invitation ? { invitation } : {}),
        });
      identities.a = { uid: 'uid-a', email: 'a@example.org' };
      identities.b = { uid: 'uid-b', email: 'b@example.org' };
      // Public address, no admin: only the setup link makes the first account.
      const refused = await login('a');
      expect(refused.statusCode).toBe(403);
      const { setupLink } = await t.mod.accounts.announceFirstAdmin('https://pace.example.org');
      expect((await login('a', tokenOf(setupLink!))).statusCode).toBe(200);
      expect(await adminsIn(f)).toEqual(['a@example.org']);
      await f.handle.pool.query(`insert into signup_settings (id, mode) values ('signup', 'closed')`);
      const closed = await login('b');
      expect(closed.statusCode).toBe(403);
      expect(errorName(closed)).toBe('SignupClosed');
      // An existing identity still signs in.
      expect((await login('a')).statusCode).toBe(200);
    } finally {
      await t.close();
      await f.drop();
    }
  });
});
