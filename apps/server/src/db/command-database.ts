// The database of the settings as a Drizzle handle, for a command run on the server (`npm run admin`):
// found as `npm run backup` finds it (DATABASE_URL, or the embedded server of DATA_DIR, running
// or started for the command and stopped after).
import type { Logger } from 'pino';
import type { DatabaseSettings } from './database.ts';
import { backupSource } from './backup/target.ts';
import { createDb } from './client.ts';

export async function commandDatabase(config: DatabaseSettings, log: Logger) {
  const source = await backupSource(config, log);
  const handle = createDb(source.url, { max: 1 });
  return {
    db: handle.db,
    async close() {
      await handle.close();
      await source.close();
    },
  };
}
