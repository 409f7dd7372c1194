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
//     [--users 1] [--serves 1]
//   (--profile: --cpu-prof of serve; --only: the bare route and these rows; --repeat: each measurement that
//   many times, the median shown with the spread, lowest to highest, beside it; --users N: N signed-in users,
//   each with a library of --tracks, whose turns the signed-in requests take one after another, as N status
//   pages polling would (one user's reads then come N requests apart, not back to back); --serves 2: a
//   second serve process on the same PostgreSQL, the signed-in load split between the two by two load
//   generators of --connections / 2 connections each, req/s summed)
import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
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
import { hashSecret } from '@pacebeat/server/src/accounts/session.service.ts';
import { freePort } from '@pacebeat/server/test/scaleout/cluster.ts';
import { seedLargeLibrary } from './seed.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '8' },
    tracks: { type: 'string', default: '10000' },
    profile: { type: 'string' },
    only: { type: 'string' },
    repeat: { type: 'string', default: '1' },
    users: { type: 'string', default: '1' },
    serves: { type: 'string', default: '1' },
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

/** A `serve` process (as `npm run serve` runs it) on the benchmark's PostgreSQL, its log in a file. */
async function startServe(n: number) {
  const port = await freePort();
  const log = await fs.open(path.join(dir, `serve${n}.log`), 'w');
  const origin = `http://127.0.0.1:${port}`;
  const child = spawn(
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
        TOKEN_ENCRYPTION_KEY: tokenKey,
        DATA_DIR: path.join(dir, `data${n}`),
        PORT: String(port),
        LOG_LEVEL: 'info',
      },
      // The request log goes straight to a file, as a supervisor would put it: piped through this process it
      // would cost the load generator a read and a write per request (and only the logged routes).
      stdio: ['ignore', log.fd, log.fd],
    },
  );
  await waitUntilServing(`${origin}/readyz`, child);
  return { child, origin, log };
}
const tokenKey = randomBytes(32).toString('hex');
const serves = [await startServe(1)];
const origin = serves[0]!.origin;
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

// --users: more users like the first (its row copied, a session each: sign-up's argon2 and its limits would
// take longer than the measurement), each with a library of their own.
const cookies = [cookie];
{
  const c = new pg.Client({ connectionString: pgServer.url });
  await c.connect();
  for (let i = 1; i < Number(values.users); i++) {
    const id = randomUUID();
    await c.query(
      `insert into users (id, email, name, password_hash, email_verified_at)
       select $1, $2, name, password_hash, email_verified_at from users where id = $3`,
      [id, `bench${i}@example.org`, userId],
    );
    const secret = randomBytes(32).toString('base64url');
    await c.query(
      `insert into sessions (id, user_id, expires_at, absolute_expires_at)
       values ($1, $2, now() + interval '1 day', now() + interval '1 day')`,
      [hashSecret(secret), id],
    );
    await seedLargeLibrary(pgServer.url, id, Number(values.tracks));
    cookies.push(`pacebeat_session=${secret}`);
  }
  await c.end();
}
for (let n = 2; n <= Number(values.serves); n++) serves.push(await startServe(n));

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
  // Every user's first read, on every serve process, before measuring: not what a poll costs later.
  if (r.signedIn)
    for (const s of serves)
      for (const c of cookies.slice(s === serves[0] ? 1 : 0)) {
        const first = await fetch(`${s.origin}${new URL(r.url).pathname}`, {
          headers: { ...headers, origin: s.origin, cookie: c },
        });
        if (first.status !== 200) throw new Error(`${r.name} at ${s.origin}: ${first.status}`);
      }
}

/** One load generator; signed in, its requests take the users' cookies in turn. */
function one(url: string, signedIn: boolean, o: { connections: number; overallRate?: number }) {
  let turn = 0;
  return autocannon({
    url,
    duration: seconds,
    headers: signedIn ? { ...headers, origin: new URL(url).origin, cookie } : {},
    ...(signedIn && cookies.length > 1
      ? {
          requests: [
            {
              setupRequest: (req: autocannon.Request) => ({
                ...req,
                headers: { ...req.headers, cookie: cookies[turn++ % cookies.length]! },
              }),
            },
          ],
        }
      : {}),
    ...o,
  });
}
type Result = Awaited<ReturnType<typeof autocannon>>;
/** The load on the route; signed in with --serves 2, split between the serve processes and summed. */
async function run(url: string, signedIn: boolean, o: { connections: number; overallRate?: number }) {
  if (!signedIn || serves.length === 1) return one(url, signedIn, o);
  const path = new URL(url).pathname;
  const each = {
    connections: Math.max(1, Math.round(o.connections / serves.length)),
    ...(o.overallRate ? { overallRate: o.overallRate / serves.length } : {}),
  };
  const results: Result[] = await Promise.all(serves.map((s) => one(`${s.origin}${path}`, true, each)));
  const sum = (f: (r: Result) => number) => results.reduce((n, r) => n + f(r), 0);
  // Latency: the worse of the generators' (their requests are not merged).
  const worst = (f: (r: Result) => number) => Math.max(...results.map(f));
  return {
    requests: { average: sum((r) => r.requests.average), total: sum((r) => r.requests.total) },
    latency: { p50: worst((r) => r.latency.p50), p99: worst((r) => r.latency.p99) },
    errors: sum((r) => r.errors),
    non2xx: sum((r) => r.non2xx),
  };
}

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
  const pids = r === routes[0] ? [bare.pid!] : serves.map((s) => s.child.pid!);
  const cpuAll = async () => (await Promise.all(pids.map(cpuMs))).reduce((a, b) => a + b, 0);
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
    const cpuBefore = await cpuAll();
    const clientBefore = process.cpuUsage();
    const full = await run(r.url, r.signedIn, { connections: 10 });
    const client = process.cpuUsage(clientBefore);
    cpuPerRequest += ((await cpuAll()) - cpuBefore) / full.requests.total / repeat;
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

bare.kill('SIGTERM');
for (const s of serves) {
  s.child.kill('SIGTERM');
  await new Promise((r) => s.child.once('exit', r));
  await s.log.close();
}
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
    `\n${os.cpus().length} cores, ${seconds} s per run, ${repeat} run(s) each${repeat > 1 ? ' (median, and lowest–highest)' : ''}, 10 connections, Node ${process.version}, ${cookies.length} user(s) of ${values.tracks} tracks, ${serves.length} serve process(es)`,
    line(head),
    `|${width.map((w, i) => (i === 0 ? '-'.repeat(w + 2) : '-'.repeat(w + 1) + ':')).join('|')}|`,
    ...rows.map(line),
  ].join('\n'),
);
