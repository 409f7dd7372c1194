import path from 'node:path';
import type { Logger } from 'pino';
import { createDb, type DbHandle } from './client.ts';
import { startEmbeddedPostgres, type EmbeddedHooks } from './embedded.ts';

/** The settings that say where the database is (part of the app's settings, app/config.ts). */
export interface DatabaseSettings {
  /** An external PostgreSQL; unset: the embedded one in `<dataDir>/pg`. */
  DATABASE_URL?: string | undefined;
  /** Connections of this process's pool (default POOL_MAX). */
  DATABASE_POOL_SIZE?: number;
  /** DATA_DIR as set, for messages. */
  DATA_DIR: string;
  /** DATA_DIR resolved. */
  dataDir: string;
}

export interface Database extends DbHandle {
  url: string;
  embedded: boolean;
}

/** Connects to DATABASE_URL, or starts the embedded server in `<DATA_DIR>/pg`. `close()` stops both. */
export async function openDatabase(
  config: DatabaseSettings,
  log: Logger,
  hooks: EmbeddedHooks = {},
  applicationName?: string,
): Promise<Database> {
  if (config.DATABASE_URL) {
    const handle = createDb(config.DATABASE_URL, { applicationName, max: config.DATABASE_POOL_SIZE });
    return { ...handle, url: config.DATABASE_URL, embedded: false };
  }
  const server = await startEmbeddedPostgres(path.join(config.dataDir, 'pg'), log, hooks);
  const handle = createDb(server.url, { applicationName, max: config.DATABASE_POOL_SIZE });
  return {
    ...handle,
    url: server.url,
    embedded: true,
    async close() {
      await handle.close();
      await server.stop();
    },
  };
}
