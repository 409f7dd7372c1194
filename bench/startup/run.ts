// bench/startup: time from process start to the first 200 of /readyz, with a fresh data folder and
// with an existing one, and the resident memory after start (the server process and PostgreSQL's).
// Run: npm run bench:startup [-- --runs 5]
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const runsArg = process.argv.indexOf('--runs');
const RUNS = runsArg > 0 ? Number(process.argv[runsArg + 1]) : 3;
const PORT = 8299;

function memKiB(pid: number): { rss: number; pss: number } {
  const read = (file: string, key: string) => {
    try {
      const line = fs
        .readFileSync(`/proc/${pid}/${file}`, 'utf8')
        .split('\n')
        .find((l) => l.startsWith(key));
      return line ? Number(line.split(/\s+/)[1]) : 0;
    } catch {
      return 0;
    }
  };
  return { rss: read('status', 'VmRSS:'), pss: read('smaps_rollup', 'Pss:') };
}

/** The postmaster (from its pid file) and every process whose parent it is. */
function postgresPids(dataDir: string): number[] {
  const master = Number(fs.readFileSync(path.join(dataDir, 'pg', 'postmaster.pid'), 'utf8').split('\n')[0]);
  const children = fs
    .readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        const stat = fs.readFileSync(`/proc/${d}/stat`, 'utf8');
        return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) === master;
      } catch {
        return false;
      }
    })
    .map(Number);
  return [master, ...children];
}

async function startOnce(dataDir: string) {
  const started = performance.now();
  // What `npm start` runs (package.json): its flag, and scripts/start.ts (the web build's freshness check,
  // Node's compile cache) before the server.
  const child: ChildProcess = spawn(
    process.execPath,
    ['--max-semi-space-size=16', path.join(root, 'scripts/start.ts'), 'all'],
    {
      env: { ...process.env, DATA_DIR: dataDir, PORT: String(PORT), LOG_LEVEL: 'warn' },
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  for (;;) {
    try {
      const res = await fetch(`http://127.0.0.1:${PORT}/readyz`);
      if (res.status === 200) break;
    } catch {
      /* not listening yet */
    }
    if (child.exitCode !== null) throw new Error('server exited during start');
    await new Promise((r) => setTimeout(r, 10));
  }
  const readyMs = performance.now() - started;
  await new Promise((r) => setTimeout(r, 1000)); // let start-up work settle before measuring memory
  const server = memKiB(child.pid!);
  const pg = postgresPids(dataDir)
    .map(memKiB)
    .reduce((a, b) => ({ rss: a.rss + b.rss, pss: a.pss + b.pss }), { rss: 0, pss: 0 });
  child.kill('SIGTERM');
  await new Promise((r) => child.once('exit', r));
  return { readyMs, server, pg };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const fresh: Awaited<ReturnType<typeof startOnce>>[] = [];
const existing: Awaited<ReturnType<typeof startOnce>>[] = [];
for (let i = 0; i < RUNS; i++) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pacebeat-bench-startup-'));
  fs.chmodSync(dir, 0o755);
  fresh.push(await startOnce(dir));
  existing.push(await startOnce(dir));
  fs.rmSync(dir, { recursive: true, force: true });
}

const row = (name: string, rs: typeof fresh) =>
  `| ${name} | ${median(rs.map((r) => r.readyMs)).toFixed(0)} ms | ${(median(rs.map((r) => r.server.rss)) / 1024).toFixed(0)} MiB | ${(median(rs.map((r) => r.pg.rss)) / 1024).toFixed(0)} MiB | ${(median(rs.map((r) => r.pg.pss)) / 1024).toFixed(0)} MiB |`;
console.log(`Startup, median of ${RUNS} runs, ${os.cpus().length} cores, Node ${process.version}`);
console.log(
  '| data folder | start → first 200 of /readyz | server RSS | PostgreSQL RSS (sum) | PostgreSQL PSS (sum) |',
);
console.log('|---|---|---|---|---|');
console.log(row('fresh (initdb + migrations)', fresh));
console.log(row('existing', existing));
