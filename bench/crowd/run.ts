// A thousand runners: how Pacebeat's cost grows with the crowd, on an extended-quota
// installation. The scale-out shape (1 `serve` + 3 `work` processes on one PostgreSQL, the cluster of
// apps/server/test/scaleout), one simulated world in extended-quota semantics shared by all (no daily
// quota, its rolling rate limit), a crowd whose libraries share artists by Zipf's law, arriving as a storm,
// each connecting and keeping the status page open. Prints figures; it does not pass or fail.
//
//   node bench/crowd/run.ts --runners 100 [--storm-minutes 10] [--settle-minutes 5] [--liked 20]
//     [--followed 3] [--favourites 8] [--preview-rate 1] [--serve-pool 10] [--serves 1] [--proxy]
//     [--work-nice N] [--sandbox-nice N] [--json FILE]
//   node bench/crowd/run.ts --table A.json --table B.json …   (sizes side by side)
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pino from 'pino';
import pg from 'pg';
import { freePort, startCluster } from '@pacebeat/server/test/scaleout/cluster.ts';
import { startEmbeddedPostgres } from '@pacebeat/server/src/db/embedded.ts';
import { CEILINGS } from '@pacebeat/server/src/spotify/budget.ts';
import { TempoConfigSchema } from '@pacebeat/server/src/tempo/tempo.config.ts';
import { AppClient } from '../lifecycle/app-client.ts';
import { describeTree } from '../lifecycle/snapshot.ts';
import { callHarvester } from './calls.ts';
import { postgresCpuSeconds, probe, treeCpuSeconds, type Sample } from './probes.ts';
import { outsideBound, outsidePaces, summarize, sideBySide, timeline, type CrowdResult } from './report.ts';
import { plannedArrivals, runnerLife, type Read, type RunnerRecord } from './runner.ts';
import { serverMinutes, serverTimes } from './server-times.ts';
import { PREVIEW_DISK_CACHE } from '../shared/preview-cache.ts';
import { writerRuns } from '../shared/writer-runs.ts';
import { fmt, percentile } from './stats.ts';

const { values: opt } = parseArgs({
  options: {
    runners: { type: 'string', default: '10' },
    /** The storm: a tenth of the runners in the first minute, the rest over this many minutes (an hour, compressed). */
    'storm-minutes': { type: 'string', default: '10' },
    /** Minutes the status pages stay open after the last arrival. */
    'settle-minutes': { type: 'string', default: '5' },
    liked: { type: 'string', default: '20' },
    followed: { type: 'string', default: '3' },
    favourites: { type: 'string', default: '8' },
    size: { type: 'string', default: 'default' },
    seed: { type: 'string', default: '20261127' },
    /** Preview downloads per second for the audio estimator, all processes together (product default 8). */
    'preview-rate': { type: 'string', default: '1' },
    works: { type: 'string', default: '3' },
    /** The serve process's DATABASE_POOL_SIZE (default: the product's, 10). */
    'serve-pool': { type: 'string' },
    /** How many serve processes; more than one stand behind nginx (round robin). */
    serves: { type: 'string', default: '1' },
    /** nginx in front of even one serve process (the same path as with two). */
    proxy: { type: 'boolean', default: false },
    /** CPU niceness of the work processes (`nice -n`): the serve processes answer first on shared cores. */
    'work-nice': { type: 'string' },
    /** CPU niceness of the simulated world, which stands in for services on other machines. */
    'sandbox-nice': { type: 'string' },
    /** PostgreSQL, the sandbox and the serve process take the first free ports from here. */
    'port-from': { type: 'string', default: '47400' },
    json: { type: 'string' },
    table: { type: 'string', multiple: true },
    /** With --table: read the serve process's request times from each run's log folder when missing. */
    'server-times': { type: 'boolean', default: false },
  },
});

if (opt.table) {
  const runs = await Promise.all(
    opt.table.map(async (f) => JSON.parse(await fs.readFile(f, 'utf8')) as CrowdResult),
  );
  if (opt['server-times'])
    for (const r of runs) {
      r.serverReads ??= serverTimes(r.logDir);
      r.serverMinutes ??= serverMinutes(r.logDir);
    }
  // Runs from before the outside paces' bound was kept: computed from what they kept (the planned
  // arrivals, the product's default paces and the run's preview rate).
  for (const r of runs)
    if (!r.outsideBound && r.calls.outsideByRoute)
      r.outsideBound = outsideBound(
        Object.entries(r.calls.outsideByRoute),
        r.writer?.placed,
        plannedArrivals(r.runners, Number(r.options['storm-minutes']) * 60_000),
        outsidePaces(TempoConfigSchema.parse({ PREVIEW_RATE_PER_SECOND: r.options['preview-rate'] })),
      );
  process.stdout.write(`${sideBySide(runs)}\n`);
  process.exit(0);
}

