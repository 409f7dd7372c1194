// An attacker timing the answers learns nothing the texts do not already say: a sign-up for a taken
// address and a wrong login for an unknown one do the same argon2 work as their other outcome.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type * as Passwords from './passwords.ts';

const work = vi.hoisted(() => ({ hashes: 0, verifies: 0 }));
vi.mock('./passwords.ts', async (importOriginal) => {
  const real = await importOriginal<typeof Passwords>();
  return {
    ...real,
    hashPassword: (p: string) => {
      work.hashes++;
      return real.hashPassword(p);
    },
    verifyPassword: (h: string, p: string) => {
      work.verifies++;
      return real.verifyPassword(h, p);
    },
  };
});

const { buildTestApp, uniqueEmail, uniqueIp } = await import('../../test/accounts-app.ts');
type TestApp = Awaited<ReturnType<typeof buildTestApp>>;

describe('equal work whatever the account', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await buildTestApp();
  });
  afterAll(() => t.close());

  /** The argon2 hashes and verifies one request cost, and its status. */
  async function cost(url: string, payload: object) {
    const before = { ...work };
    const res = await t.app.inject({ method: 'POST', url, remoteAddress: uniqueIp(), payload });
    return {
      status: res.statusCode,
      hashes: work.hashes - before.hashes,
      verifies: work.verifies - before.verifies,
    };
  }

  it('sign-up: a taken address costs the same hash as a new account', async () => {
    const email = uniqueEmail();
    const created = await cost('/api/signup', { email, name: 'R', password: 'run4fun!' });
    const taken = await cost('/api/signup', { email, name: 'R', password: 'run4fun!' });
    expect(created).toMatchObject({ status: 200, hashes: 1 });
    expect(taken).toMatchObject({ status: 409, hashes: 1 });
  });

  it('login: an unknown account costs the same verify as a wrong password', async () => {
    const email = uniqueEmail();
    await cost('/api/signup', { email, name: 'R', password: 'run4fun!' });
    const wrong = await cost('/api/login', { provider: 'local', email, password: 'wrong1x' });
    const unknown = await cost('/api/login', {
      provider: 'local',
      email: uniqueEmail(),
      password: 'wrong1x',
    });
    expect(wrong).toMatchObject({ status: 401, verifies: 1, hashes: 0 });
    expect(unknown).toMatchObject({ status: 401, verifies: 1, hashes: 0 });
  });

  it('password reset: the answer waits neither for the lookup nor for the mail, known account or not', async () => {
    const email = uniqueEmail();
    await cost('/api/signup', { email, name: 'R', password: 'run4fun!' });
    const codes = t.mod.codes;
    const create = codes.create.bind(codes);
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const stored: string[] = [];
    codes.create = async (row) => {
      await gate; // storing the code (and so the mail after it) hangs until released
      stored.push(row.purpose);
      return create(row);
    };
    try {
      const answer = (address: string) =>
        Promise.race([
          t.app.inject({
            method: 'POST',
            url: '/api/password_reset',
            remoteAddress: uniqueIp(),
            payload: { email: address },
          }),
          new Promise<'waited'>((r) => setTimeout(() => r('waited'), 2000)),
        ]);
      const known = await answer(email);
      const unknown = await answer(uniqueEmail());
      expect(known === 'waited' ? known : known.statusCode).toBe(200);
      expect(unknown === 'waited' ? unknown : unknown.statusCode).toBe(200);
      expect(stored).toEqual([]);
      release();
      await t.mod.accounts.settled();
      expect(stored).toEqual(['reset_password']); // the known account's mail went out after the answer
    } finally {
      codes.create = create;
      release();
    }
  });
});
