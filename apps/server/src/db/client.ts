import { drizzle, type NodePgDatabase } from 'drizzle-orm/node-postgres';
import pg from 'pg';
import * as schema from './schema.ts';

export type Db = NodePgDatabase<typeof schema>;

export interface DbHandle {
  pool: pg.Pool;
  db: Db;
  close(): Promise<void>;
}

/** One pool per process; repositories get `db`, health checks get `pool`. */
export function createDb(url: string, opts: { max?: number } = {}): DbHandle {
  const pool = new pg.Pool({ connectionString: url, max: opts.max ?? 10, application_name: 'pacebeat' });
  // An idle client's error (server restart, network) must not crash the process; the next query reconnects.
  pool.on('error', () => undefined);
  const db = drizzle(pool, { schema });
  return { pool, db, close: () => pool.end() };
}
