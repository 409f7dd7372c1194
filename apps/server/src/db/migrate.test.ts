// Migrations go forward only: an older Pacebeat refuses a database that a newer one migrated (a rollback
// without restoring the backup made before the upgrade), instead of starting on a schema it does not know.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { describe, expect, inject, it } from 'vitest';
import { createDb } from './client.ts';
import { DB_APP_USER } from './embedded.ts';
import { knownMigrations, NewerDatabaseError, runMigrations } from './migrate.ts';

/** A new empty database on the test server; answers its URL. */
async function newDatabase(): Promise<string> {
  const name = `migrate_${randomUUID().slice(0, 8)}`;
  const admin = new pg.Client({ connectionString: inject('adminDatabaseUrl') });
  await admin.connect();
  await admin.query(`create database ${name} owner ${DB_APP_USER}`);
  await admin.end();
  const url = new URL(inject('databaseUrl'));
  url.pathname = `/${name}`;
  return url.toString();
}

describe('runMigrations', () => {
  it('migrates an empty database, then refuses one that a newer Pacebeat migrated, saying what to do', async () => {
    const db = createDb(await newDatabase(), { max: 2 });
    try {
      await runMigrations(db);
      await runMigrations(db); // again: nothing to do, no refusal
      const newest = Math.max(...knownMigrations().map((m) => m.createdAt));
      // What a later release's first start leaves: one migration more, newer than any of this code's.
      await db.pool.query(
        `insert into drizzle.__drizzle_migrations (hash, created_at) values ('from-a-later-release', $1)`,
        [newest + 86_400_000],
      );
      const refusal = runMigrations(db);
      await expect(refusal).rejects.toThrow(NewerDatabaseError);
      await expect(refusal).rejects.toThrow(/newer Pacebeat.*restore the backup made before the upgrade/s);
      // The lock is released: the database is not left blocked for the right release.
      await db.pool.query(`delete from drizzle.__drizzle_migrations where hash = 'from-a-later-release'`);
      await runMigrations(db);
    } finally {
      await db.close();
    }
  });
});
