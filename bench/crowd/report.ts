// The crowd benchmark's figures: one result per run (kept with --json), printed as one column per size
// (`--table A.json --table B.json …`), and the queues' backlog over time.
import type { TempoConfig } from '@pacebeat/server/src/tempo/tempo.config.ts';
import type { CallLog } from './calls.ts';
import { DEEZER_CLASSES, type Sample } from './probes.ts';
import { FIRST_N, type Read, type Route, type RunnerRecord } from './runner.ts';
import type { ServerMinute, ServerTimes } from './server-times.ts';
import { formatWriterRuns, type WriterRuns } from '../shared/writer-runs.ts';
import { fmt, percentile, table } from './stats.ts';

export interface CrowdResult {
  runners: number;
  commit: string;
  options: Record<string, unknown>;
  seconds: number;
  connected: number;
  connectErrors: string[];
  /** Seconds from connect to the first FIRST_N placed tracks (runners who got there), and how many did. */
  firstN: { p50?: number; p95?: number; p99?: number; reached: number };
  firstLink: { p50?: number; p95?: number; reached: number };
  calls: {
    total: number;
    perRunner: number;
    refused429: number;
    /** Mean Web API calls with a runner's token in the first `windowS` after their connect. */
    firstTenth: number;
    lastTenth: number;
    windowS: number;
    byService: Record<string, number>;
    byRoute: Record<string, number>;
    /** Absent in results before session 18. */
    outsideByRoute?: Record<string, number>;
    outsideRepeats?: Record<string, number>;
    outsideFailed?: Record<string, number>;
  };
  tempo: { resolvedPerHour: number; known: number; rows: number };
  /** The playlist writer's calls (the call ledger's `sync:*` purposes) and the songs its adds carried. */
  writer?: {
    calls: number;
    adds: number;
    placed: number;
    /**
     * Over the runners who reached 50 placed: the songs placed after the page first showed 50 or more (to
     * what it showed last) and the adds their token made from then on. Absent in runs before it was measured.
     */
    afterFirstN?: { songs: number; adds: number };
  };
  /**
   * The least p95 connect → 50 placed Spotify's rate allows: each runner's first 50 cost `callsEach` calls
   * (the median, with their token, of the runners who got there), served first-come at the highest
   * ceiling of the rate below connects' (`perMinute`) as the runners arrive.
   */
  bound?: { callsEach: number; perMinute: number; p95: number };
  /**
   * The same bound for each outside service's pace (`outsidePaces`): a runner's first 50 cost 50 times
   * the run's calls of that pace a placed song (all its calls over all songs placed, so the run's own
   * yield), served first-come at the pace as the runners arrive. Absent in runs before session 19.
   */
  outsideBound?: Record<string, { perSong: number; perSecond: number; p95: number }>;
  /**
   * The previews the stand-in Deezer synthesised during the run (about 0.6 s of its CPU each, on the same
   * cores as the product; a CDN answers at once) and read from its disk cache. Absent before session 19.
   */
  standInPreviews?: { synthesised: number; fromDisk: number };
  /**
   * Deezer API calls of the tempo lookups by class (a runner's first 50: own tracks and first catalogs;
   * unknowns; other catalogs; second looks), in jobs done during the storm and after. Since session 20.
   */
  deezerByClass?: Record<'storm' | 'after', Record<string, number>>;
  /** The largest backlog (created + retry) each queue had, and what was left at the end. */
  backlog: { peak: Record<string, number>; end: Record<string, number> };
  reads: Record<Route | 'all', { n: number; p50?: number; p99?: number; max?: number; errors: number }>;
  /** The same reads as the serve process timed them (its log). */
  serverReads?: ServerTimes;
  /** The status reads' p99 in serve, minute by minute (absent before session 36). */
  serverMinutes?: ServerMinute[];
  /** The writer's runs, from the work processes' logs: how many wrote nothing. Since session 25. */
  writerRuns?: WriterRuns;
  postgres: { mb: number; mbPerRunner: number; maxConnections: number };
  top: Array<{ query: string; calls: number; totalMs: number; meanMs: number }>;
  rssMaxMb: Record<string, number>;
  /**
   * CPU each process used: seconds in all, and cores (CPU seconds a second) during the storm (its first
   * minute and the rest) and while the pages stay open after it. Absent in runs before it was measured.
   */
  cpu?: Record<string, { seconds: number; stormCores: number; settleCores: number }>;
  logDir: string;
}

