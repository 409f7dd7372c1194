// Restores a backup (format.ts) into an EMPTY database, in one transaction (a failure leaves it empty):
// brings the schema to the backup's migration level, streams every table back with COPY … FROM STDIN in the
// file's (dependency) order, sets the sequences; then applies this code's later migrations as an upgrade
// would. Nothing from the file is executed as SQL: COPY lines are parsed and checked against the schema.
import fs from 'node:fs';
import readline from 'node:readline';
import { finished } from 'node:stream/promises';
import { createGunzip } from 'node:zlib';
import pg from 'pg';
import { from as copyFrom } from 'pg-copy-streams';
import { createDb } from '../client.ts';
import { knownMigrations, MIGRATION_LOCK, runMigrations } from '../migrate.ts';
import {
  SESSION_SETTINGS,
  BackupFormatError,
  END_OF_DATA,
  FIRST_LINE,
  parseCopyLine,
  parseEnd,
  parseMeta,
  type BackupMeta,
  type BackupTrailer,
} from './format.ts';
import { appTables } from './schema-info.ts';

export class RestoreRefusedError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'RestoreRefusedError';
  }
}

export interface RestoreSummary {
  rows: Record<string, number>;
  meta: BackupMeta;
  /** Migrations applied after the rows (the backup came from an older Pacebeat). */
  upgradedBy: number;
  seconds: number;
}

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;
const CHUNK = 256 * 1024;

/** Refuses a database that already has Pacebeat's (or any) tables. */
async function assertEmpty(client: pg.Client): Promise<void> {
  const { rows } = await client.query<{ n: string }>(`
    select count(*) as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
    where c.relkind in ('r', 'p') and n.nspname in ('public', 'drizzle')`);
  if (Number(rows[0]!.n) > 0) {
    throw new RestoreRefusedError(
      'The target database is not empty: restore only into an empty data folder or an empty database.',
    );
  }
}

/**
 * Applies this code's first `count` migrations on `client`, inside the caller's transaction, and records
 * them as Drizzle's migrator does (drizzle-orm's pg dialect: the same table, columns and rows).
 */
async function migrateTo(client: pg.Client, count: number): Promise<void> {
  await client.query('create schema if not exists drizzle');
  await client.query(
    'create table if not exists drizzle.__drizzle_migrations (id serial primary key, hash text not null, created_at bigint)',
  );
  for (const m of knownMigrations().slice(0, count)) {
    for (const statement of m.statements) await client.query(statement);
    await client.query('insert into drizzle.__drizzle_migrations (hash, created_at) values ($1, $2)', [
      m.hash,
      m.createdAt,
    ]);
  }
}

/** The backup's migrations must be this code's first ones (same files): then its rows fit that schema. */
function checkMigrations(meta: BackupMeta): void {
  const known = knownMigrations();
  if (meta.migrations.length > known.length) {
    throw new RestoreRefusedError(
      `This backup was made by a newer Pacebeat (${meta.appVersion}, ${meta.migrations.length} migrations; this one knows ${known.length}). Restore it with that version or a later one.`,
    );
  }
  meta.migrations.forEach((m, i) => {
    if (m.hash !== known[i]!.hash) {
      throw new RestoreRefusedError(
        `Migration ${i + 1} of this backup differs from this Pacebeat's: it was made by a different build (${meta.appVersion}).`,
      );
    }
  });
}

/** Refuses a backup whose Spotify tokens the key here cannot read (unless told to go on without them). */
export function checkKey(meta: BackupMeta, o: { keyId: string | null; ignoreKey?: boolean }): void {
  if (!meta.keyId || meta.keyId === o.keyId || o.ignoreKey) return;
  throw new RestoreRefusedError(
    o.keyId
      ? 'The token encryption key here is not the one this backup was made with, so its Spotify tokens could not be read.'
      : 'There is no token encryption key here, and this backup needs the one it was made with to read its Spotify tokens.',
  );
}

/** Opens a backup: its description, and the lines after it. */
function openBackup(file: string) {
  const input = fs.createReadStream(file).pipe(createGunzip());
  const lines = readline.createInterface({ input, crlfDelay: Infinity })[Symbol.asyncIterator]();
  const next = async () => {
    const r = await lines.next();
    return r.done ? undefined : r.value;
  };
  const meta = (async () => {
    if ((await next()) !== FIRST_LINE)
      throw new BackupFormatError('it does not start with the backup header');
    return parseMeta(await next());
  })();
  return { meta, next, close: () => input.destroy() };
}

