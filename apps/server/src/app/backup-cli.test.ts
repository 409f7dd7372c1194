// `npm run backup` and `npm run restore` as a self-hoster runs them, on embedded data folders: a backup
// while Pacebeat's server runs, a restore into an empty folder (refused without the key, and into a folder
// that holds a database), and a backup of a stopped folder.
import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import pg from 'pg';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createDb } from '../db/client.ts';
import { startEmbeddedPostgres } from '../db/embedded.ts';
import { runMigrations } from '../db/migrate.ts';
import { releaseVersion } from '../version.ts';

const CLI = path.join(path.dirname(fileURLToPath(import.meta.url)), 'backup-cli.ts');
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'pacebeat-backup-cli-'));
fs.chmodSync(root, 0o755); // the postgres OS user (when we run as root) must reach the data folders
const log = pino({ level: 'silent' });

/** Runs the CLI as `npm run backup/restore` does, with DATA_DIR set; answers its exit code and output. */
async function cli(dataDir: string, ...args: string[]) {
  try {
    const { stdout, stderr } = await promisify(execFile)(process.execPath, [CLI, ...args], {
      env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '', TOKEN_ENCRYPTION_KEY: '', INIT_CWD: root },
      cwd: root,
    });
    return { code: 0, out: stdout + stderr };
  } catch (err) {
    const e = err as { code: number; stdout: string; stderr: string };
    return { code: e.code, out: e.stdout + e.stderr };
  }
}

async function emails(url: string): Promise<string[]> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try {
    return (await c.query<{ email: string }>('select email from users order by email')).rows.map(
      (r) => r.email,
    );
  } finally {
    await c.end();
  }
}

describe('npm run backup / npm run restore', () => {
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it('backs up a running installation and restores it into an empty data folder', async () => {
    const a = path.join(root, 'a');
    const b = path.join(root, 'b');
    const file = path.join(root, 'a.sql.gz');
    fs.mkdirSync(a, { mode: 0o755 });
    fs.writeFileSync(path.join(a, 'secret.key'), randomBytes(32).toString('hex') + '\n', { mode: 0o600 });

    // Pacebeat's embedded server is running (this process holds the data folder, as `npm start` would).
    const server = await startEmbeddedPostgres(path.join(a, 'pg'), log);
    try {
      const handle = createDb(server.url);
      await runMigrations(handle);
      await handle.pool.query(`insert into users (email) values ('one@example.org'), ('two@example.org')`);
      await handle.close();
      const backup = await cli(a, 'backup', file);
      expect(backup.out).toMatch(/Backed up \d+ tables, 2 rows .* \(Pacebeat pid \d+ running\)/);
      expect(backup.out).toContain('Keep the token encryption key with it');
      expect(backup.code).toBe(0);
    } finally {
      await server.stop();
    }
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);

    const noKey = await cli(b, 'restore', file);
    expect(noKey.code).toBe(1);
    expect(noKey.out).toContain('There is no token encryption key here');
    expect(fs.existsSync(path.join(b, 'pg', 'PG_VERSION'))).toBe(false);

    fs.mkdirSync(b, { recursive: true, mode: 0o755 });
    fs.copyFileSync(path.join(a, 'secret.key'), path.join(b, 'secret.key'));
    const restored = await cli(b, 'restore', file);
    expect(restored.out).toMatch(/Restored \d+ tables, 2 rows/);
    // The release that made it (the tag to check out to restore it), not the spec's version string.
    expect(restored.out).toContain(`by Pacebeat ${releaseVersion()})`);
    expect(restored.code).toBe(0);

    const again = await cli(b, 'restore', file);
    expect(again.code).toBe(1);
    expect(again.out).toContain('already holds a database');

    // A stopped installation: the backup starts the server itself, and stops it; given a folder, it names
    // the file (as the nightly timer does).
    const nightly = path.join(root, 'nightly');
    fs.mkdirSync(nightly);
    const fromStopped = await cli(b, 'backup', nightly);
    expect(fromStopped.out).toContain('(started for the backup)');
    expect(fromStopped.code).toBe(0);
    expect(fs.readdirSync(nightly)).toEqual([
      expect.stringMatching(/^pacebeat-backup-\d{8}-\d{6}\.sql\.gz$/),
    ]);

    // Without FILE: into backups/ where it was typed (made, 0700), a folder .gitignore and .dockerignore
    // leave out, so a backup made in a clone never reaches git or an image (container-context.test.ts).
    expect((await cli(b, 'backup')).code).toBe(0);
    expect(fs.readdirSync(path.join(root, 'backups'))).toEqual([
      expect.stringMatching(/^pacebeat-backup-\d{8}-\d{6}\.sql\.gz$/),
    ]);
    expect(fs.statSync(path.join(root, 'backups')).mode & 0o777).toBe(0o700);

    const started = await startEmbeddedPostgres(path.join(b, 'pg'), log);
    try {
      expect(await emails(started.url)).toEqual(['one@example.org', 'two@example.org']);
    } finally {
      await started.stop();
    }
  }, 120_000);
});