const N = Number(opt.runners);
// The product measured: the tree as the processes start (others may commit while a run goes on).
const COMMIT = describeTree(path.resolve(import.meta.dirname, '../..'));
const STORM_MS = Number(opt['storm-minutes']) * 60_000;
const SETTLE_MS = Number(opt['settle-minutes']) * 60_000;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const t0 = Date.now();
const say = (s: string) =>
  process.stderr.write(`[${((Date.now() - t0) / 1000).toFixed(0).padStart(5)} s] ${s}\n`);

// PostgreSQL with pg_stat_statements preloaded: initialised and configured first, then the cluster starts
// the same data folder (its `<logDir>/pg`).
const logDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacebeat-crowd-'));
await fs.chmod(logDir, 0o755);
const PORT_FROM = Number(opt['port-from']);
const first = await startEmbeddedPostgres(path.join(logDir, 'pg'), pino({ level: 'silent' }), {
  port: await freePort(PORT_FROM),
});
const setup = new pg.Client({ connectionString: first.adminUrl });
await setup.connect();
await setup.query(`alter system set shared_preload_libraries = 'pg_stat_statements'`);
await setup.end();
await first.stop();

const env: Record<string, string> = {
  // Extended quota: no daily quota; the rolling rate limit stays at the product's default.
  SPOTIFY_DAILY_QUOTA: 'unlimited',
  // The audio estimator's share, turned down for 2 cores (product default 8 previews a second).
  PREVIEW_RATE_PER_SECOND: opt['preview-rate'],
  // Every runner signs up and connects from the benchmark's one address.
  SIGNUP_MAX_PER_ADDRESS: '1000000',
  CONNECT_MAX_PER_ADDRESS: '1000000',
};
const c = await startCluster({
  works: Number(opt.works),
  logDir,
  portFrom: PORT_FROM,
  sandboxArgs: [
    '--extended-quota',
    '--size',
    opt.size,
    '--seed',
    opt.seed,
    '--transient-failures',
    '0.005',
    '--preview-cache',
    PREVIEW_DISK_CACHE,
  ],
  env,
  serveEnv: opt['serve-pool'] ? { DATABASE_POOL_SIZE: opt['serve-pool'] } : {},
  serves: Number(opt.serves),
  proxy: opt.proxy,
  nice: {
    work: opt['work-nice'] ? Number(opt['work-nice']) : undefined,
    sandbox: opt['sandbox-nice'] ? Number(opt['sandbox-nice']) : undefined,
  },
});
const adminUrl = new URL(first.adminUrl);
adminUrl.port = new URL(c.databaseUrl).port;
const db = probe(adminUrl.toString());
{
  const ext = new pg.Client({ connectionString: adminUrl.toString() });
  await ext.connect();
  await ext.query('create extension if not exists pg_stat_statements');
  await ext.end();
}
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => void c.close().finally(() => process.exit(130)));
say(
  `cluster up: ${c.serves.length} serve at ${c.appUrl}, ${c.works.length} work, sandbox ${c.sandboxUrl}, logs ${logDir}`,
);

const { ids } = await c.admin<{ ids: string[] }>('POST', '/crowd', {
  count: N,
  prefix: 'runner',
  liked: Number(opt.liked),
  followedArtists: Number(opt.followed),
  favouriteArtists: Number(opt.favourites),
});
const arrivals = plannedArrivals(N, STORM_MS);
const records: RunnerRecord[] = ids.map((spotifyUser, i) => ({
  spotifyUser,
  arrival: arrivals[i]!,
  placed: 0,
}));
const emptyDbMb = await db.dbSizeMb();
await db.resetStatements();

