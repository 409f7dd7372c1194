// Writes a logical backup of Pacebeat's tables (format.ts) from one REPEATABLE READ READ ONLY transaction:
// every table is read from the same snapshot, so the file is consistent while Pacebeat keeps running.
// Written to `<file>.partial`, synced, then renamed: a file with the final name is always complete.
import { once } from 'node:events';
import fs from 'node:fs';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import pg from 'pg';
import { to as copyTo } from 'pg-copy-streams';
import {
  SESSION_SETTINGS,
  copyLine,
  END_OF_DATA,
  endLine,
  FIRST_LINE,
  metaLine,
  type BackupSequence,
} from './format.ts';
import { appTables } from './schema-info.ts';

export interface BackupSummary {
  file: string;
  bytes: number;
  rows: Record<string, number>;
  migrations: number;
  seconds: number;
}

const q = (name: string) => `"${name.replaceAll('"', '""')}"`;

export async function writeBackup(
  url: string,
  file: string,
  o: { keyId: string | null },
): Promise<BackupSummary> {
  const started = performance.now();
  const client = new pg.Client({ connectionString: url, application_name: 'pacebeat-backup' });
  await client.connect();
  const partial = `${file}.partial`;
  const gzip = createGzip({ level: 6 });
  const written = pipeline(gzip, fs.createWriteStream(partial, { mode: 0o600 }));
  written.catch(() => undefined); // awaited below; an early failure surfaces at a write
  const write = async (chunk: string | Buffer) => {
    if (!gzip.write(chunk)) await once(gzip, 'drain');
  };
  try {
    await client.query('begin isolation level repeatable read read only');
    await client.query(SESSION_SETTINGS);
    const tables = await appTables(client);
    const migrations = (
      await client.query<{ hash: string; created_at: string }>(
        `select hash, created_at from drizzle.__drizzle_migrations order by id`,
      )
    ).rows.map((r) => ({ hash: r.hash, createdAt: Number(r.created_at) }));
    const sequences: BackupSequence[] = [];
    for (const t of tables) {
      for (const s of t.sequences) {
        const { rows } = await client.query<{ last_value: string; is_called: boolean }>(
          `select last_value, is_called from ${s.sequence}`,
        );
        sequences.push({
          table: t.name,
          column: s.column,
          value: Number(rows[0]!.last_value),
          isCalled: rows[0]!.is_called,
        });
      }
    }
    const serverVersion = (await client.query<{ server_version: string }>('show server_version')).rows[0]!
      .server_version;
    await write(
      `${FIRST_LINE}\n${metaLine({ createdAt: new Date().toISOString(), serverVersion, keyId: o.keyId, migrations, sequences })}\n`,
    );
    const rows: Record<string, number> = {};
    for (const t of tables) {
      await write(`${copyLine(t.name, t.columns)}\n`);
      const stream = client.query(
        copyTo(`COPY "public".${q(t.name)} (${t.columns.map(q).join(', ')}) TO STDOUT`),
      );
      for await (const chunk of stream) await write(chunk as Buffer);
      rows[t.name] = stream.rowCount ?? 0;
      await write(`${END_OF_DATA}\n`);
    }
    await write(`${endLine({ rows })}\n`);
    await client.query('commit');
    gzip.end();
    await written;
    const fd = fs.openSync(partial, 'r');
    fs.fsyncSync(fd);
    fs.closeSync(fd);
    fs.renameSync(partial, file);
    return {
      file,
      bytes: fs.statSync(file).size,
      rows,
      migrations: migrations.length,
      seconds: (performance.now() - started) / 1000,
    };
  } catch (err) {
    gzip.destroy();
    await written.catch(() => undefined);
    fs.rmSync(partial, { force: true });
    throw err;
  } finally {
    await client.end().catch(() => undefined);
  }
}
