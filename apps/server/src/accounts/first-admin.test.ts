import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { testDb } from '../../test/db.ts';
import { createDb, type DbHandle } from '../db/client.ts';
import { DB_APP_USER } from '../db/embedded.ts';
import { runMigrations } from '../db/migrate.ts';
import { createAccountsModule } from './accounts.module.ts';
import { loadConfig } from '../config.ts';

// Needs an empty users table, so it runs on its own fresh database in the shared test server.
describe('the first local account of an installation without an admin is the admin, embedded or not', () => {
  let fresh: DbHandle;
  const name = `t_${randomUUID().replaceAll('-', '')}`;
  const admin = createDb(inject('adminDatabaseUrl'), { max: 1 });
  const app = testDb();
  beforeAll(async () => {
    await admin.pool.query(`create database ${name} owner ${DB_APP_USER}`);
    const url = new URL(app.pool.options.connectionString!);
    url.pathname = `/${name}`;
    fresh = createDb(url.toString(), { max: 4 });
    await runMigrations(fresh);
  });
  afterAll(async () => {
    await fresh.close();
    await admin.pool.query(`drop database ${name}`);
    await admin.close();
    await app.close();
  });

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