type PreviewStats = { generated: number; fromDisk: number };
const previews0 = await c.admin<PreviewStats>('GET', '/previews');
const start = Date.now();
const reads: Read[] = [];
const app = new AppClient(c.appUrl);
let over = false;
const calls = callHarvester(c.admin, start);
const samples: Sample[] = [];
const pids = () => ({
  ...Object.fromEntries(c.serves.map((s) => [s.name, s.pid()])),
  ...Object.fromEntries(c.works.map((w) => [w.name, w.pid()])),
  sandbox: c.sandboxPid(),
});
// CPU time of what is not one process of the cluster: PostgreSQL's (every backend) and the benchmark's own.
const otherCpu = () => {
  const own = process.cpuUsage();
  return {
    postgres: postgresCpuSeconds(path.join(logDir, 'pg')),
    ...(c.proxyPid() ? { nginx: treeCpuSeconds(c.proxyPid()) } : {}),
    benchmark: (own.user + own.system) / 1e6,
  };
};
const sampler = setInterval(() => {
  void db
    .sample((Date.now() - start) / 1000, pids(), otherCpu())
    .then((s) => samples.push(s))
    .catch((err: unknown) => say(`sample failed: ${String(err)}`));
}, 10_000);
const lives = records.map((r) => runnerLife({ app, t0: start, reads, done: () => over }, r));
const endAt = start + 60_000 + STORM_MS + SETTLE_MS;
say(
  `${N} runners: a tenth in the first minute, the rest over ${STORM_MS / 60_000} min; pages open until +${(endAt - start) / 60_000} min`,
);
while (Date.now() < endAt) {
  await sleep(Math.min(60_000, endAt - Date.now()));
  const connected = records.filter((r) => r.connectedAt !== undefined).length;
  const reached = records.filter((r) => r.firstNMs !== undefined).length;
  const last = samples[samples.length - 1];
  // The status reads of the last minute (as the runners saw them) and who held PostgreSQL connections.
  const minute = reads.filter((r) => r.at >= Date.now() - start - 60_000).map((r) => r.ms);
  const held = Object.entries(last?.activity ?? {})
    .filter(([k]) => !k.endsWith('/idle'))
    .map(([k, n]) => `${k} ${n}`)
    .join(', ');
  say(
    `connected ${connected}/${N}, ${reached} with 50 placed; Spotify calls ${calls.log.total} (429: ${calls.log.refused429}); ` +
      `queued ${JSON.stringify(last?.queued ?? {})}; tempo known ${last?.tempoKnown ?? '-'}; ` +
      `reads ${minute.length} p50/p99 ${fmt(percentile(minute, 50))}/${fmt(percentile(minute, 99))} ms; pg ${held}`,
  );
}
over = true;
await Promise.all(lives);
clearInterval(sampler);
await calls.stop();
samples.push(await db.sample((Date.now() - start) / 1000, pids(), otherCpu()));
const previews1 = await c.admin<PreviewStats>('GET', '/previews');

const result: CrowdResult = summarize({
  runners: N,
  commit: COMMIT,
  options: { ...opt, table: undefined },
  stormMs: STORM_MS,
  settleMs: SETTLE_MS,
  records,
  reads,
  calls: calls.log,
  placed: await db.placedSongs(),
  writerCalls: await db.writerCalls(),
  // The product's default rate (SPOTIFY_RATE_PER_30S, 100) at the highest ceiling below connects'.
  firstSongsPerMinute: 2 * 100 * CEILINGS.playlist_write.rate,
  outsidePaces: outsidePaces(TempoConfigSchema.parse(env)),
  standInPreviews: {
    synthesised: previews1.generated - previews0.generated,
    fromDisk: previews1.fromDisk - previews0.fromDisk,
  },
  deezerByClass: await db.deezerByClass(new Date(start + 60_000 + STORM_MS)),
  samples,
  dbMb: await db.dbSizeMb(),
  emptyDbMb,
  top: await db.topStatements(),
  seconds: (Date.now() - start) / 1000,
  logDir,
});
await db.close();
await c.close();
result.serverReads = serverTimes(logDir);
result.serverMinutes = serverMinutes(logDir, start);
result.writerRuns = writerRuns(
  (await fs.readdir(logDir)).filter((f) => /^work.*\.log$/.test(f)).map((f) => path.join(logDir, f)),
);
process.stdout.write(
  `${sideBySide([result])}\n\n${timeline(samples)}\n\nTop statements (pg_stat_statements):\n`,
);
process.stdout.write(
  `Status reads' p99 in serve by minute (ms): ${result.serverMinutes.map((m) => `${m.minute} ${m.p99 ?? '-'}`).join(', ')}\n`,
);
for (const t of result.top)
  process.stdout.write(`  ${t.totalMs} ms in ${t.calls} calls (mean ${t.meanMs} ms): ${t.query}\n`);
process.stdout.write(`Web API calls by route: ${JSON.stringify(result.calls.byRoute)}\n`);
process.stdout.write(`Calls by service: ${JSON.stringify(result.calls.byService)}\n`);
process.stdout.write(`Other services' calls by route: ${JSON.stringify(result.calls.outsideByRoute)}\n`);
process.stdout.write(
  `  of them asked before (same path and query): ${JSON.stringify(result.calls.outsideRepeats)}\n`,
);
process.stdout.write(`  of them failed: ${JSON.stringify(result.calls.outsideFailed)}\n`);
for (const e of result.connectErrors) process.stdout.write(`connect error: ${e}\n`);
if (opt.json) await fs.writeFile(opt.json, JSON.stringify(result, null, 1));
say(`done; logs in ${logDir}`);
