// Two app instances on one database, each with its own pool, change feed and caches (two processes): what
// ends a session or changes a user in one is seen at once in the other, and a lost LISTEN connection makes
// the caches step aside until it is back.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { inject } from 'vitest';
import pg from 'pg';
import { buildTestApp, sessionCookie, uniqueEmail, uniqueIp } from '../../test/accounts-app.ts';
import { hashSecret } from '../accounts/session.service.ts';
import { startChangeFeed, type ChangeFeed } from './change-feed.ts';

/** Deletes a session with triggers off, so no notification tells anyone (superuser only: not the app's role). */
async function deleteWithTriggersOff(sessionId: string): Promise<void> {
  const c = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await c.connect();
  try {
    await c.query('begin');
    await c.query(`set local session_replication_role = replica`);
    await c.query('delete from sessions where id = $1', [sessionId]);
    await c.query('commit');
  } finally {
    await c.end();
  }
}

type TestApp = Awaited<ReturnType<typeof buildTestApp>>;

async function until(cond: () => boolean | Promise<boolean>, what: string, ms = 10_000) {
  const end = Date.now() + ms;
  while (!(await cond())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

async function instance(name: string) {
  const changes = startChangeFeed({
    url: inject('databaseUrl'),
    log: pino({ level: 'silent' }),
    applicationName: name,
    reconnectMs: 200,
  });
  await until(() => changes.live, `${name} listening`);
  // A max age of 10 minutes (5 s in the product): "B serves from its cache" holds however busy the machine
  // (at a load average of 15, 5 s passed between two requests), and what reaches the caches below reaches
  // them through NOTIFY, never by the copy growing old.
  const t = await buildTestApp({ changes, sessionCacheMaxAgeMs: 600_000 });
  return { t, changes, name };
}

const whoami = async (t: TestApp, cookie: string) => {
  const res = await t.app.inject({ url: '/api/whoami', headers: { cookie } });
  return res.json<{ data: { authenticated: boolean; user: { name: string } | null } }>().data;
};

async function signUp(t: TestApp) {
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/signup',
    remoteAddress: uniqueIp(),
    payload: { email: uniqueEmail(), name: 'Runner', password: 'run4fun!' },
  });
  expect(res.statusCode, res.body).toBe(200);
  return sessionCookie(res);
}

const secretOf = (cookie: string) => cookie.split('=')[1]!;

/**
 * A logs out: A answers once its own copy of the delete's NOTIFY came back; PostgreSQL sent B its copy at
 * the same commit. Both "processes" share this test's event loop, so the test lets B receive its copy (as
 * B's own process does while the reply travels to the browser) instead of racing B's socket.
 */
async function logOutInA(a: TestApp, b: ChangeFeed, cookie: string) {
  const delivered = b.echo(`session:${hashSecret(secretOf(cookie))}`, 5000);
  const out = await a.app.inject({ method: 'POST', url: '/api/logout', headers: { cookie } });
  expect(out.statusCode).toBe(200);
  await delivered;
}

describe('session cache across processes (LISTEN/NOTIFY)', () => {
  let a: Awaited<ReturnType<typeof instance>>;
  let b: Awaited<ReturnType<typeof instance>>;
  const sql = (text: string, params: unknown[] = []) => a.t.handle.pool.query(text, params);
  beforeAll(async () => {
    a = await instance(`pacebeat-listen-a-${randomUUID()}`);
    b = await instance(`pacebeat-listen-b-${randomUUID()}`);
  });
  afterAll(async () => {
    for (const x of [a, b]) {
      await x?.t.close();
      await x?.changes.close();
    }
  });

  it('B really serves a session from its cache: a delete no trigger reports stays unseen (the max-age case)', async () => {
    // B stores what it read only if no change of any row arrived while it read (live-cache.ts). Other test
    // files run beside this one on the same database and send changes all the time, so one attempt may find
    // nothing stored: up to 5 attempts, each with a new session. If B never served from its cache, all fail.
    const servedFromCache: boolean[] = [];
    for (let attempt = 0; attempt < 5 && !servedFromCache.includes(true); attempt++) {
      const cookie = await signUp(a.t);
      expect((await whoami(b.t, cookie)).authenticated).toBe(true);
      // Deleted with triggers off (as if the notification were lost): B may serve it up to the max age.
      await deleteWithTriggersOff(hashSecret(secretOf(cookie)));
      servedFromCache.push((await whoami(b.t, cookie)).authenticated);
      // A never cached it: it reads the row and refuses.
      expect((await whoami(a.t, cookie)).authenticated).toBe(false);
    }
    expect(servedFromCache).toContain(true);
  });

  it('a logout in A is refused at once in B, which had the session cached', async () => {
    const cookie = await signUp(a.t);
    expect((await whoami(b.t, cookie)).authenticated).toBe(true);
    expect((await whoami(b.t, cookie)).authenticated).toBe(true);
    await logOutInA(a.t, b.changes, cookie);
    expect((await whoami(b.t, cookie)).authenticated).toBe(false);
    expect((await whoami(a.t, cookie)).authenticated).toBe(false);
  });

  it('a session or user changed outside the app (SQL, password reset, deletion) reaches both caches', async () => {
    const cookie = await signUp(a.t);
    const me = await a.t.handle.pool.query<{ user_id: string }>(
      'select user_id from sessions where id = $1',
      [hashSecret(secretOf(cookie))],
    );
    const userId = me.rows[0]!.user_id;
    expect((await whoami(a.t, cookie)).user?.name).toBe('Runner');
    expect((await whoami(b.t, cookie)).user?.name).toBe('Runner');
    const seen = [a.changes.echo(`user:${userId}`), b.changes.echo(`user:${userId}`)];
    await sql('update users set name = $1 where id = $2', ['Renamed', userId]);
    await Promise.all(seen);
    expect((await whoami(a.t, cookie)).user?.name).toBe('Renamed');
    expect((await whoami(b.t, cookie)).user?.name).toBe('Renamed');
    // Every session of the user ends (as a password reset does); the account deletion cascades the same way.
    const tag = `session:${hashSecret(secretOf(cookie))}`;
    const ended = [a.changes.echo(tag), b.changes.echo(tag)];
    await sql('delete from users where id = $1', [userId]);
    await Promise.all(ended);
    expect((await whoami(b.t, cookie)).authenticated).toBe(false);
    expect((await whoami(a.t, cookie)).authenticated).toBe(false);
  });

  it('when B loses its LISTEN connection it stops serving from its cache until it listens again', async () => {
    const cookie = await signUp(a.t);
    expect((await whoami(b.t, cookie)).authenticated).toBe(true);
    await sql('select pg_terminate_backend(pid) from pg_stat_activity where application_name = $1', [b.name]);
    await until(() => !b.changes.live, 'B to notice the loss');
    // Ended while B cannot hear it (triggers off: no notification at all): B reads the row, so refuses.
    await deleteWithTriggersOff(hashSecret(secretOf(cookie)));
    expect((await whoami(b.t, cookie)).authenticated).toBe(false);
    await until(() => b.changes.live, 'B to listen again');
    const again = await signUp(a.t);
    expect((await whoami(b.t, again)).authenticated).toBe(true);
    await logOutInA(a.t, b.changes, again);
    expect((await whoami(b.t, again)).authenticated).toBe(false);
  });
});
