// Resolver benchmark: the large simulated user's liked songs through the tempo resolver, against the
// simulated services at their real rate limits. Prints how many tracks get a tempo, from which
// source, outside requests per resolved track, and the share right for running (within 4 % of the
// world's true tempo after ×1, ×2 or ×½). The simulated services have their realistic metadata errors
// and a realistic background of transient failures (--no-transient-failures turns it off). Not a test.
//
//   node bench/tempo-resolver/run.ts [--tracks 1500] [--workers 3] [--size large] [--user max.miles]
//                                    [--no-getsongbpm] [--no-transient-failures]
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { REALISTIC_TRANSIENT_SHARE, startSandbox } from '@pacebeat/sandbox';
import type { WorldSize } from '@pacebeat/sandbox/world/sizes';
import { createDb } from '@pacebeat/server/src/db/client.ts';
import { startEmbeddedPostgres } from '@pacebeat/server/src/db/embedded.ts';
import { runMigrations } from '@pacebeat/server/src/db/migrate.ts';
import { createEstimatorPool } from '@pacebeat/server/src/tempo/estimator/index.ts';
import { TempoConfigSchema } from '@pacebeat/server/src/tempo/tempo.config.ts';
import { createTempoModule } from '@pacebeat/server/src/tempo/tempo.module.ts';
import type { TempoAnswer, TrackInput } from '@pacebeat/server/src/tempo/tempo.service.ts';
import { acc1, accRun } from '../tempo-accuracy/metrics.ts';

const args = process.argv.slice(2);
const option = (name: string, fallback: string) => {
  const i = args.indexOf(name);
  return i >= 0 ? (args[i + 1] ?? fallback) : fallback;
};
const TRACKS = Number(option('--tracks', '1500'));
const SIZE = option('--size', 'large') as WorldSize;
const USER = option('--user', 'max.miles');
const BATCH = 50; // TEMPO_BATCH of the tempo-lookup job
const WORKERS = Number(option('--workers', '3'));
const log = (s: string) => process.stderr.write(`${s}\n`);

const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacebeat-bench-tempo-'));
await fs.chmod(dir, 0o755);
const pg = await startEmbeddedPostgres(path.join(dir, 'pg'), pino({ level: 'silent' }));
const handle = createDb(pg.url, { max: 6 });
await runMigrations(handle);
const sandbox = await startSandbox({
  size: SIZE,
  transientFailures: args.includes('--no-transient-failures') ? 0 : REALISTIC_TRANSIENT_SHARE,
});
const pool = createEstimatorPool();

