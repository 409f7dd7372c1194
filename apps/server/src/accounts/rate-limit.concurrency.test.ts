// The sign-in, sign-up and mail limits under simultaneous requests: the check and the count are one atomic
// step in PostgreSQL, so no burst slips past a limit, from one process or from several.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUTH_TEXTS } from '@pacebeat/contract';
import { createAuthAttemptRepository } from './auth-attempt.repository.ts';
import { buildTestApp, uniqueEmail, uniqueIp } from '../../test/accounts-app.ts';
import { testDb } from '../../test/db.ts';
import { statementsOf } from '../../test/statements.ts';

type TestApp = Awaited<ReturnType<typeof buildTestApp>>;
const PASSWORD = 'run4fun!';

const rndHex = () => Math.floor(Math.random() * 0xfffe + 1).toString(16);

const tally = (codes: number[]) =>
  codes.reduce<Record<number, number>>((m, c) => ({ ...m, [c]: (m[c] ?? 0) + 1 }), {});

describe('rate limits under concurrency', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp({
      env: {
        LOGIN_MAX_FAILURES_PER_ACCOUNT: '10',
        LOGIN_MAX_FAILURES_PER_ADDRESS: '1000',
        SIGNUP_MAX_PER_ADDRESS: '20',
        CONNECT_MAX_PER_ADDRESS: '12',
      },
    });
  });
  afterAll(() => t.close());

  const signUp = (email: string, ip: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/signup',
      remoteAddress: ip,
      payload: { email, name: 'Runner', password: PASSWORD },
    });

  it('60 simultaneous wrong passwords on one account: 10 answers 401, the rest 429', async () => {
    const email = uniqueEmail();
    expect((await signUp(email, uniqueIp())).statusCode).toBe(200);
    const ip = uniqueIp();
    const replies = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/login',
          remoteAddress: ip,
          payload: { provider: 'local', email, password: `wrong-${i}-x` },
        }),
      ),
    );
    expect(tally(replies.map((r) => r.statusCode))).toEqual({ 401: 10, 429: 50 });
  });

  it('the real password hidden among 80 simultaneous guesses does not sign in once the limit is reached', async () => {
    const email = uniqueEmail();
    expect((await signUp(email, uniqueIp())).statusCode).toBe(200);
    const ip = uniqueIp();
    const replies = await Promise.all(
      Array.from({ length: 80 }, (_, i) =>
        t.app.inject({
          method: 'POST',
          url: '/api/login',
          remoteAddress: ip,
          payload: { provider: 'local', email, password: i === 70 ? PASSWORD : `guess-${i}-x` },
        }),
      ),
    );
    const codes = replies.map((r) => r.statusCode);
    // At most 10 attempts were checked at all; the rest were refused before their password was looked at.
    expect(codes.filter((c) => c !== 429).length).toBeLessThanOrEqual(10);
    expect(codes.filter((c) => c === 200).length).toBeLessThanOrEqual(1);
  });

  it('40 simultaneous sign-ups from one address: exactly 20 accounts', async () => {
    const ip = uniqueIp();
    const replies = await Promise.all(Array.from({ length: 40 }, () => signUp(uniqueEmail(), ip)));
    expect(tally(replies.map((r) => r.statusCode))).toEqual({ 200: 20, 429: 20 });
  });

  it('40 simultaneous reset mails from one address: exactly 20 pass', async () => {
    const ip = uniqueIp();
    const replies = await Promise.all(
      Array.from({ length: 40 }, () =>
        t.app.inject({
          method: 'POST',
          url: '/api/password_reset',
          remoteAddress: ip,
          payload: { email: uniqueEmail() },
        }),
      ),
    );
    expect(tally(replies.map((r) => r.statusCode))).toEqual({ 200: 20, 429: 20 });
  });

  it('120 reset mails to one recipient from 6 addresses: MAIL_MAX_PER_RECIPIENT pass, known account or not', async () => {
    const known = uniqueEmail();
    expect((await signUp(known, uniqueIp())).statusCode).toBe(200);
    for (const email of [known, uniqueEmail()]) {
      const ips = Array.from({ length: 6 }, uniqueIp);
      const replies = await Promise.all(
        Array.from({ length: 120 }, (_, i) =>
          t.app.inject({
            method: 'POST',
            url: '/api/password_reset',
            remoteAddress: ips[i % 6],
            payload: { email: i % 2 ? email : email.toUpperCase() },
          }),
        ),
      );
      expect(tally(replies.map((r) => r.statusCode))).toEqual({ 200: 5, 429: 115 });
      // The same refusal whether or not the account exists.
      expect(replies.find((r) => r.statusCode === 429)!.json()).toMatchObject({
        error_name: 'TooManyAttempts',
        error: { message: AUTH_TEXTS.tooManyMails },
      });
    }
  });

  it('sign-ups from 40 IPv6 addresses of one /64 share one limit: exactly 20 accounts', async () => {
    const net = `2001:db8:${rndHex()}:${rndHex()}`;
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        signUp(uniqueEmail(), `${net}:${rndHex()}::${(i + 1).toString(16)}`),
      ),
    );
    expect(tally(replies.map((r) => r.statusCode))).toEqual({ 200: 20, 429: 20 });
    // Another /64 has its own count; an IPv4-mapped address counts as the IPv4 address.
    expect((await signUp(uniqueEmail(), `2001:db8:${rndHex()}:${rndHex()}::1`)).statusCode).toBe(200);
    const v4 = uniqueIp();
    await Promise.all(Array.from({ length: 20 }, () => signUp(uniqueEmail(), v4)));
    expect((await signUp(uniqueEmail(), `::ffff:${v4}`)).statusCode).toBe(429);
  });

  it('40 simultaneous Spotify connects of many accounts from one address: CONNECT_MAX_PER_ADDRESS pass', async () => {
    const ip = uniqueIp();
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, () => t.mod.limits.takeConnect(crypto.randomUUID(), ip)),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(12);
    const refused = results.filter((r): r is PromiseRejectedResult => r.status === 'rejected');
    expect(refused.map((r) => (r.reason as { statusCode: number }).statusCode)).toEqual(
      Array<number>(28).fill(429),
    );
  });

  it('holds across processes: two connection pools racing on one key record exactly the limit', async () => {
    const a = testDb();
    const b = testDb();
    try {
      const repos = [createAuthAttemptRepository(a.db), createAuthAttemptRepository(b.db)];
      const key = `ip:${uniqueIp()}`;
      const since = new Date(Date.now() - 60_000);
      const results = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          repos[i % 2]!.reserve('mail', [{ key, max: 7 }], since, { failedOnly: false, failed: false }),
        ),
      );
      expect(results.filter((r) => r !== null)).toHaveLength(7);
    } finally {
      await a.close();
      await b.close();
    }
  });

  it('a reservation is one statement: its locks are not held while the process takes each answer', async () => {
    const h = testDb();
    try {
      const repo = createAuthAttemptRepository(h.db);
      const [ip, account] = [`ip:${uniqueIp()}`, `account:${uniqueEmail()}`];
      const since = new Date(Date.now() - 60_000);
      const limits = [
        { key: ip, max: 2 },
        { key: account, max: 5 },
      ];
      const opts = { failedOnly: true, failed: true };
      await h.pool.query('select 1'); // the pool's first connection, opened outside the count
      let first: number[] | null = null;
      const seen = await statementsOf(async () => {
        first = await repo.reserve('login', limits, since, opts);
      });
      expect(seen).toHaveLength(1); // before: begin, a lock per key, the count, the insert, commit
      expect(first).toHaveLength(2); // one attempt recorded for each key, their ids answered
      expect(await repo.reserve('login', limits, since, opts)).toHaveLength(2);
      expect(await repo.reserve('login', limits, since, opts)).toBeNull(); // the address's 2 reached
      // Attempts taken back (a sign-in that turned out right) no longer count.
      await repo.release(first!);
      expect(await repo.reserve('login', limits, since, opts)).toHaveLength(2);
    } finally {
      await h.close();
    }
  });
});
