// API load: in one run, side by side, a bare Fastify JSON route, GET /healthz, and signed in GET /api/whoami,
// /api/spotify/targets and /api/spotify/sources for a user with a large library (seed.ts), each served by a
// real `serve` process (main.ts) on a real PostgreSQL. For each: requests per second at full load (autocannon,
// 10 connections), p50/p99 latency and errors, the ratio to the bare route, and p99 at a steady 500 req/s.
// Not a test.
//
// Also the CPU time the serving process spent per request at full load (from /proc: a figure the machine's
// other load does not change much, unlike req/s), and the load generator's own (autocannon runs in this
// process: when it nears 1 s per s, the client, not the server, sets the pace).
//
//   node bench/api-load/run.ts [--seconds 8] [--tracks 10000] [--repeat 3] [--profile DIR] [--only whoami,targets]
//   (--profile: --cpu-prof of serve; --only: the bare route and these rows; --repeat: each measurement that
//   many times, the median shown with the spread, lowest to highest, beside it)
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import autocannon from 'autocannon';
import pg from 'pg';
import pino from 'pino';
import { createDb } from '@pacebeat/server/src/db/client.ts';
import { startEmbeddedPostgres } from '@pacebeat/server/src/db/embedded.ts';
import { runMigrations } from '@pacebeat/server/src/db/migrate.ts';
import { freePort } from '@pacebeat/server/test/scaleout/cluster.ts';
import { seedLargeLibrary } from './seed.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '8' },
    tracks: { type: 'string', default: '10000' },
    profile: { type: 'string' },
    only: { type: 'string' },
    repeat: { type: 'string', default: '1' },
  },
});
const seconds = Number(values.seconds);
const repeat = Math.max(1, Number(values.repeat));
const here = path.dirname(fileURLToPath(import.meta.url));
const repoRoot = path.resolve(here, '../..');

function waitForLine(child: ChildProcess, re: RegExp): Promise<string> {
  return new Promise((resolve, reject) => {
    let buf = '';
    child.stdout!.on('data', (d: Buffer) => {
      buf += d.toString();
      const m = buf.split('\n').find((l) => re.test(l));
      if (m) resolve(m);
    });
    child.once('exit', (code) => reject(new Error(`exited ${code}: ${buf.slice(-2000)}`)));
  });
}

/** Polls the URL until it answers 200 (or the process exits). */
async function waitUntilServing(url: string, child: ChildProcess): Promise<void> {
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  for (;;) {
    if (exited !== undefined) throw new Error(`serve exited ${exited}`);
    const ok = await fetch(url).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((r) => setTimeout(r, 100));
  }
}

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacebeat-api-load-'));
await fs.chmod(dir, 0o755);
const pgServer = await startEmbeddedPostgres(path.join(dir, 'pg'), pino({ level: 'silent' }));
const h = createDb(pgServer.url);
await runMigrations(h);
await h.close();

const bare = spawn(process.execPath, [path.join(here, 'bare-server.ts')], {
  stdio: ['ignore', 'pipe', 'inherit'],
});
const barePort = Number(/on (\d+)/.exec(await waitForLine(bare, /bare listening/))![1]);

const port = await freePort();
const serveLog = await fs.open(path.join(dir, 'serve.log'), 'w');
const origin = `http://127.0.0.1:${port}`;
const serve = spawn(
  process.execPath,
  [
    ...(values.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values.profile)}`] : []),
    '--max-semi-space-size=16', // as `npm run serve` runs it
    path.join(repoRoot, 'apps/server/src/app/main.ts'),
    'serve',
  ],
  {
    env: {
      PATH: process.env['PATH'] ?? '',
      DATABASE_URL: pgServer.url,
      SPOTIFY_CLIENT_ID: 'pacebeatbench01',
      TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      DATA_DIR: path.join(dir, 'data'),
      PORT: String(port),
      LOG_LEVEL: 'info',
    },
    // The request log goes straight to a file, as a supervisor would put it: piped through this process it
    // would cost the load generator a read and a write per request (and only the logged routes).
    stdio: ['ignore', serveLog.fd, serveLog.fd],
  },
);
await waitUntilServing(`${origin}/readyz`, serve);

const headers = { origin, 'sec-fetch-site': 'same-origin', 'content-type': 'application/json' };
const signup = await fetch(`${origin}/api/signup`, {
  method: 'POST',
  headers,
  body: JSON.stringify({ email: 'bench@example.org', name: 'Bench', password: 'run4fun!bench' }),
});
if (!signup.ok) throw new Error(`signup ${signup.status}: ${await signup.text()}`);
const cookie = signup.headers
  .getSetCookie()
  .find((c) => c.startsWith('pacebeat_session='))!
  .split(';')[0]!;
const db = new pg.Client({ connectionString: pgServer.url });
await db.connect();
const userId = (await db.query(`select id from users where email = 'bench@example.org'`)).rows[0]
  .id as string;
await db.end();
await seedLargeLibrary(pgServer.url, userId, Number(values.tracks));

const routes = [
  { name: 'bare Fastify JSON', url: `http://127.0.0.1:${barePort}/bare`, signedIn: false },
  { name: 'GET /healthz', url: `${origin}/healthz`, signedIn: false },
  { name: 'GET /api/whoami', url: `${origin}/api/whoami`, signedIn: true },
  { name: 'GET /api/spotify/targets', url: `${origin}/api/spotify/targets`, signedIn: true },
  { name: 'GET /api/spotify/sources', url: `${origin}/api/spotify/sources`, signedIn: true },
];
const only = values.only?.split(',');
const chosen = routes.filter((r, i) => i === 0 || !only || only.some((o) => r.name.endsWith(`/${o}`)));
for (const r of chosen) {
  const res = await fetch(r.url, { headers: r.signedIn ? { ...headers, cookie } : {} });
  if (res.status !== 200) throw new Error(`${r.name}: ${res.status} ${await res.text()}`);
  console.log(`${r.name}: ${(await res.text()).length} bytes`);
}

