// `npm run backup [FILE|FOLDER/]` and `npm run restore FILE [--ignore-key]` (see docs/operating.md, "Backups").
import fs from 'node:fs';
import path from 'node:path';
import dotenv from 'dotenv';
import { ConfigError, loadConfig } from './config.ts';
import { createLogger } from '../log.ts';
import { findKey, keyId } from '../spotify/token-crypto.ts';
import { AlreadyRunningError } from '../db/embedded.ts';
import { writeBackup } from '../db/backup/backup.ts';
import { BackupFormatError } from '../db/backup/format.ts';
import { checkKey, readBackupMeta, restoreBackup, RestoreRefusedError } from '../db/backup/restore.ts';
import { backupSource, restoreTarget } from '../db/backup/target.ts';

const stamp = () => new Date().toISOString().replace(/[-:]/g, '').replace(/\..*/, '').replace('T', '-');
const size = (bytes: number) =>
  bytes < 1024 * 1024 ? `${(bytes / 1024).toFixed(1)} KiB` : `${(bytes / 1024 / 1024).toFixed(1)} MiB`;
/** FILE as the user typed it: npm runs scripts in the project folder, and says where they were in INIT_CWD. */
const userPath = (file: string) => path.resolve(process.env.INIT_CWD ?? process.cwd(), file);
const total = (rows: Record<string, number>) => Object.values(rows).reduce((a, b) => a + b, 0);

async function main(): Promise<void> {
  const [command, ...args] = process.argv.slice(2);
  dotenv.config({ quiet: true });
  const config = loadConfig();
  const log = createLogger({ level: 'warn' });
  const key = findKey({ setting: config.TOKEN_ENCRYPTION_KEY, dataDir: config.dataDir });
  const keyWhere = config.TOKEN_ENCRYPTION_KEY
    ? 'TOKEN_ENCRYPTION_KEY'
    : path.join(config.dataDir, 'secret.key');

  if (command === 'backup') {
    // FILE, or a folder to write `pacebeat-backup-<UTC time>.sql.gz` into: by default `backups/`, which
    // .gitignore and .dockerignore leave out, so a backup in a clone never reaches git or an image.
    const given = userPath(args[0] ?? 'backups/');
    const isFolder =
      args[0] === undefined ||
      args[0].endsWith('/') ||
      fs.statSync(given, { throwIfNoEntry: false })?.isDirectory();
    if (isFolder) fs.mkdirSync(given, { recursive: true, mode: 0o700 });
    const file = isFolder ? path.join(given, `pacebeat-backup-${stamp()}.sql.gz`) : given;
    const source = await backupSource(config, log);
    try {
      const s = await writeBackup(source.url, file, { keyId: key ? keyId(key) : null });
      console.log(
        `Backed up ${Object.keys(s.rows).length} tables, ${total(s.rows)} rows (migration level ${s.migrations}) ` +
          `from ${source.where} to ${s.file} (${size(s.bytes)}) in ${s.seconds.toFixed(1)} s.`,
      );
      console.log(
        key
          ? `Keep the token encryption key with it (${keyWhere}): without it, every user must connect Spotify again.`
          : 'No token encryption key exists yet (no Spotify account was ever connected here).',
      );
    } finally {
      await source.close();
    }
    return;
  }

  if (command === 'restore') {
    const file = args.find((a) => !a.startsWith('--'));
    if (!file) throw new RestoreRefusedError('Usage: npm run restore FILE [-- --ignore-key]');
    const keyCheck = { keyId: key ? keyId(key) : null, ignoreKey: args.includes('--ignore-key') };
    try {
      checkKey(await readBackupMeta(userPath(file)), keyCheck);
    } catch (err) {
      if (!(err instanceof RestoreRefusedError)) throw err;
      throw new RestoreRefusedError(
        `${err.message}\nPut the key file from the old installation at ${path.join(config.dataDir, 'secret.key')} ` +
          '(mode 0600) or set TOKEN_ENCRYPTION_KEY, then run the restore again. ' +
          'Or add `-- --ignore-key` to restore anyway: every user then connects Spotify again.',
      );
    }
    const target = await restoreTarget(config, log);
    try {
      const s = await restoreBackup(target.url, userPath(file), keyCheck);
      await target.close();
      console.log(
        `Restored ${Object.keys(s.rows).length} tables, ${total(s.rows)} rows from ${file} ` +
          `(made ${s.meta.createdAt} by Pacebeat ${s.meta.appVersion}) into ${target.where} in ${s.seconds.toFixed(1)} s` +
          (s.upgradedBy ? `, then applied ${s.upgradedBy} newer migrations.` : '.'),
      );
    } catch (err) {
      await target.discard();
      throw err;
    }
    return;
  }
  throw new RestoreRefusedError('Usage: backup [FILE] | restore FILE [--ignore-key]');
}

main().catch((err: unknown) => {
  const plain = [ConfigError, RestoreRefusedError, BackupFormatError, AlreadyRunningError].some(
    (k) => err instanceof k,
  );
  console.error(plain ? (err as Error).message : err);
  process.exit(1);
});
