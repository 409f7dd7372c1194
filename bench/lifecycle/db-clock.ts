// How a simulated day passes for the product, which has no injectable clock: while the server is stopped,
// every time it stored moves back by the same amount, so that its "now" stands that much later in its own
// history. Every `timestamp with time zone`, `timestamp` and `date` column of the `public` and `pgboss`
// schemas (found from information_schema, partitions left to their parent table) moves, in one
// transaction, except times that came from Spotify (a liked song's `added_at`), which belong to the
// simulated world's own clock.
import pg from 'pg';

const SCHEMAS = ['public', 'pgboss'];
/** Spotify's own times: they move with the simulated world's clock, not the product's. */
const SPOTIFY_TIMES = new Set(['public.library_source_tracks.added_at']);
/** Far enough that a row moved there collides with no row not moved yet (unique keys holding a time). */
const PARK_DAYS = 400_000;

export interface ShiftReport {
  columns: number;
  tables: number;
  rows: number;
  ms: number;
}

const ident = (s: string) => `"${s.replaceAll('"', '""')}"`;

export async function shiftDatabaseTimes(databaseUrl: string, hours: number): Promise<ShiftReport> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const cols = await client.query<{
      schema: string;
      table: string;
      column: string;
      type: string;
      unique_key: boolean;
    }>(
      `select c.table_schema as schema, c.table_name as table, c.column_name as column, c.data_type as type,
              exists (select 1 from pg_index i
                      where i.indrelid = k.oid and i.indisunique and a.attnum = any(i.indkey)) as unique_key
         from information_schema.columns c
         join information_schema.tables t using (table_schema, table_name)
         join pg_namespace n on n.nspname = c.table_schema
         join pg_class k on k.relnamespace = n.oid and k.relname = c.table_name
         join pg_attribute a on a.attrelid = k.oid and a.attname = c.column_name
        where c.table_schema = any($1)
          and t.table_type = 'BASE TABLE'
          and not k.relispartition
          and c.is_generated = 'NEVER'
          and c.data_type in ('timestamp with time zone', 'timestamp without time zone', 'date')
        order by 1, 2, 3`,
      [SCHEMAS],
    );
    const byTable = new Map<string, Array<{ column: string; type: string; unique: boolean }>>();
    for (const c of cols.rows) {
      if (SPOTIFY_TIMES.has(`${c.schema}.${c.table}.${c.column}`)) continue;
      const key = `${ident(c.schema)}.${ident(c.table)}`;
      const list = byTable.get(key) ?? [];
      list.push({ column: c.column, type: c.type, unique: c.unique_key });
      byTable.set(key, list);
    }
    const move = (col: { column: string; type: string }, h: number) =>
      col.type === 'date'
        ? `${ident(col.column)} = ${ident(col.column)} + (${h / 24})::int`
        : `${ident(col.column)} = ${ident(col.column)} + make_interval(hours => ${h})`;
    let rows = 0;
    await client.query('begin');
    // UTC: a day is 24 hours; and neither triggers (change notifications) nor FK checks run for this.
    await client.query(`set local time zone 'UTC'`);
    await client.query(`set local session_replication_role = replica`);
    for (const [table, list] of byTable) {
      const notNull = list.map((c) => `${ident(c.column)} is not null`).join(' or ');
      if (list.some((c) => c.unique)) {
        // Two steps, so no row lands on a key a row not moved yet still holds.
        await client.query(
          `update ${table} set ${list.map((c) => move(c, -hours - PARK_DAYS * 24)).join(', ')} where ${notNull}`,
        );
        const r = await client.query(
          `update ${table} set ${list.map((c) => move(c, PARK_DAYS * 24)).join(', ')} where ${notNull}`,
        );
        rows += r.rowCount ?? 0;
      } else {
        const r = await client.query(
          `update ${table} set ${list.map((c) => move(c, -hours)).join(', ')} where ${notNull}`,
        );
        rows += r.rowCount ?? 0;
      }
    }
    await client.query('commit');
    return {
      columns: [...byTable.values()].reduce((n, l) => n + l.length, 0),
      tables: byTable.size,
      rows,
      ms: performance.now() - started,
    };
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    await client.end();
  }
}
