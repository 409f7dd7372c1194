// Where a tempo lookup's time goes: each track being checked carries a clock (milliseconds by stage, e.g.
// `pacing:deezer`, `http:deezer`, `http:deezer-preview`, `estimator:cpu`), which the shared HTTP layer
// and the resolver add to; a job sums its tracks' clocks into its output (`timings`). Outside a clock
// (tests, other callers) adding is a no-op.
import { AsyncLocalStorage } from 'node:async_hooks';

/**
 * Milliseconds by stage, and how many times each stage was entered, for one track (or one batched call
 * shared by several tracks).
 */
export interface StageMs {
  ms: Record<string, number>;
  n: Record<string, number>;
}

export const newClock = (): StageMs => ({ ms: {}, n: {} });

/**
 * A job's sum over the tracks it decided and cached: `totalMs` is, per track, from the start of the
 * resolve to its row saved; `ms` the stages inside it (what is left is the track waiting its turn in the
 * batch). The wait in the queue before the job started is pg-boss's (created → started).
 */
export interface LookupTimings extends StageMs {
  tracks: number;
  totalMs: number;
}

const current = new AsyncLocalStorage<StageMs>();

/** Runs `fn` with `clock` as the clock that timings inside it add to. */
export const timedWith = <T>(clock: StageMs, fn: () => Promise<T>): Promise<T> => current.run(clock, fn);

/** Adds `ms` (and one time) to a stage of `clock` (by default the clock of the running track, if any). */
export function addTime(stage: string, ms: number, clock: StageMs | undefined = current.getStore()): void {
  if (!clock) return;
  clock.ms[stage] = (clock.ms[stage] ?? 0) + Math.max(0, ms);
  clock.n[stage] = (clock.n[stage] ?? 0) + 1;
}

/** Adds every stage of `from` to `to`. */
export function addClock(to: StageMs, from: StageMs): void {
  for (const [stage, ms] of Object.entries(from.ms)) to.ms[stage] = (to.ms[stage] ?? 0) + ms;
  for (const [stage, n] of Object.entries(from.n)) to.n[stage] = (to.n[stage] ?? 0) + n;
}
