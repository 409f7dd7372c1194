// Is this process keeping up? Two things make every request of a process slow while its CPU looks idle:
// an event loop held by one long task, and a database pool whose connections are all taken (requests wait
// for one). Both are measured here, continuously: a warning in the log for each interval in which either
// happened (with the figures), and gauges for Prometheus. One per process.
import { monitorEventLoopDelay } from 'node:perf_hooks';
import type { Logger } from 'pino';
import { Gauge, type Registry } from 'prom-client';

/** What pg.Pool says about its connections (read, never changed). */
export interface PoolCounts {
  readonly totalCount: number;
  readonly idleCount: number;
  readonly waitingCount: number;
}

export interface LoadInterval {
  /** Event-loop delay over the interval (ms): its p99 and its longest. */
  loopDelayP99Ms: number;
  loopDelayMaxMs: number;
  /** Queries waiting for a pool connection: the most seen at once, and the share of samples with any. */
  poolWaitingMax: number;
  poolWaitingShare: number;
  /** Connections in use (not idle), the most seen at once, of `poolMax`. */
  poolBusyMax: number;
  poolMax: number;
}

export interface LoadMonitorOptions {
  pool: PoolCounts;
  poolMax: number;
  log: Logger;
  /** Where the gauges go (the process's metrics registry), when metrics are on. */
  registry?: Registry;
  /** Length of one interval. Default 10 s. */
  intervalMs?: number;
  /** How often the pool is looked at. Default 100 ms. */
  sampleMs?: number;
  /** An interval whose event-loop p99 is above this is reported. Default 200 ms. */
  behindLoopMs?: number;
}

export function startLoadMonitor(o: LoadMonitorOptions) {
  const intervalMs = o.intervalMs ?? 10_000;
  const behindLoopMs = o.behindLoopMs ?? 200;
  const loop = monitorEventLoopDelay({ resolution: 20 });
  loop.enable();
  let samples = 0;
  let waitingSamples = 0;
  let waitingMax = 0;
  let busyMax = 0;
  let last: LoadInterval | undefined;

  const sampler = setInterval(() => {
    const waiting = o.pool.waitingCount;
    samples++;
    if (waiting > 0) waitingSamples++;
    waitingMax = Math.max(waitingMax, waiting);
    busyMax = Math.max(busyMax, o.pool.totalCount - o.pool.idleCount);
  }, o.sampleMs ?? 100);
  sampler.unref();

  const ms = (ns: number) => Math.round(ns / 1e5) / 10;
  const report = setInterval(() => {
    last = {
      loopDelayP99Ms: ms(loop.percentile(99)),
      loopDelayMaxMs: ms(loop.max),
      poolWaitingMax: waitingMax,
      poolWaitingShare: samples ? Math.round((waitingSamples / samples) * 100) / 100 : 0,
      poolBusyMax: busyMax,
      poolMax: o.poolMax,
    };
    loop.reset();
    samples = waitingSamples = waitingMax = busyMax = 0;
    if (last.poolWaitingMax > 0 || last.loopDelayP99Ms > behindLoopMs) {
      o.log.warn(
        { load: last },
        last.poolWaitingMax > 0
          ? 'process behind: queries waited for a database connection'
          : 'process behind: its event loop was held',
      );
    }
  }, intervalMs);
  report.unref();

  if (o.registry) {
    new Gauge({
      name: 'pacebeat_db_pool_connections',
      help: "This process's PostgreSQL connections (its pool), by state: `busy` (running a query or holding a transaction), `idle`, `waiting` (queries waiting for one)",
      labelNames: ['state'],
      registers: [o.registry],
      collect() {
        this.set({ state: 'busy' }, o.pool.totalCount - o.pool.idleCount);
        this.set({ state: 'idle' }, o.pool.idleCount);
        this.set({ state: 'waiting' }, o.pool.waitingCount);
      },
    });
  }

  return {
    /** The last complete interval's figures (undefined before the first). */
    last: () => last,
    stop() {
      clearInterval(sampler);
      clearInterval(report);
      loop.disable();
    },
  };
}
export type LoadMonitor = ReturnType<typeof startLoadMonitor>;
