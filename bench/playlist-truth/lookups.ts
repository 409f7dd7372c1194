// One runner's tempo lookups: how many recordings were resolved a second (a row in the tempo cache,
// answer or no answer), overall and in the first 2 minutes, and where a lookup's time went: the wait in
// pg-boss's queue (created → started, of the job that decided it) and the stages the product's jobs
// write in their output (`timings`, apps/server/src/tempo/lookup-timings.ts).
import type { LookupTimings } from '@pacebeat/server/src/tempo/lookup-timings.ts';
import type { CachedTempo } from '@pacebeat/server/src/tempo/tempo.repository.ts';

/** What the benchmark keeps of a finished tempo-lookup job. */
export interface LookupJob {
  /** tempo-audio: the checks after Deezer that a lookup handed on (their time in it is in their timings). */
  kind: 'tempo-lookup' | 'tempo-audio';
  createdOn: Date;
  startAfter: Date;
  startedOn: Date;
  timings: LookupTimings;
}

export interface LookupFacts {
  /** When connect began (epoch ms), and the run's length. */
  connectedAt: number;
  seconds: number;
  /** The scanned recordings' cache rows. */
  tempos: Map<string, CachedTempo>;
  /** Scanned recordings and resolved ones at 2 minutes (null when the run was shorter). */
  at2min: { scanned: number; resolved: number } | null;
  scanned: number;
  jobs: LookupJob[];
  /** Tracks the finished lookups queued for a second look (their first answer no playlist takes). */
  secondLooks: number;
  /**
   * CPU seconds of this process from connect to the end (the product, the simulated world with its
   * preview synthesis, and the benchmark's own polling; PostgreSQL is another process): all its threads,
   * and the main thread.
   */
  cpu: { all: number; main: number };
  /** The simulated Deezer's previews: synthesised in this run (about 0.6 s of CPU each) or read from disk. */
  previews: { generated: number; fromDisk: number };
}

const FIRST_SECONDS = 120;

/** The report's stages, each a set of the timings' stage names (`pacing:deezer`…), in this order. */
const STAGES: Array<{ name: string; of: (stage: string) => boolean }> = [
  { name: 'outside rate limits (pacing)', of: (s) => s.startsWith('pacing:') },
  {
    name: 'HTTP calls (Deezer, ReccoBeats, GetSongBPM, Spotify)',
    of: (s) => s.startsWith('http:') && s !== 'http:deezer-preview',
  },
  { name: 'preview fetch (HTTP)', of: (s) => s === 'http:deezer-preview' },
  { name: "estimator: waiting for the pool's thread", of: (s) => s === 'estimator:wait' },
  { name: 'estimator: CPU', of: (s) => s === 'estimator:cpu' },
  { name: 'estimator: on its thread, off CPU (waiting for a core)', of: (s) => s === 'estimator:off-cpu' },
  { name: 'tempo cache (read, save)', of: (s) => s.startsWith('db:') },
];

function quantile(xs: number[], q: number): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor(q * s.length))]!;
}

const ms = (x: number) =>
  Number.isNaN(x) ? '-' : x >= 10_000 ? `${(x / 1000).toFixed(1)} s` : `${Math.round(x)} ms`;
const share = (x: number, total: number) => `${total > 0 ? ((100 * x) / total).toFixed(1) : '-'} %`;