export interface RunData {
  runners: number;
  commit: string;
  options: Record<string, unknown>;
  stormMs: number;
  settleMs: number;
  records: RunnerRecord[];
  reads: Read[];
  calls: CallLog;
  placed?: number;
  writerCalls?: number;
  /** Spotify calls per minute the runners' first songs may have (the rate times the writes' ceiling). */
  firstSongsPerMinute?: number;
  /** The product's paces of the outside services, calls a second, by `paceOf`'s names. */
  outsidePaces?: Record<string, number>;
  standInPreviews?: CrowdResult['standInPreviews'];
  deezerByClass?: CrowdResult['deezerByClass'];
  samples: Sample[];
  dbMb: number;
  emptyDbMb: number;
  top: CrowdResult['top'];
  seconds: number;
  logDir: string;
}

const s = (ms: number | undefined) => (ms === undefined ? undefined : ms / 1000);

function meanCalls(d: RunData, recs: RunnerRecord[], windowMs: number): number {
  const got = recs.filter((r) => r.connectedAt !== undefined);
  if (got.length === 0) return NaN;
  const total = got.reduce((n, r) => {
    const times = d.calls.byUser.get(r.spotifyUser) ?? [];
    return n + times.filter((t) => t >= r.connectedAt! - 60_000 && t <= r.connectedAt! + windowMs).length;
  }, 0);
  return total / got.length;
}

/**
 * The p95, over runners, of the time a first-come queue served at `perMinute` takes to serve a runner's
 * `each` calls after they arrive (`arrivals`, ms): the rate's own bound, before any tempo lookup or wait.
 */
export function rateBoundP95(arrivals: number[], each: number, perMinute: number): number {
  const perMs = perMinute / 60_000;
  let free = 0; // when the queue is next free, ms
  const waits = [...arrivals]
    .sort((a, b) => a - b)
    .map((at) => {
      free = Math.max(free, at) + each / perMs;
      return free - at;
    });
  return (percentile(waits, 95) ?? 0) / 1000;
}

/**
 * Which of the product's paces an outside call (`outsideByRoute`'s "service METHOD route") goes through:
 * Deezer's API and its previews have one each (DEEZER_RATE_PER_SECOND, PREVIEW_RATE_PER_SECOND);
 * undefined for what is not paced (the Spotify accounts service's consent and token).
 */
export function paceOf(key: string): string | undefined {
  const service = key.split(' ')[0] ?? '';
  if (service === 'deezer') return key.includes('/previews/') ? 'deezer previews' : 'deezer';
  return ['reccobeats', 'getsongbpm'].includes(service) ? service : undefined;
}

/** The product's outside paces, calls a second, from its tempo settings (what `paceOf` names). */
export function outsidePaces(c: TempoConfig): Record<string, number> {
  return {
    deezer: c.DEEZER_RATE_PER_SECOND,
    'deezer previews': c.PREVIEW_RATE_PER_SECOND,
    reccobeats: c.RECCOBEATS_RATE_PER_MINUTE / 60,
    getsongbpm: c.GETSONGBPM_RATE_PER_HOUR / 3600,
  };
}

