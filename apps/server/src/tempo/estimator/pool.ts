// A pool of worker threads for tempo estimation, so decoding and analysing previews (about 0.13 s of
// CPU each: bench/tempo-accuracy) never blocks the server's event loop.
import os from 'node:os';
import { Piscina } from 'piscina';
import type { WorkerResult } from './estimator.worker.ts';

/**
 * The estimator's threads run below their process's event loop and the machine's other processes (nice 10).
 * A preview's 0.13 s of CPU is background work; a status read or a job step that waits for a core behind
 * it is what a runner sees (bench:crowd, 1,000 runners on 2 cores: serve's event-loop p99 rose from ~50 to
 * 90-187 ms while the stand-in and the estimators were busy).
 */
export const ESTIMATOR_NICE = 10;

export interface EstimatorPoolOptions {
  /** Worker threads; default: one less than the machine's cores, at least one. */
  size?: number;
  /** Tasks waiting beyond this many are rejected instead of queued without bound. Default 1000. */
  maxQueue?: number;
}

export interface EstimatorPool {
  /** Decode an MP3 preview and estimate its tempo on a worker thread. */
  estimateFromMp3(bytes: Uint8Array): Promise<WorkerResult>;
  /**
   * Ends the worker threads at once (a shutdown must not wait for a queue of estimates): estimates running
   * or queued, and any asked for later, are rejected.
   */
  close(): Promise<void>;
}

export function createEstimatorPool({ size, maxQueue = 1000 }: EstimatorPoolOptions = {}): EstimatorPool {
  const threads = Math.max(1, size ?? os.availableParallelism() - 1);
  const piscina = new Piscina<Uint8Array, WorkerResult>({
    filename: new URL('./estimator.worker.ts', import.meta.url).href,
    minThreads: 0,
    maxThreads: threads,
    maxQueue,
    idleTimeout: 30_000,
    workerData: { nice: ESTIMATOR_NICE },
  });
  let closed = false;
  return {
    estimateFromMp3: (bytes) => {
      // After destroy() Piscina would start new threads for a new task: refuse it instead.
      if (closed) return Promise.reject(new Error('the tempo estimator is closed'));
      // Copy into a buffer of our own and move it to the worker, so the caller's bytes stay intact.
      const copy = new Uint8Array(bytes);
      return piscina.run(Piscina.move(copy) as unknown as Uint8Array);
    },
    close: async () => {
      closed = true;
      // destroy(), not close(): close() lets every queued estimate run first (up to 30 s).
      await piscina.destroy();
    },
  };
}

export type { WorkerResult as EstimatorResult };