/** A backup's description (first lines only), to check it before a restore prepares its target. */
export async function readBackupMeta(file: string): Promise<BackupMeta> {
  const b = openBackup(file);
  try {
    return await b.meta;
  } finally {
    b.close();
  }
}

export async function restoreBackup(
  url: string,
  file: string,
  o: { keyId: string | null; ignoreKey?: boolean },
): Promise<RestoreSummary> {
  const started = performance.now();
  const backup = openBackup(file);
  const { next } = backup;
  let meta: BackupMeta;
  try {
    meta = await backup.meta;
    checkKey(meta, o);
    checkMigrations(meta);
  } catch (err) {
    backup.close();
    throw err;
  }

  const client = new pg.Client({ connectionString: url, application_name: 'pacebeat-restore' });
  await client.connect();
  const handle = createDb(url, { max: 2 });
  try {
    await client.query('begin');
    await client.query(SESSION_SETTINGS);
    // No Pacebeat may migrate this database meanwhile (they take the same lock at start).
    await client.query('select pg_advisory_xact_lock($1)', [MIGRATION_LOCK]);
    await assertEmpty(client);
    await migrateTo(client, meta.migrations.length);
    const schema = new Map((await appTables(client)).map((t) => [t.name, new Set(t.columns)]));
    const rows: Record<string, number> = {};
    let trailer: BackupTrailer | null = null;
    for (let line = await next(); line !== undefined; line = await next()) {
      if (line === '' || (line.startsWith('-- ') && !line.startsWith('-- end: '))) continue;
      trailer = parseEnd(line);
      if (trailer) break;
      const copy = parseCopyLine(line);
      if (!copy) throw new BackupFormatError(`unexpected line: ${line.slice(0, 80)}`);
      const columns = schema.get(copy.table);
      const unknown = columns ? copy.columns.filter((c) => !columns.has(c)) : copy.columns;
      if (!columns || unknown.length > 0 || copy.table in rows) {
        throw new BackupFormatError(`table ${copy.table} (${unknown.join(', ')}) does not fit the schema`);
      }
      const stream = client.query(
        copyFrom(`COPY "public".${q(copy.table)} (${copy.columns.map(q).join(', ')}) FROM STDIN`),
      );
      const done = finished(stream);
      done.catch(() => undefined);
      let chunk = '';
      const flush = async () => {
        if (chunk && !stream.write(chunk))
          await Promise.race([new Promise((r) => stream.once('drain', r)), done]);
        chunk = '';
      };
      for (let row = await next(); row !== END_OF_DATA; row = await next()) {
        if (row === undefined) throw new BackupFormatError(`it ends inside table ${copy.table}`);
        chunk += row + '\n';
        if (chunk.length >= CHUNK) await flush();
      }
      await flush();
      stream.end();
      await done;
      rows[copy.table] = stream.rowCount ?? 0;
    }
    if (!trailer) throw new BackupFormatError('it is cut short (no end line)');
    for (const [table, n] of Object.entries(trailer.rows)) {
      if (rows[table] !== n) {
        throw new BackupFormatError(`table ${table} has ${rows[table] ?? 0} rows, the backup says ${n}`);
      }
    }
    for (const s of meta.sequences) {
      if (!schema.get(s.table)?.has(s.column)) continue; // a column a later migration dropped
      await client.query(`select setval(pg_get_serial_sequence($1, $2), $3, $4)`, [
        `public.${q(s.table)}`,
        s.column,
        s.value,
        s.isCalled,
      ]);
    }
    // Restored without its key: the old key's id must not keep this installation's new key out.
    if (o.ignoreKey && schema.has('installation_facts'))
      await client.query(`delete from installation_facts where name = 'token_key_id'`);
    await client.query('commit');
    const before = meta.migrations.length;
    await runMigrations(handle);
    return {
      rows,
      meta,
      upgradedBy: knownMigrations().length - before,
      seconds: (performance.now() - started) / 1000,
    };
  } catch (err) {
    await client.query('rollback').catch(() => undefined);
    throw err;
  } finally {
    backup.close();
    await client.end().catch(() => undefined);
    await handle.close();
  }
}
