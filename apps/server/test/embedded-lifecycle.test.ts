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
import { loadConfig } from '../src/config.ts';
import { openDatabase, type Database } from '../src/db/database.ts';
import { lockDataFolder, AlreadyRunningError } from '../src/db/embedded.ts';

const log = pino({ level: 'silent' });
const MAIN = fileURLToPath(new URL('../src/main.ts', import.meta.url));

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