/** Lookups per second, then the breakdown: markdown lines for the report. */
export function lookupLines(f: LookupFacts): string[] {
  const resolvedAt = [...f.tempos.values()].map((t) => t.resolvedAt.getTime() - f.connectedAt);
  const inFirst = resolvedAt.filter((t) => t <= FIRST_SECONDS * 1000).length;
  const lines: string[] = [];
  lines.push(
    `Tempo lookups resolved (a tempo-cache row for a scanned recording, answer or no answer): ${f.tempos.size} of ${f.scanned} scanned recordings in ${f.seconds.toFixed(0)} s, **${(f.tempos.size / f.seconds).toFixed(2)} a second**; in the first ${FIRST_SECONDS} s ${inFirst}, **${(inFirst / Math.min(FIRST_SECONDS, f.seconds)).toFixed(2)} a second**` +
      (f.at2min
        ? ` (at ${FIRST_SECONDS} s, ${f.at2min.scanned - f.at2min.resolved} of ${f.at2min.scanned} scanned recordings were still waiting).`
        : '.'),
  );
  // Rows whose check failed for a passing reason (an error or a time-out: asked again after 6 hours), by
  // the first failure in their reason.
  const passing = new Map<string, number>();
  for (const t of f.tempos.values()) {
    const failure =
      t.reason
        ?.split('; ')
        .find(
          (r) => /time|HTTP 5|network|reset|unreadable|failed/i.test(r) && !/not known|no result/.test(r),
        ) ??
      // A found, unchecked tempo keeps only the decision's reason: its retry time says its check failed.
      (t.bpm !== null && t.retryAt !== null
        ? 'a found tempo left unchecked (the failure is not in its row)'
        : undefined);
    if (!failure) continue;
    const key = failure.replace(/\d+/g, 'N').slice(0, 80);
    passing.set(key, (passing.get(key) ?? 0) + 1);
  }
  if (passing.size > 0)
    lines.push(
      `Rows with a check that failed for a passing reason: ${[...passing.values()].reduce((a, b) => a + b, 0)} (` +
        [...passing]
          .sort(([, a], [, b]) => b - a)
          .slice(0, 4)
          .map(([r, n]) => `${n} "${r}"`)
          .join(', ') +
        ').',
    );
  lines.push(
    `CPU of the benchmark's process (product, simulated world, benchmark; PostgreSQL not counted): ${f.cpu.all.toFixed(0)} s in ${f.seconds.toFixed(0)} s (${(f.cpu.all / f.seconds).toFixed(2)} cores), ${f.cpu.main.toFixed(0)} s of it on the main thread; the simulated Deezer synthesised ${f.previews.generated} previews (about 0.6 s of CPU each, not Pacebeat's) and read ${f.previews.fromDisk} from its disk cache.`,
  );
  // The start of the pipeline: when the first lookup was queued and began, and the first tempo row.
  const after = (d: Date | number) => `${((Number(d) - f.connectedAt) / 1000).toFixed(1)} s`;
  const firstOf = (kind: LookupJob['kind']) => {
    const js = f.jobs.filter((j) => j.kind === kind);
    if (js.length === 0) return `no ${kind} job finished`;
    const created = Math.min(...js.map((j) => Number(j.createdOn)));
    const started = Math.min(...js.map((j) => Number(j.startedOn)));
    return `the first ${kind} job queued ${after(created)} and started ${after(started)} after connect`;
  };
  const resolved = [...f.tempos.values()].map((t) => Number(t.resolvedAt));
  if (resolved.length > 0)
    lines.push(
      `${firstOf('tempo-lookup')}; ${firstOf('tempo-audio')}; the first tempo row ${after(Math.min(...resolved))} after connect.`,
    );
  const jobs = f.jobs.filter((j) => j.timings.tracks > 0);
  if (jobs.length === 0) return lines;
  // Per track: the job's queue wait, then its own time in the job, split by stage; the rest of it is the
  // track waiting for its turn in the batch (the batch's other tracks ahead of it, its group's save).
  const tracks = jobs.reduce((n, j) => n + j.timings.tracks, 0);
  const queueOf = (j: LookupJob) => Math.max(0, j.startedOn.getTime() - j.createdOn.getTime());
  const putOffOf = (j: LookupJob) =>
    Math.min(queueOf(j), Math.max(0, j.startAfter.getTime() - j.createdOn.getTime()));
  const stageOf = (j: LookupJob, of: (s: string) => boolean) =>
    Object.entries(j.timings.ms)
      .filter(([s]) => of(s))
      .reduce((n, [, v]) => n + v, 0);
  const rows: Array<{ name: string; perJob: (j: LookupJob) => number }> = [
    { name: 'queue (pg-boss created → started)', perJob: (j) => queueOf(j) * j.timings.tracks },
    {
      name: '… of it put off on purpose (startAfter: a service asked to wait)',
      perJob: (j) => putOffOf(j) * j.timings.tracks,
    },
    ...STAGES.map((s) => ({ name: s.name, perJob: (j: LookupJob) => stageOf(j, s.of) })),
    {
      name: 'waiting for its turn in the batch (the rest)',
      perJob: (j) => j.timings.totalMs - stageOf(j, (s) => STAGES.some((x) => x.of(s))),
    },
  ];
  const totalOf = (j: LookupJob) => queueOf(j) * j.timings.tracks + j.timings.totalMs;
  const total = jobs.reduce((n, j) => n + totalOf(j), 0);
  lines.push('');
  lines.push(
    `Where a lookup's time went, per track (${tracks} tracks decided by ${jobs.filter((j) => j.kind === 'tempo-lookup').length} tempo-lookup and ${jobs.filter((j) => j.kind === 'tempo-audio').length} tempo-audio jobs; p50 and p95 over the jobs of the per-track mean; share of all the tracks' time from their job's creation to their cache row; for a track a lookup handed to a tempo-audio job, its time in the lookup is counted, the lookup's own wait in the queue is not):`,
  );
  lines.push('');
  lines.push('| stage | p50 | p95 | share |');
  lines.push('|---|---:|---:|---:|');
  const perTrack = (j: LookupJob, v: number) => v / j.timings.tracks;
  lines.push(
    `| all (queue + in the job) | ${ms(
      quantile(
        jobs.map((j) => perTrack(j, totalOf(j))),
        0.5,
      ),
    )} | ${ms(
      quantile(
        jobs.map((j) => perTrack(j, totalOf(j))),
        0.95,
      ),
    )} | 100 % |`,
  );
  for (const r of rows) {
    const vs = jobs.map((j) => perTrack(j, r.perJob(j)));
    const sum = jobs.reduce((n, j) => n + r.perJob(j), 0);
    lines.push(`| ${r.name} | ${ms(quantile(vs, 0.5))} | ${ms(quantile(vs, 0.95))} | ${share(sum, total)} |`);
  }
  // The stages by service: mean per track, and per time entered (a call, a preview, an estimate).
  const byStage = new Map<string, { ms: number; n: number }>();
  for (const j of jobs)
    for (const [s, v] of Object.entries(j.timings.ms)) {
      const b = byStage.get(s) ?? { ms: 0, n: 0 };
      b.ms += v;
      b.n += j.timings.n?.[s] ?? 0;
      byStage.set(s, b);
    }
  lines.push('');
  lines.push(
    'By stage and service, mean per track (per time entered, times entered per track): ' +
      [...byStage]
        .sort(([, a], [, b]) => b.ms - a.ms)
        .map(
          ([s, v]) =>
            `${s} ${ms(v.ms / tracks)} (${v.n ? ms(v.ms / v.n) : '-'}, ${(v.n / tracks).toFixed(2)})`,
        )
        .join(', '),
  );
  return lines;
}
