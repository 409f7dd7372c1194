import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freshTestDb } from '../../test/db.ts';
import type { DbHandle } from '../db/client.ts';
import { createAccountsModule } from './accounts.module.ts';
import { loadConfig } from '../app/config.ts';

// Needs an empty users table, so it runs on its own fresh database in the shared test server.
describe('the first local account of an installation without an admin is the admin, embedded or not', () => {
  let db: Awaited<ReturnType<typeof freshTestDb>>;
  let fresh: DbHandle;
  beforeAll(async () => {
    db = await freshTestDb();
    fresh = db.handle;
  });
  afterAll(() => db.drop());

  it('makes only the first of several concurrent sign-ups an admin', async () => {
    const mod = createAccountsModule(fresh.db, {
      settings: { ...loadConfig({}), embedded: true },
      log: pino({ level: 'silent' }),
    });
    const results = await Promise.all(
      [0, 1, 2, 3].map((i) =>
        mod.accounts.signUp(
          { email: `r${i}@example.org`, name: `R${i}`, password: 'tempo170' },
          `10.0.0.${i + 1}`,
          'http://x',
        ),
      ),
    );
    expect(results.filter((r) => r.user.isAdmin)).toHaveLength(1);
    const second = createAccountsModule(fresh.db, {
      settings: { ...loadConfig({}), embedded: false },
      log: pino({ level: 'silent' }),
    });
    const { user } = await second.accounts.signUp(
      { email: 'late@example.org', name: 'L', password: 'tempo170' },
      '10.0.1.1',
      'http://x',
    );
    expect(user.isAdmin).toBe(false);
  });
});