/** See CrowdResult's outsideBound: from the outside calls by route, the songs placed, the arrivals (ms). */
export function outsideBound(
  byRoute: Iterable<[string, number]>,
  placed: number | undefined,
  arrivals: number[],
  paces: Record<string, number> | undefined,
): CrowdResult['outsideBound'] {
  if (!paces || !placed) return undefined;
  const calls = new Map<string, number>();
  for (const [key, n] of byRoute) {
    const pace = paceOf(key);
    if (pace && paces[pace]) calls.set(pace, (calls.get(pace) ?? 0) + n);
  }
  const out: NonNullable<CrowdResult['outsideBound']> = {};
  for (const [pace, n] of calls) {
    const perSecond = paces[pace]!;
    const perSong = n / placed;
    out[pace] = { perSong, perSecond, p95: rateBoundP95(arrivals, perSong * FIRST_N, perSecond * 60) };
  }
  return out;
}

/** Songs and adds after each runner's first 50 (see CrowdResult's writer.afterFirstN). */
function afterFirstN(d: RunData): { songs: number; adds: number } {
  let songs = 0;
  let adds = 0;
  for (const r of d.records) {
    if (r.connectedAt === undefined || r.firstNMs === undefined || r.placedAtN === undefined) continue;
    const from = r.connectedAt + r.firstNMs;
    songs += r.placed - r.placedAtN;
    adds += (d.calls.addsByUser.get(r.spotifyUser) ?? []).filter((t) => t > from).length;
  }
  return { songs, adds };
}

function callsBeforeFirstN(d: RunData): number | undefined {
  const counts = d.records.flatMap((r) => {
    if (r.connectedAt === undefined || r.firstNMs === undefined) return [];
    const times = d.calls.byUser.get(r.spotifyUser) ?? [];
    return [times.filter((t) => t >= r.connectedAt! - 60_000 && t <= r.connectedAt! + r.firstNMs!).length];
  });
  return percentile(counts, 50);
}

