// The embedded PostgreSQL's life: one Pacebeat per data folder, no server left behind by a Ctrl-C during
// start-up, and a crashed server reported so the process can exit for its supervisor.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../src/app/config.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import pg from 'pg';
import { createDb } from '../src/db/client.ts';
import { lockDataFolder, AlreadyRunningError, startEmbeddedPostgres } from '../src/db/embedded.ts';
import { runMigrations } from '../src/db/migrate.ts';

const log = pino({ level: 'silent' });
const MAIN = fileURLToPath(new URL('../src/app/main.ts', import.meta.url));

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};
const until = async (check: () => boolean, ms: number) => {
  const end = Date.now() + ms;
  while (Date.now() < end && !check()) await new Promise((r) => setTimeout(r, 25));
  return check();
};
const postmasterPid = (dir: string) => {
  const file = path.join(dir, 'pg', 'postmaster.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : undefined;
};

/** Runs `node main.ts <cmd>` on a data folder; resolves with its exit code and output. */
function runMain(
  cmd: string,
  dataDir: string,
  onStart?: (child: ReturnType<typeof spawn>) => void,
  level = 'warn',
) {
  const child = spawn(process.execPath, [MAIN, cmd], {
    env: {
      ...process.env,
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: level,
      SPOTIFY_CLIENT_ID: 'pacebeatlifecycle01',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout.on('data', (c: Buffer) => (out += c.toString()));
  child.stderr.on('data', (c: Buffer) => (out += c.toString()));
  onStart?.(child);
  return new Promise<{ code: number | null; out: string }>((resolve) =>
    child.once('exit', (code) => resolve({ code, out })),
  );
}

describe('embedded PostgreSQL lifecycle', () => {
  const dirs: string[] = [];
  const opened: Database[] = [];
  const tmp = async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacebeat-life-'));
    await fs.chmod(dir, 0o755);
    dirs.push(dir);
    return dir;
  };
  afterAll(async () => {
    for (const db of opened) await db.close().catch(() => undefined);
    for (const dir of dirs) await fs.rm(dir, { recursive: true, force: true });
  });

  it('a second start on the same data folder says "already running" and leaves the first server alone', async () => {
    const dir = await tmp();
    const first = await openDatabase(loadConfig({ DATA_DIR: dir }), log);
    opened.push(first);
    const second = await runMain('migrate', dir);
    expect(second.code).toBe(1);
    expect(second.out).toContain(`already running on ${path.resolve(dir)} (pid ${process.pid})`);
    const { rows } = await first.pool.query<{ one: number }>('select 1 as one');
    expect(rows[0]?.one).toBe(1);
  }, 60_000);

  it('takes over the lock of an owner that died', async () => {
    const dir = await tmp();
    const dead = spawn('true');
    await new Promise((r) => dead.once('exit', r));
    await fs.writeFile(path.join(dir, 'pg.owner'), `${dead.pid}\n`);
    const release = await lockDataFolder(path.join(dir, 'pg'));
    await expect(lockDataFolder(path.join(dir, 'pg'), process.pid + 1_000_000)).rejects.toBeInstanceOf(
      AlreadyRunningError,
    );
    await release();
    expect(existsSync(path.join(dir, 'pg.owner'))).toBe(false);
  });

  it('takes over a leftover lock whose pid another Node program now has', async () => {
    const dir = await tmp();
    // Any Node program that is not Pacebeat, holding the pid a killed Pacebeat once had.
    const other = spawn(process.execPath, ['-e', 'setTimeout(() => {}, 30000)'], { stdio: 'ignore' });
    try {
      expect(other.pid).toBeDefined();
      // The lock recorded the dead owner's start time, which is not this program's.
      await fs.writeFile(path.join(dir, 'pg.owner'), `${other.pid} 1\n`);
      const release = await lockDataFolder(path.join(dir, 'pg'));
      await release();
      // A lock from before start times were kept: a Node program that is not Pacebeat's main.ts does not count.
      await fs.writeFile(path.join(dir, 'pg.owner'), `${other.pid}\n`);
      const again = await lockDataFolder(path.join(dir, 'pg'));
      expect(readFileSync(path.join(dir, 'pg.owner'), 'utf8')).toMatch(new RegExp(`^${process.pid} \\d+\n$`));
      await again();
    } finally {
      other.kill('SIGKILL');
    }
  });

  it('the app connects as its own role: no superuser, owner of its database; an older install is handed over', async () => {
    const dir = await tmp();
    const pgDir = path.join(dir, 'pg');
    const first = await startEmbeddedPostgres(pgDir, log);
    let second: Awaited<ReturnType<typeof startEmbeddedPostgres>> | undefined;
    const query = async (url: string, text: string) => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      try {
        return (await c.query(text)).rows as Record<string, unknown>[];
      } finally {
        await c.end();
      }
    };
    try {
      // An install from before: the database and its objects belong to the superuser.
      await query(first.adminUrl, `alter database pacebeat owner to pacebeat`);
      await query(
        first.adminUrl,
        `create schema legacy_jobs;
         create type legacy_state as enum ('a', 'b');
         create table legacy (id serial primary key, state legacy_state not null default 'a');
         create table legacy_jobs.job (id bigint generated always as identity primary key);
         create function legacy_fn() returns int language sql as 'select 1'`,
      );
      await first.stop();
      second = await startEmbeddedPostgres(pgDir, log);
      expect(new URL(second.url).username).toBe('pacebeat_app');
      const [me] = await query(
        second.url,
        `select r.rolsuper, r.rolcreatedb, r.rolcreaterole,
                (select pg_get_userbyid(datdba) from pg_database where datname = current_database()) as owner
         from pg_roles r where r.rolname = current_user`,
      );
      expect(me).toEqual({
        rolsuper: false,
        rolcreatedb: false,
        rolcreaterole: false,
        owner: 'pacebeat_app',
      });
      // What the superuser owned is the app's now, and the app uses it.
      await query(
        second.url,
        `insert into legacy default values; insert into legacy_jobs.job default values`,
      );
      expect(await query(second.url, 'select legacy_fn() as one')).toEqual([{ one: 1 }]);
      expect(
        await query(
          second.adminUrl,
          `select count(*)::int as n from pg_class c join pg_namespace n on n.oid = c.relnamespace
           where n.nspname in ('public', 'legacy_jobs') and pg_get_userbyid(c.relowner) <> 'pacebeat_app'`,
        ),
      ).toEqual([{ n: 0 }]);
      // The migrations run as the app's role.
      const handle = createDb(second.url, { max: 2 });
      try {
        await runMigrations(handle);
      } finally {
        await handle.close();
      }
      // What only a superuser may do is refused.
      for (const text of [
        `select pg_read_file('PG_VERSION')`,
        `create database elsewhere`,
        `create role intruder`,
        `alter system set log_statement = 'all'`,
      ]) {
        await expect(query(second.url, text), text).rejects.toThrow(/permission denied|must be superuser/);
      }
    } finally {
      await (second ?? first).stop();
    }
  }, 60_000);

  it('reports a server that died, so the process can exit for its supervisor', async () => {
    const dir = await tmp();
    let reported: unknown;
    const db = await openDatabase(loadConfig({ DATA_DIR: dir }), log, {
      onUnexpectedExit: (detail) => (reported = detail),
    });
    opened.push(db);
    const pid = postmasterPid(dir)!;
    process.kill(pid, 'SIGKILL');
    expect(await until(() => reported !== undefined, 10_000)).toBe(true);
    expect(reported).toMatchObject({ signal: 'SIGKILL' });
  }, 60_000);

  it('Ctrl-C during start-up stops the embedded server it had started and gives the folder back', async () => {
    const dir = await tmp();
    let pgPid: number | undefined;
    const result = await runMain(
      'all',
      dir,
      (child) => {
        // Right after the server is up: migrations, the job queue and the modules are still starting.
        child.stdout!.on('data', (c: Buffer) => {
          if (pgPid === undefined && c.toString().includes('embedded PostgreSQL is running')) {
            pgPid = postmasterPid(dir);
            child.kill('SIGINT');
          }
        });
      },
      'info',
    );
    expect(pgPid).toBeDefined();
    expect(result.code).toBe(0);
    expect(await until(() => !alive(pgPid!), 10_000)).toBe(true);
    expect(existsSync(path.join(dir, 'pg.owner'))).toBe(false);
  }, 60_000);
});
