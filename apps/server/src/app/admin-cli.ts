// `npm run admin -- grant EMAIL | revoke EMAIL | list`: who is an admin, set on the server itself.
// It reads the database of the settings as `npm run backup` does: DATABASE_URL, or the embedded server of
// DATA_DIR, whether Pacebeat is running it or not (then it is started for the command and stopped after).
// In a container: `docker compose exec pacebeat npm run admin -- grant EMAIL`.
import dotenv from 'dotenv';
import { ConfigError, loadConfig } from './config.ts';
import { AlreadyRunningError } from '../db/embedded.ts';
import { RestoreRefusedError } from '../db/backup/restore.ts';
import { commandDatabase } from '../db/command-database.ts';
import { createLogger } from '../log.ts';
import { ADMIN_USAGE, runAdminCommand } from '../accounts/admin-command.ts';

async function main(): Promise<void> {
  dotenv.config({ quiet: true });
  const config = loadConfig();
  const log = createLogger({ level: 'warn' });
  const args = process.argv.slice(2);
  if (!['grant', 'revoke', 'list'].includes(args[0] ?? '')) {
    console.error(ADMIN_USAGE);
    process.exit(2);
  }
  const database = await commandDatabase(config, log);
  try {
    process.exitCode = await runAdminCommand(
      database.db,
      args,
      (line) => console.log(line),
      config.ADMIN_EMAILS,
    );
  } finally {
    await database.close();
  }
}

main().catch((err: unknown) => {
  const plain = [ConfigError, RestoreRefusedError, AlreadyRunningError].some((k) => err instanceof k);
  console.error(plain ? (err as Error).message : err);
  process.exit(1);
});