const run = (url: string, signedIn: boolean, o: { connections: number; overallRate?: number }) =>
  autocannon({ url, duration: seconds, headers: signedIn ? { ...headers, cookie } : {}, ...o });

/** User plus system CPU time of a process so far, in milliseconds (Linux /proc; clock ticks of 10 ms). */
async function cpuMs(pid: number): Promise<number> {
  const stat = await fs.readFile(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10; // utime, stime (fields 14 and 15)
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor((xs.length - 1) / 2)]!;
/** The median of the runs, and with more than one run their spread: `7 (5–12)`. */
const spread = (xs: number[], digits = 0) =>
  xs.length === 1
    ? xs[0]!.toFixed(digits)
    : `${median(xs).toFixed(digits)} (${Math.min(...xs).toFixed(digits)}–${Math.max(...xs).toFixed(digits)})`;

const rows: string[][] = [];
let bareRps = 0;
for (const r of chosen) {
  const pid = (r === routes[0] ? bare : serve).pid!;
  const runs: Array<{
    rps: number;
    p50: number;
    p99: number;
    steady: { rps: number; p50: number; p99: number };
  }> = [];
  let cpuPerRequest = 0;
  let clientPerRequest = 0;
  let errors = 0;
  for (let i = 0; i < repeat; i++) {
    const cpuBefore = await cpuMs(pid);
    const clientBefore = process.cpuUsage();
    const full = await run(r.url, r.signedIn, { connections: 10 });
    const client = process.cpuUsage(clientBefore);
    cpuPerRequest += ((await cpuMs(pid)) - cpuBefore) / full.requests.total / repeat;
    clientPerRequest += (client.user + client.system) / 1000 / full.requests.total / repeat;
    const steady = await run(r.url, r.signedIn, { connections: 10, overallRate: 500 });
    errors += full.errors + full.non2xx + steady.errors + steady.non2xx;
    runs.push({
      rps: full.requests.average,
      p50: full.latency.p50,
      p99: full.latency.p99,
      steady: { rps: steady.requests.average, p50: steady.latency.p50, p99: steady.latency.p99 },
    });
  }
  const rps = runs.map((x) => x.rps);
  if (!bareRps) bareRps = median(rps);
  rows.push([
    r.name,
    spread(rps),
    `${median(runs.map((x) => x.p50))} / ${spread(runs.map((x) => x.p99))}`,
    `${((100 * median(rps)) / bareRps).toFixed(1)} %`,
    `${median(runs.map((x) => x.steady.rps)).toFixed(0)}: ${median(runs.map((x) => x.steady.p50))} / ${spread(runs.map((x) => x.steady.p99))}`,
    (cpuPerRequest * 1000).toFixed(0),
    (clientPerRequest * 1000).toFixed(0),
    String(errors),
  ]);
  console.log(rows.at(-1)!.join('  '));
}

serve.kill('SIGTERM');
bare.kill('SIGTERM');
await new Promise((r) => serve.once('exit', r));
await serveLog.close();
await pgServer.stop();
await fs.rm(dir, { recursive: true, force: true });

const head = [
  'route',
  'req/s',
  'p50 / p99 ms',
  'of bare',
  'at 500 req/s: req/s: p50 / p99 ms',
  'server CPU µs/req',
  'client CPU µs/req',
  'errors',
];
const width = head.map((x, i) => Math.max(x.length, ...rows.map((r) => r[i]!.length)));
const line = (r: string[]) =>
  `| ${r.map((v, i) => (i === 0 ? v.padEnd(width[i]!) : v.padStart(width[i]!))).join(' | ')} |`;
console.log(
  [
    `\n${os.cpus().length} cores, ${seconds} s per run, ${repeat} run(s) each${repeat > 1 ? ' (median, and lowest–highest)' : ''}, 10 connections, Node ${process.version}`,
    line(head),
    `|${width.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|')}|`,
    ...rows.map(line),
  ].join('\n'),
);
