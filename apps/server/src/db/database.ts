import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../config.ts';
import { createDb, type DbHandle } from './client.ts';
import { startEmbeddedPostgres } from './embedded.ts';

export interface Database extends DbHandle {
  url: string;
  embedded: boolean;
}

/** Connects to DATABASE_URL, or starts the embedded server in `<DATA_DIR>/pg`. `close()` stops both. */
export async function openDatabase(config: Config, log: Logger): Promise<Database> {
  if (config.DATABASE_URL) {
    const handle = createDb(config.DATABASE_URL);
    return { ...handle, url: config.DATABASE_URL, embedded: false };
  }
  const server = await startEmbeddedPostgres(path.join(config.dataDir, 'pg'), log);
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
