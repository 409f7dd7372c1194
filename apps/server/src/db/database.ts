import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../app/config.ts';
import { createDb, type DbHandle } from './client.ts';
import { startEmbeddedPostgres, type EmbeddedHooks } from './embedded.ts';

export interface Database extends DbHandle {
  url: string;
  embedded: boolean;
}

/** Connects to DATABASE_URL, or starts the embedded server in `<DATA_DIR>/pg`. `close()` stops both. */
export async function openDatabase(
  config: Config,
  log: Logger,
  hooks: EmbeddedHooks = {},
): Promise<Database> {
  if (config.DATABASE_URL) {
    const handle = createDb(config.DATABASE_URL);
    return { ...handle, url: config.DATABASE_URL, embedded: false };
  }
  const server = await startEmbeddedPostgres(path.join(config.dataDir, 'pg'), log, hooks);
  const handle = createDb(server.url);
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