try {
  const world = sandbox.world;
  const user = world.user(USER);
  if (!user) throw new Error(`no user ${USER} in the ${SIZE} world`);
  // A deterministic spread over the whole library: every k-th liked song.
  const step = Math.max(1, Math.floor(user.liked.length / TRACKS));
  const facts = user.liked
    .filter((_, i) => i % step === 0)
    .slice(0, TRACKS)
    .map((l) => world.trackFacts(l.g));
  const tracks: TrackInput[] = facts.map(({ bpm: _truth, ...track }) => track);
  const truth = new Map(facts.map((f) => [f.spotifyId, f.bpm]));

  const requests = new Map<string, number>();
  let estimates = 0;
  let estimateMs = 0;
  const config = TempoConfigSchema.parse({
    DEEZER_API_URL: sandbox.baseUrls.deezer,
    RECCOBEATS_API_URL: sandbox.baseUrls.reccobeats,
    GETSONGBPM_API_URL: sandbox.baseUrls.getsongbpm,
    GETSONGBPM_API_KEY: args.includes('--no-getsongbpm') ? '' : 'sandbox-key',
  });
  const tempo = createTempoModule(handle.db, {
    config,
    onRequest: (s) => requests.set(s, (requests.get(s) ?? 0) + 1),
    // The product's path: decode and estimate on the estimator's worker threads.
    estimatePreview: async (mp3) => {
      const t0 = performance.now();
      const e = await pool.estimateFromMp3(mp3);
      estimates++;
      estimateMs += performance.now() - t0;
      return e;
    },
  });

  log(
    `${tracks.length} liked songs of ${USER} (${SIZE} world, ${user.liked.length} liked in all), batches of ${BATCH}, ${WORKERS} workers`,
  );
  const t0 = performance.now();
  const answers = new Map<string, TempoAnswer>();
  let queue = tracks;
  let rounds = 0;
  while (queue.length > 0 && rounds < 20) {
    rounds++;
    const deferred: TrackInput[] = [];
    let wakeAt = 0;
    // WORKERS batches in flight, as that many job workers would run them.
    let next = 0;
    const worker = async () => {
      while (next < queue.length) {
        const batch = queue.slice(next, next + BATCH);
        next += BATCH;
        const got = await tempo.service.resolveTempos(batch);
        for (const t of batch) {
          const a = got.get(t.spotifyId) as TempoAnswer;
          if (a.status === 'deferred') {
            deferred.push(t);
            wakeAt = Math.max(wakeAt, a.retryAt?.getTime() ?? 0);
          } else answers.set(t.spotifyId, a);
        }
        log(
          `  ${answers.size}/${tracks.length} answered, ${deferred.length} deferred, ${((performance.now() - t0) / 1000).toFixed(0)} s`,
        );
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, worker));
    queue = deferred;
    // What the pg-boss job does with startAfter: wait until the service may be asked again.
    if (queue.length > 0) await new Promise((r) => setTimeout(r, Math.max(0, wakeAt - Date.now())));
  }
  const seconds = (performance.now() - t0) / 1000;

  // A second pass: everything from the shared cache, no outside request.
  const before = [...requests.values()].reduce((a, b) => a + b, 0);
  const t1 = performance.now();
  for (let i = 0; i < tracks.length; i += BATCH)
    await tempo.service.resolveTempos(tracks.slice(i, i + BATCH));
  const cachedSeconds = (performance.now() - t1) / 1000;
  const cachedRequests = [...requests.values()].reduce((a, b) => a + b, 0) - before;

  const bySource = new Map<string, { n: number; right: number; exact: number; confSum: number }>();
  let unknown = 0;
  const reasons = new Map<string, number>();
  for (const t of tracks) {
    const a = answers.get(t.spotifyId);
    if (!a || a.bpm === null) {
      unknown++;
      const r = (a?.reason ?? 'deferred past the benchmark').split('; ').at(-1) as string;
      const k = r.replace(/\d+(\.\d+)?/g, '#');
      reasons.set(k, (reasons.get(k) ?? 0) + 1);
      continue;
    }
    const s = bySource.get(a.source ?? '?') ?? { n: 0, right: 0, exact: 0, confSum: 0 };
    const tt = truth.get(t.spotifyId) as number;
    s.n++;
    s.confSum += a.confidence;
    if (accRun(a.bpm, tt)) s.right++;
    if (acc1(a.bpm, tt)) s.exact++;
    bySource.set(a.source ?? '?', s);
  }
  const resolved = tracks.length - unknown;
  const pct = (a: number, b: number) => (b === 0 ? '-' : `${((100 * a) / b).toFixed(1)} %`);
  const pad = (s: string, n: number) => s.padEnd(n);
  const lines: string[] = [];
  lines.push(`Tempo resolver on the ${SIZE} world, user ${USER}: ${tracks.length} tracks`);
  lines.push('');
  lines.push(
    `| ${pad('source', 12)} | tracks | share   | right for running | exact (×1) | mean confidence |`,
  );
  lines.push(`|${'-'.repeat(14)}|--------|---------|-------------------|------------|-----------------|`);
  const order = ['spotify', 'reccobeats', 'deezer', 'getsongbpm', 'estimator'];
  let right = 0;
  for (const src of order) {
    const s = bySource.get(src);
    if (!s) continue;
    right += s.right;
    lines.push(
      `| ${pad(src, 12)} | ${String(s.n).padStart(6)} | ${pad(pct(s.n, tracks.length), 7)} | ${pad(pct(s.right, s.n), 17)} | ${pad(pct(s.exact, s.n), 10)} | ${pad((s.confSum / s.n).toFixed(2), 15)} |`,
    );
  }
  lines.push(
    `| ${pad('unknown', 12)} | ${String(unknown).padStart(6)} | ${pad(pct(unknown, tracks.length), 7)} | ${pad('', 17)} | ${pad('', 10)} | ${pad('', 15)} |`,
  );
  lines.push(
    `| ${pad('all resolved', 12)} | ${String(resolved).padStart(6)} | ${pad(pct(resolved, tracks.length), 7)} | ${pad(pct(right, resolved), 17)} | ${pad('', 10)} | ${pad('', 15)} |`,
  );
  lines.push('');
  const total = [...requests.values()].reduce((a, b) => a + b, 0) - cachedRequests;
  lines.push(
    `Outside requests: ${total} in all, ${(total / Math.max(1, resolved)).toFixed(2)} per resolved track`,
  );
  for (const [s, n] of [...requests.entries()].sort()) {
    lines.push(
      `  ${pad(s, 14)} ${String(n).padStart(6)}  (${(n / Math.max(1, resolved)).toFixed(3)} per resolved track)`,
    );
  }
  lines.push(
    `Preview estimates: ${estimates}, ${(estimateMs / Math.max(1, estimates)).toFixed(0)} ms each (decode + estimate on the worker pool, wall time incl. queueing)`,
  );
  lines.push(`Wall time: ${seconds.toFixed(0)} s (${rounds} round(s); services paced at their limits)`);
  lines.push(
    `Second pass from the shared cache: ${cachedRequests} outside requests, ${cachedSeconds.toFixed(1)} s`,
  );
  if (reasons.size > 0) {
    lines.push('Unknown, by last reason:');
    for (const [r, n] of [...reasons.entries()].sort((a, b) => b[1] - a[1]).slice(0, 8))
      lines.push(`  ${String(n).padStart(5)}  ${r}`);
  }
  console.log(lines.join('\n'));
} finally {
  await pool.close();
  await sandbox.close();
  await handle.close();
  await pg.stop();
  await fs.rm(dir, { recursive: true, force: true });
}
