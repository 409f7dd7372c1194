import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { readMigrationFiles } from 'drizzle-orm/migrator';
import { migrate } from 'drizzle-orm/node-postgres/migrator';
import type { Db, DbHandle } from './client.ts';

export const MIGRATIONS_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../drizzle');

// Any number of processes may start at once; one advisory lock makes them migrate one at a time.
export const MIGRATION_LOCK = 7_146_501;

/** Applies the pending Drizzle migrations, serialised across processes. */
export async function runMigrations(handle: DbHandle): Promise<void> {
  const client = await handle.pool.connect();
  try {
    await client.query('select pg_advisory_lock($1)', [MIGRATION_LOCK]);
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
