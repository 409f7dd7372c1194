import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { Db, DbHandle } from './client.ts';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

// Any number of processes may start at once; one advisory lock makes them migrate one at a time.
export const MIGRATION_LOCK = 7_146_501;

/**
 * A database that a newer Pacebeat has migrated: this one does not know its schema (a rollback to an older
 * release without restoring the backup made before the upgrade). Drizzle alone would start on it silently.
 */
export class NewerDatabaseError extends Error {}

/**
 * Applies the pending Drizzle migrations, serialised across processes; all of them in one transaction (a
 * failing one leaves the database as it was). Migrations only go forward: it refuses a database that holds
 * a migration newer than this code's last (docs/install.md, "Upgrades").
 */
export async function runMigrations(handle: DbHandle): Promise<void> {
  const client = await handle.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
    const { rows: table } = await client.query<{ found: boolean }>(
      `select to_regclass('drizzle.__drizzle_migrations') is not null as found`,
    );
    const { rows } = table[0]?.found
      ? await client.query<{ newest: string | null }>(
          'select max(created_at)::text as newest from drizzle.__drizzle_migrations',
        )
      : { rows: [] };
    const known = knownMigrations();
    const ours = Math.max(0, ...known.map((m) => m.createdAt));
    if (rows[0]?.newest && Number(rows[0].newest) > ours) {
      throw new NewerDatabaseError(
        `This database was migrated by a newer Pacebeat (its last migration is from ` +
          `${new Date(Number(rows[0].newest)).toISOString()}; this one's last, the ${known.length}th, is from ` +
          `${new Date(ours).toISOString()}). Start that newer release again, or restore the backup made ` +
          `before the upgrade into an empty database (docs/install.md, "Upgrades").`,
      );
    }
    await migrate(handle.db as Db, { migrationsFolder: MIGRATIONS_DIR });
  } finally {
    await client.query('select pg_advisory_unlock($1)', [MIGRATION_LOCK]).catch(() => undefined);
    client.release();
  }
}

/** A migration as Drizzle records it in `drizzle.__drizzle_migrations`. */
export interface AppliedMigration {
  hash: string;
  createdAt: number;
}

/** This code's migrations, in order, with their SQL statements. */
export function knownMigrations(): (AppliedMigration & { statements: string[] })[] {
  return readMigrationFiles({ migrationsFolder: MIGRATIONS_DIR }).map((m) => ({
    hash: m.hash,
    createdAt: m.folderMillis,
    statements: m.sql,
  }));
}
