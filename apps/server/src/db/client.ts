import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema.ts';

export type Db = NodePgDatabase<typeof schema>;

export interface DbHandle {
  pool: pg.Pool;
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

/** One pool per process; repositories get `db`, health checks get `pool`. */
export function createDb(url: string, opts: { max?: number; waitMs?: number } = {}): DbHandle {
  const pool = new pg.Pool({
    connectionString: url,
    max: opts.max ?? 10,
    connectionTimeoutMillis: opts.waitMs ?? POOL_WAIT_MS,
    application_name: 'pacebeat',
  });
  // An idle client's error (server restart, network) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = drizzle(pool, { schema });
  return { pool, db, close: () => pool.end() };
}
