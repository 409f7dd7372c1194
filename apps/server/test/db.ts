import { randomUUID } from 'node:crypto';
import { inject } from 'vitest';
import { createDb, type DbHandle } from '../src/db/client.ts';
import { DB_APP_USER } from '../src/db/embedded.ts';
import { runMigrations } from '../src/db/migrate.ts';

/**
 * A pool on the shared test database (started by global-setup.ts). Close it in afterAll. It waits up to a
 * minute for a connection, not the product's 15 s (POOL_WAIT_MS, which answers a page 503 quickly): on a slow
 * 2-core machine beside the browser tests a new connection took over 15 s, and two tempo tests failed with
 * "Connection terminated due to connection timeout" (CI, session 18) where nothing was wrong but the load.
 */
export function testDb(): DbHandle {
  return createDb(inject('databaseUrl'), { max: 4, waitMs: 60_000 });
}

/**
 * A new empty database on the shared test server, owned by the app's role (not migrated); answers its URL
 * (as DATABASE_URL). `prefix` names it, so a leftover says which test made it.
 */
export async function emptyTestDatabase(prefix = 't'): Promise<string> {
  const name = `${prefix}_${randomUUID().replaceAll('-', '')}`;
  const admin = createDb(inject('adminDatabaseUrl'), { max: 1 });
  try {
    await admin.pool.query(`create database ${name} owner ${DB_APP_USER}`);
  } finally {
    await admin.close();
  }
  const url = new URL(inject('databaseUrl'));
  url.pathname = `/${name}`;
  return url.toString();
}

/**
 * A database of its own in the shared test server, migrated and empty (no admin, no sign-up mode): for
 * the tests of the first admin and of who may sign up (issue 33). `url` is its address (as DATABASE_URL);
 * `drop` closes the pool and removes it.
 */
export async function freshTestDb(): Promise<{ handle: DbHandle; url: string; drop(): Promise<void> }> {
  const url = await emptyTestDatabase();
  const handle = createDb(url, { max: 8, waitMs: 60_000 });
  await runMigrations(handle);
  return {
    handle,
    url,
    async drop() {
      await handle.close();
      const admin = createDb(inject('adminDatabaseUrl'), { max: 1 });
      try {
        await admin.pool.query(`drop database ${new URL(url).pathname.slice(1)} with (force)`);
      } finally {
        await admin.close();
      }
    },
  };
}
