import { sql } from 'drizzle-orm';
import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema.ts';

export type Db = NodePgDatabase<typeof schema>;

export interface DbHandle {
  pool: pg.Pool;
  /** The pool's size: queries beyond this many wait for a connection. */
  poolMax: number;
  db: Db;
  close(): Promise<void>;
}

/**
 * The longest a query waits for a connection of the pool (all busy, or PostgreSQL not answering the
 * connect). pg waits forever by default: a page whose request queued behind busy jobs gave no answer at all
 * (88 s in a browser test, not even the demo proxy's 504, which starts only once the handler runs); now it
 * answers 503 "try again" after this, as for a database that is down.
 */
export const POOL_WAIT_MS = 15_000;

/** Connections of a process's pool by default (DATABASE_POOL_SIZE; queries beyond wait, up to POOL_WAIT_MS). */
export const POOL_MAX = 10;

/**
 * A `with` clause that makes a one-statement write not wait for the disk at its commit (the setting is local
 * to the statement's own transaction and read at its commit); the statement must reference it
 * (`exists (select from no_flush)`). Only for writes whose loss in a crash costs nothing but a redo.
 */
export const noFlush = sql`with no_flush as (select set_config('synchronous_commit', 'off', true))`;

/** One pool per process; repositories get `db`, health checks get `pool`. */
export function createDb(
  url: string,
  opts: { max?: number; waitMs?: number; applicationName?: string } = {},
): DbHandle {
  const poolMax = opts.max ?? POOL_MAX;
  const pool = new pg.Pool({
    connectionString: url,
    max: poolMax,
    connectionTimeoutMillis: opts.waitMs ?? POOL_WAIT_MS,
    // Per role (`pacebeat-serve`, `pacebeat-work`): pg_stat_activity says which processes hold connections.
    application_name: opts.applicationName ?? 'pacebeat',
  });
  // An idle client's error (server restart, network) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = drizzle(pool, { schema });
  return { pool, poolMax, db, close: () => pool.end() };
}
