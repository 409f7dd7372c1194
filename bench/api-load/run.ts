// API load: in one run, side by side, a bare Fastify JSON route, GET /healthz, and signed in GET /api/whoami,
// /api/spotify/targets and /api/spotify/sources for a user with a large library (seed.ts), each served by a
// real `serve` process (main.ts) on a real PostgreSQL. For each: requests per second at full load (autocannon,
// 10 connections), p50/p99 latency and errors, the ratio to the bare route, and p99 at a steady 500 req/s.
// Not a test.
//
//   node bench/api-load/run.ts [--seconds 8] [--tracks 10000] [--profile DIR]   (--profile: --cpu-prof of serve)
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream } from 'node:fs';
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
  },
});
const seconds = Number(values.seconds);
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
const origin = `http://127.0.0.1:${port}`;
const serve = spawn(
  process.execPath,
  [
    ...(values.profile ? ['--cpu-prof', `--cpu-prof-dir=${path.resolve(values.profile)}`] : []),
    '--max-semi-space-size=16', // as `npm run serve` runs it
    path.join(repoRoot, 'apps/server/src/main.ts'),
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
    stdio: ['ignore', 'pipe', 'pipe'],
  },
);
const serveLog = createWriteStream(path.join(dir, 'serve.log'));
serve.stderr!.pipe(serveLog);
await waitForLine(serve, /Server listening/);
serve.stdout!.pipe(serveLog); // the request log goes where a supervisor would put it: a file

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
for (const r of routes) {
  const res = await fetch(r.url, { headers: r.signedIn ? { ...headers, cookie } : {} });
  if (res.status !== 200) throw new Error(`${r.name}: ${res.status} ${await res.text()}`);
  console.log(`${r.name}: ${(await res.text()).length} bytes`);
}

const run = (url: string, signedIn: boolean, o: { connections: number; overallRate?: number }) =>
  autocannon({ url, duration: seconds, headers: signedIn ? { ...headers, cookie } : {}, ...o });

const rows: string[][] = [];
let bareRps = 0;
for (const r of routes) {
  const full = await run(r.url, r.signedIn, { connections: 10 });
  const steady = await run(r.url, r.signedIn, { connections: 10, overallRate: 500 });
  if (!bareRps) bareRps = full.requests.average;
  const errors = full.errors + full.non2xx + steady.errors + steady.non2xx;
  rows.push([
    r.name,
    full.requests.average.toFixed(0),
    `${full.latency.p50} / ${full.latency.p99}`,
    `${((100 * full.requests.average) / bareRps).toFixed(1)} %`,
    `${steady.requests.average.toFixed(0)}: ${steady.latency.p50} / ${steady.latency.p99}`,
    String(errors),
  ]);
  console.log(rows.at(-1)!.join('  '));
}

serve.kill('SIGTERM');
bare.kill('SIGTERM');
await new Promise((r) => serve.once('exit', r));
await pgServer.stop();
await fs.rm(dir, { recursive: true, force: true });

const head = ['route', 'req/s', 'p50 / p99 ms', 'of bare', 'at 500 req/s: req/s: p50 / p99 ms', 'errors'];
const width = head.map((x, i) => Math.max(x.length, ...rows.map((r) => r[i]!.length)));
const line = (r: string[]) =>
  `| ${r.map((v, i) => (i === 0 ? v.padEnd(width[i]!) : v.padStart(width[i]!))).join(' | ')} |`;
console.log(
  [
    `\n${os.cpus().length} cores, ${seconds} s per run, 10 connections, Node ${process.version}`,
    line(head),
    `|${width.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|')}|`,
    ...rows.map(line),
  ].join('\n'),
);
