// Which PostgreSQL a backup reads and a restore writes, from the settings: DATABASE_URL, or the embedded
// server of DATA_DIR, whether Pacebeat is running it (found through its postmaster.pid) or not (then it
// is started for the job and stopped after).
import { existsSync } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import type { Logger } from 'pino';
import type { DatabaseSettings } from '../database.ts';
import { AlreadyRunningError, DB_APP_USER, DB_NAME, startEmbeddedPostgres } from '../embedded.ts';
import { RestoreRefusedError } from './restore.ts';

export interface DatabaseTarget {
  url: string;
  /** Where it is, for the messages. */
  where: string;
  close(): Promise<void>;
}

const nothing = async () => undefined;

/** The URL of the embedded server Pacebeat is running on `pgDir` (its port is in postmaster.pid). */
async function runningServerUrl(pgDir: string): Promise<string> {
  const lines = (await fs.readFile(path.join(pgDir, 'postmaster.pid'), 'utf8')).split('\n');
  const port = Number(lines[3]);
  if (!Number.isInteger(port) || port <= 0) throw new Error(`No port in ${pgDir}/postmaster.pid`);
  const password = (await fs.readFile(`${pgDir}.password`, 'utf8')).trim();
  return `postgres://${DB_APP_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DB_NAME}`;
}

export async function backupSource(config: DatabaseSettings, log: Logger): Promise<DatabaseTarget> {
  if (config.DATABASE_URL) return { url: config.DATABASE_URL, where: 'DATABASE_URL', close: nothing };
  const pgDir = path.join(config.dataDir, 'pg');
  if (!existsSync(path.join(pgDir, 'PG_VERSION'))) {
    throw new RestoreRefusedError(`There is no Pacebeat database in ${pgDir} (DATA_DIR=${config.DATA_DIR}).`);
  }
  try {
    const server = await startEmbeddedPostgres(pgDir, log);
    return { url: server.url, where: `${pgDir} (started for the backup)`, close: server.stop };
  } catch (err) {
    if (!(err instanceof AlreadyRunningError)) throw err;
    return {
      url: await runningServerUrl(pgDir),
      where: `${pgDir} (Pacebeat pid ${err.pid} running)`,
      close: nothing,
    };
  }
}

/** The empty database to restore into; `discard` removes an embedded data folder made for a failed restore. */
export async function restoreTarget(
  config: DatabaseSettings,
  log: Logger,
): Promise<DatabaseTarget & { discard(): Promise<void> }> {
  if (config.DATABASE_URL) {
    return { url: config.DATABASE_URL, where: 'DATABASE_URL', close: nothing, discard: nothing };
  }
  const pgDir = path.join(config.dataDir, 'pg');
  if (existsSync(path.join(pgDir, 'PG_VERSION'))) {
    throw new RestoreRefusedError(
      `${pgDir} already holds a database. Restore only into an empty data folder: stop Pacebeat and move ${pgDir} aside (or set another DATA_DIR).`,
    );
  }
  const server = await startEmbeddedPostgres(pgDir, log);
  return {
    url: server.url,
    where: pgDir,
    close: server.stop,
    async discard() {
      await server.stop();
      await fs.rm(pgDir, { recursive: true, force: true });
      await fs.rm(`${pgDir}.password`, { force: true });
    },
  };
}