export function summarize(d: RunData): CrowdResult {
  const con = d.records.filter((r) => r.connectedAt !== undefined);
  const firstN = con.flatMap((r) => (r.firstNMs === undefined ? [] : [r.firstNMs]));
  const links = con.flatMap((r) => (r.firstLinkMs === undefined ? [] : [r.firstLinkMs]));
  const tenth = Math.max(1, Math.round(d.runners / 10));
  const byArrival = [...d.records].sort((a, b) => a.arrival - b.arrival);
  const reads = {} as CrowdResult['reads'];
  for (const route of ['whoami', 'targets', 'sources', 'all'] as const) {
    const rs = route === 'all' ? d.reads : d.reads.filter((r) => r.route === route);
    const ok = rs.filter((r) => r.ok).map((r) => r.ms);
    reads[route] = {
      n: rs.length,
      p50: percentile(ok, 50),
      p99: percentile(ok, 99),
      max: percentile(ok, 100),
      errors: rs.length - ok.length,
    };
  }
  const peak: Record<string, number> = {};
  for (const x of d.samples)
    for (const [q, n] of Object.entries(x.queued)) peak[q] = Math.max(peak[q] ?? 0, n);
  const rssMaxMb: Record<string, number> = {};
  for (const x of d.samples)
    for (const [p, mb] of Object.entries(x.rssMb)) rssMaxMb[p] = Math.max(rssMaxMb[p] ?? 0, mb);
  const a = d.samples[0];
  const z = d.samples[d.samples.length - 1];
  const hours = a && z && z.s > a.s ? (z.s - a.s) / 3600 : NaN;
  return {
    runners: d.runners,
    commit: d.commit,
    options: d.options,
    seconds: d.seconds,
    connected: con.length,
    connectErrors: d.records.flatMap((r) => (r.connectError ? [`${r.spotifyUser}: ${r.connectError}`] : [])),
    firstN: {
      p50: s(percentile(firstN, 50)),
      p95: s(percentile(firstN, 95)),
      p99: s(percentile(firstN, 99)),
      reached: firstN.length,
    },
    firstLink: { p50: s(percentile(links, 50)), p95: s(percentile(links, 95)), reached: links.length },
    calls: {
      total: d.calls.total,
      perRunner: d.calls.total / d.runners,
      refused429: d.calls.refused429,
      firstTenth: meanCalls(d, byArrival.slice(0, tenth), d.settleMs),
      lastTenth: meanCalls(d, byArrival.slice(-tenth), d.settleMs),
      windowS: d.settleMs / 1000,
      byService: Object.fromEntries(d.calls.byService),
      byRoute: Object.fromEntries([...d.calls.byRoute].sort((x, y) => y[1] - x[1])),
      outsideByRoute: Object.fromEntries([...d.calls.outsideByRoute].sort((x, y) => y[1] - x[1])),
      outsideRepeats: Object.fromEntries([...d.calls.outsideRepeats].sort((x, y) => y[1] - x[1])),
      outsideFailed: Object.fromEntries([...d.calls.outsideFailed].sort((x, y) => y[1] - x[1])),
    },
    tempo: {
      resolvedPerHour: a && z ? (z.tempoKnown - a.tempoKnown) / hours : NaN,
      known: z?.tempoKnown ?? 0,
      rows: z?.tempoRows ?? 0,
    },
    backlog: { peak, end: z?.queued ?? {} },
    writer: {
      calls: d.writerCalls ?? NaN,
      adds: d.calls.byRoute.get('POST /playlists/:playlist_id/items') ?? 0,
      placed: d.placed ?? NaN,
      afterFirstN: afterFirstN(d),
    },
    ...(() => {
      const each = callsBeforeFirstN(d);
      if (each === undefined || !d.firstSongsPerMinute) return {};
      const perMinute = d.firstSongsPerMinute;
      return {
        bound: {
          callsEach: each,
          perMinute,
          p95: rateBoundP95(
            con.map((r) => r.arrival),
            each,
            perMinute,
          ),
        },
      };
    })(),
    ...(() => {
      const arrivals = con.map((r) => r.arrival);
      const b = outsideBound(d.calls.outsideByRoute, d.placed, arrivals, d.outsidePaces);
      return b ? { outsideBound: b } : {};
    })(),
    ...(d.standInPreviews ? { standInPreviews: d.standInPreviews } : {}),
    ...(d.deezerByClass ? { deezerByClass: d.deezerByClass } : {}),
    reads,
    postgres: {
      mb: d.dbMb,
      mbPerRunner: (d.dbMb - d.emptyDbMb) / d.runners,
      maxConnections: Math.max(0, ...d.samples.map((x) => x.connections)),
    },
    top: d.top,
    rssMaxMb,
    cpu: cpuUse(d.samples, (60_000 + d.stormMs) / 1000),
    logDir: d.logDir,
  };
}

/** CPU seconds and cores by process, from the samples' running totals; split where the storm ends. */
function cpuUse(samples: Sample[], stormEndS: number): CrowdResult['cpu'] {
  const withCpu = samples.filter((x) => x.cpuS && Object.keys(x.cpuS).length > 0);
  const a = withCpu[0];
  const z = withCpu[withCpu.length - 1];
  if (!a || !z || z.s <= a.s) return undefined;
  const m = withCpu.reduce((best, x) =>
    Math.abs(x.s - stormEndS) < Math.abs(best.s - stormEndS) ? x : best,
  );
  const cores = (from: Sample, to: Sample, p: string) =>
    to.s > from.s ? ((to.cpuS[p] ?? 0) - (from.cpuS[p] ?? 0)) / (to.s - from.s) : NaN;
  const out: NonNullable<CrowdResult['cpu']> = {};
  for (const p of Object.keys(z.cpuS)) {
    if (a.cpuS[p] === undefined) continue;
    out[p] = {
      seconds: z.cpuS[p]! - a.cpuS[p]!,
      stormCores: cores(a, m, p),
      settleCores: cores(m, z, p),
    };
  }
  return out;
}

