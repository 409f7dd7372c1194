// Prometheus metrics of one process (prom-client). Two kinds:
// - process-local counters and histograms (HTTP requests, Spotify requests, estimator time): what this
//   process did since it started; Prometheus sums them over processes;
// - gauges read from PostgreSQL at scrape time (budget, cooldowns, jobs, tempo cache, and whatever a
//   feature adds with `addSqlGauge`): the shared state, the same whichever process is asked.
// The names and meanings are listed in docs/operating.md ("Metrics").
import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** One value of a gauge read from SQL, with its labels. */
export interface SqlSample {
  labels?: Record<string, string | number>;
  value: number;
}

/** A gauge whose values are read at each scrape (from a repository: the only code that issues SQL). */
export interface SqlGaugeSpec {
  /** `pacebeat_…`, in Prometheus' naming (base units, `_seconds`, no `_total` for gauges). */
  name: string;
  help: string;
  labelNames?: string[];
  read: () => Promise<SqlSample[]>;
}

export interface MetricsOptions {
  /** Answers when the database does; rejects otherwise (read at each scrape, for `pacebeat_database_up`). */
  pingDatabase: () => Promise<unknown>;
  /** Time a scrape gives the database before it reports it down. Default 3 s. */
  timeoutMs?: number;
}

const withTimeout = <T>(p: Promise<T>, ms: number): Promise<T> =>
  new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no answer within ${ms} ms`)), ms);
    p.then(resolve, reject).finally(() => clearTimeout(timer));
  });

export function createMetrics(o: MetricsOptions) {
  const timeoutMs = o.timeoutMs ?? 3000;
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'pacebeat_' });

  const httpDuration = new Histogram({
    name: 'pacebeat_http_request_duration_seconds',
    help: 'HTTP requests by route pattern, method and status, with their duration (`_count` is the number of requests)',
    labelNames: ['method', 'route', 'status'],
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [registry],
  });
  const spotifyRequests = new Counter({
    name: 'pacebeat_spotify_requests_total',
    help: 'HTTP requests this process sent to the Spotify Web API, by endpoint template, purpose and status (`network` when no answer came)',
    labelNames: ['endpoint', 'purpose', 'status'],
    registers: [registry],
  });
  const estimatorDuration = new Histogram({
    name: 'pacebeat_tempo_estimator_seconds',
    help: "Time to estimate one preview's tempo (decode and analysis on a worker thread, including waiting for a free thread), by outcome",
    labelNames: ['outcome'],
    buckets: [0.05, 0.1, 0.2, 0.3, 0.5, 1, 2, 5, 10, 30],
    registers: [registry],
  });
  const databaseUp = new Gauge({
    name: 'pacebeat_database_up',
    help: 'Whether PostgreSQL answered this scrape (1) or not (0); the gauges read from SQL are absent while it is 0',
    registers: [registry],
  });
  const sqlErrors = new Counter({
    name: 'pacebeat_metrics_sql_errors_total',
    help: 'Gauges whose SQL read failed during a scrape, by gauge',
    labelNames: ['gauge'],
    registers: [registry],
  });

  const sqlGauges: { gauge: Gauge; spec: SqlGaugeSpec }[] = [];

  /** Reads every SQL gauge; one refresh at a time (a scrape during a refresh waits for it). */
  let refreshing: Promise<void> | undefined;
  async function refresh(): Promise<void> {
    const up = await withTimeout(o.pingDatabase(), timeoutMs).then(
      () => true,
      () => false,
    );
    databaseUp.set(up ? 1 : 0);
    await Promise.all(
      sqlGauges.map(async ({ gauge, spec }) => {
        // A gauge whose read failed is left out (not shown as 0, which would look like a real value).
        registry.removeSingleMetric(spec.name);
        if (!up) return;
        try {
          const samples = await withTimeout(spec.read(), timeoutMs);
          gauge.reset();
          for (const s of samples) gauge.set(s.labels ?? {}, s.value);
          registry.registerMetric(gauge);
        } catch {
          sqlErrors.inc({ gauge: spec.name });
        }
      }),
    );
  }

  return {
    registry,
    contentType: registry.contentType,

    /**
     * The extension point for features (scans, playlist writes, …): a gauge whose values `read` gives at
     * each scrape, from the feature's repository. Call it once per gauge, at start, from main.ts.
     */
    addSqlGauge(spec: SqlGaugeSpec): void {
      if (registry.getSingleMetric(spec.name) || sqlGauges.some((g) => g.spec.name === spec.name)) {
        throw new Error(`metric ${spec.name} is already registered`);
      }
      // Registered at each scrape once its values are read (see refresh).
      const gauge = new Gauge({
        name: spec.name,
        help: spec.help,
        labelNames: spec.labelNames ?? [],
        registers: [],
      });
      sqlGauges.push({ gauge, spec });
    },

    /** The exposition text: SQL gauges read now, then every metric. */
    async render(): Promise<string> {
      refreshing ??= refresh().finally(() => (refreshing = undefined));
      await refreshing;
      return registry.metrics();
    },

    /** One HTTP request answered: its route pattern (`/api/spotify/connect`, not the URL), never raw paths. */
    httpRequest(r: { method: string; route: string; status: number; seconds: number }): void {
      httpDuration.observe({ method: r.method, route: r.route, status: String(r.status) }, r.seconds);
    },

    /** One request sent to Spotify and its answer (for the client's `observe` hook). */
    spotifyRequest(r: { endpoint: string; purpose: string; status: number | 'network' }): void {
      spotifyRequests.inc({ endpoint: r.endpoint, purpose: r.purpose, status: String(r.status) });
    },

    /** Wraps the estimator so each clip's time is observed, by outcome (`tempo`, `no_tempo`, `error`). */
    timeEstimator<A extends unknown[], R extends { bpm: number | null }>(
      estimate: (...args: A) => Promise<R>,
    ): (...args: A) => Promise<R> {
      return async (...args) => {
        const end = estimatorDuration.startTimer();
        try {
          const result = await estimate(...args);
          end({ outcome: result.bpm === null ? 'no_tempo' : 'tempo' });
          return result;
        } catch (err) {
          end({ outcome: 'error' });
          throw err;
        }
      };
    },
  };
}
export type Metrics = ReturnType<typeof createMetrics>;
