// Migrations go forward only: an older Pacebeat refuses a database that a newer one migrated (a rollback
// without restoring the backup made before the upgrade), instead of starting on a schema it does not know.
import { describe, expect, it } from 'vitest';
import { createDb } from './client.ts';
import { emptyTestDatabase } from '../../test/db.ts';
import { knownMigrations, NewerDatabaseError, runMigrations } from './migrate.ts';

const newDatabase = () => emptyTestDatabase('migrate');

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