/** One column per run, a row per figure. */
export function sideBySide(runs: CrowdResult[]): string {
  const queues = [...new Set(runs.flatMap((r) => Object.keys(r.backlog.peak)))].sort();
  const procs = [...new Set(runs.flatMap((r) => Object.keys(r.rssMaxMb)))].sort();
  const cpuProcs = [...new Set(runs.flatMap((r) => Object.keys(r.cpu ?? {})))].sort();
  const row = (name: string, f: (r: CrowdResult) => string) => [name, ...runs.map(f)];
  const rows = [
    row('commit', (r) => r.commit ?? '-'),
    row('serve processes (behind nginx)', (r) => {
      const n = Number(r.options['serves'] ?? 1);
      return n > 1 || r.options['proxy'] === true ? `${n} (yes)` : `${n} (no)`;
    }),
    row(
      'niceness of work / sandbox',
      (r) => `${r.options['work-nice'] ?? 0} / ${r.options['sandbox-nice'] ?? 0}`,
    ),
    row('runners connected (errors)', (r) => `${r.connected} (${r.connectErrors.length})`),
    row(
      'storm / pages open after, min',
      (r) => `${r.options['storm-minutes']} / ${r.options['settle-minutes']}`,
    ),
    row('connect → 50 placed p50 / p95 / p99 s', (r) =>
      [r.firstN.p50, r.firstN.p95, r.firstN.p99].map((v) => fmt(v)).join(' / '),
    ),
    row('runners with 50 placed', (r) => `${r.firstN.reached}/${r.connected}`),
    row('p95 to 50 placed the rate allows, s (calls each, per minute)', (r) =>
      r.bound ? `${fmt(r.bound.p95)} (${fmt(r.bound.callsEach)}, ${fmt(r.bound.perMinute)})` : '-',
    ),
    row('p95 to 50 placed each outside pace allows, s (calls a placed song, a second)', (r) =>
      r.outsideBound
        ? Object.entries(r.outsideBound)
            .sort((x, y) => y[1].p95 - x[1].p95)
            .map(([pace, b]) => `${pace} ${fmt(b.p95)} (${fmt(b.perSong, 2)}, ${fmt(b.perSecond, 2)})`)
            .join('; ')
        : '-',
    ),
    row(
      'connect → first playlist link p50 / p95 s',
      (r) => `${fmt(r.firstLink.p50)} / ${fmt(r.firstLink.p95)}`,
    ),
    row('Spotify Web API calls (429)', (r) => `${r.calls.total} (${r.calls.refused429})`),
    row('calls per runner', (r) => fmt(r.calls.perRunner, 1)),
    row('playlist writer calls, share of all', (r) =>
      r.writer ? `${r.writer.calls}, ${fmt((100 * r.writer.calls) / r.calls.total, 0, ' %')}` : '-',
    ),
    row('songs placed / add calls = songs per add', (r) =>
      r.writer
        ? `${fmt(r.writer.placed)} / ${r.writer.adds} = ${fmt(r.writer.placed / r.writer.adds, 1)}`
        : '-',
    ),
    row('… after a runner’s first 50 (runners who got there)', (r) =>
      r.writer?.afterFirstN
        ? `${r.writer.afterFirstN.songs} / ${r.writer.afterFirstN.adds} = ${fmt(r.writer.afterFirstN.songs / r.writer.afterFirstN.adds, 1)}`
        : '-',
    ),
    row('writer runs (of them writing nothing)', (r) =>
      r.writerRuns ? formatWriterRuns(r.writerRuns) : '-',
    ),
    row(
      'calls first tenth → last tenth (window)',
      (r) => `${fmt(r.calls.firstTenth, 1)} → ${fmt(r.calls.lastTenth, 1)} (${r.calls.windowS} s)`,
    ),
    row('last tenth / first tenth', (r) => fmt((100 * r.calls.lastTenth) / r.calls.firstTenth, 0, ' %')),
    row('tempo lookups resolved per hour', (r) => fmt(r.tempo.resolvedPerHour)),
    row('stand-in previews: synthesised / from its disk cache', (r) =>
      r.standInPreviews ? `${r.standInPreviews.synthesised} / ${r.standInPreviews.fromDisk}` : '-',
    ),
    ...(['storm', 'after'] as const).map((when) =>
      row(
        `Deezer calls ${when === 'storm' ? 'in' : 'after'} the storm: first 50 / unknowns / catalogs / second looks`,
        (r) => {
          const c = r.deezerByClass?.[when];
          return c ? DEEZER_CLASSES.map((k) => c[k] ?? 0).join(' / ') : '-';
        },
      ),
    ),
    row('outside calls failed (previews; all)', (r) => {
      const f = r.calls.outsideFailed;
      if (!f) return '-';
      const previews = Object.entries(f)
        .filter(([k]) => paceOf(k) === 'deezer previews')
        .reduce((n, [, v]) => n + v, 0);
      return `${previews}; ${Object.values(f).reduce((n, v) => n + v, 0)}`;
    }),
    row('recordings with a tempo / rows', (r) => `${r.tempo.known} / ${r.tempo.rows}`),
    ...queues.map((q) =>
      row(`backlog ${q}: peak / end`, (r) => `${r.backlog.peak[q] ?? 0} / ${r.backlog.end[q] ?? 0}`),
    ),
    ...(['whoami', 'targets', 'sources', 'all'] as const).map((k) =>
      row(
        `read ${k}: p50 / p99 / max ms (errors)`,
        (r) =>
          `${fmt(r.reads[k].p50, 1)} / ${fmt(r.reads[k].p99, 1)} / ${fmt(r.reads[k].max)} (${r.reads[k].errors})`,
      ),
    ),
    ...(['whoami', 'targets', 'sources'] as const).map((k) =>
      row(`read ${k} in serve: p50 / p99 / max ms`, (r) => {
        const t = r.serverReads?.[k];
        return t ? `${fmt(t.p50)} / ${fmt(t.p99)} / ${fmt(t.max)}` : '-';
      }),
    ),
    row('minutes with a status read p99 over 50 ms in serve (of); worst minute p99 ms', (r) => {
      const m = r.serverMinutes?.filter((x) => x.n > 0);
      if (!m?.length) return '-';
      const over = m.filter((x) => (x.p99 ?? 0) > 50).length;
      return `${over} (${m.length}); ${fmt(Math.max(...m.map((x) => x.p99 ?? 0)))}`;
    }),
    row('status reads', (r) => String(r.reads.all.n)),
    row('PostgreSQL MB (per runner)', (r) => `${fmt(r.postgres.mb)} (${fmt(r.postgres.mbPerRunner, 2)})`),
    row('PostgreSQL connections, max', (r) => String(r.postgres.maxConnections)),
    ...procs.map((p) => row(`RSS ${p}, max MB`, (r) => fmt(r.rssMaxMb[p]))),
    ...cpuProcs.map((p) =>
      row(`CPU ${p}: s; cores in the storm / after`, (r) => {
        const c = r.cpu?.[p];
        return c ? `${fmt(c.seconds)}; ${fmt(c.stormCores, 2)} / ${fmt(c.settleCores, 2)}` : '-';
      }),
    ),
  ];
  return table(['figure', ...runs.map((r) => `${r.runners} runners`)], rows);
}

/** The queues' backlog and the tempo cache, about once a minute. */
export function timeline(samples: Sample[]): string {
  const queues = [...new Set(samples.flatMap((x) => Object.keys(x.queued)))].sort();
  const picked = samples.filter((x, i) => i === samples.length - 1 || i % 6 === 0);
  return table(
    ['min', ...queues.map((q) => `${q} queued (active)`), 'tempo known', 'connections'],
    picked.map((x) => [
      (x.s / 60).toFixed(1),
      ...queues.map((q) => `${x.queued[q] ?? 0} (${x.active[q] ?? 0})`),
      String(x.tempoKnown),
      String(x.connections),
    ]),
  );
}
