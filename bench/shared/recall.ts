// Why fitting songs were not placed: every song of the scanned library whose tempo lookup is done and
// whose true tempo fits a target, but which no playlist holds, put in one class by what the tempo cache
// says of it. Printed by bench:playlist-truth and bench:lifecycle (one implementation, here) so the
// largest classes can be worked down.
import type { Sandbox } from '@pacebeat/sandbox';
import { meterOfPattern } from '@pacebeat/sandbox';
import {
  fitsRange,
  meterLeftOut,
  MIN_CONFIDENCE,
  placeable,
  spanOf,
  type TargetRange,
} from '@pacebeat/server/src/playlists/matching.ts';
import type { CachedTempo } from '@pacebeat/server/src/tempo/tempo.repository.ts';

const near = (a: number, b: number) => Math.abs(Math.log(a / b)) < Math.log(1.04);

/** How a tempo relates to the truth, up to one factor of 2: right, 3:2 (or 2:3), or otherwise wrong. */
export function tempoError(bpm: number, truth: number): 'right' | '3:2' | 'other' {
  for (const f of [1, 2, 0.5]) {
    if (near(bpm * f, truth)) return 'right';
    if (near(bpm * f, truth * 1.5) || near(bpm * f, truth / 1.5)) return '3:2';
  }
  return 'other';
}

/** The classes, in the order printed. */
export const RECALL_CLASSES = [
  'no answer (no source, no preview)',
  'preview missing (a lone answer the audio could not check)',
  'estimator unsure',
  'a check failed for a passing reason (looked up again in 6 h)',
  'a lone answer unconfirmed',
  'sources disagreeing (not 3:2)',
  '3:2 suspected',
  'the audio alone',
  'below the threshold (other)',
  'meter: truly not 4/4 (left out by design)',
  'meter: a 4/4 song heard in another meter',
  'trusted, wrong tempo',
  'trusted, within 1 % below the range it fits (round tempo at the edge)',
  'trusted, just below a range’s top (edge margin)',
  'removed by the runner',
  'fits, not placed yet (a batch, the spread, the budget)',
] as const;
export type RecallClass = (typeof RECALL_CLASSES)[number];

export interface Unplaced {
  trackId: string;
  tempo: CachedTempo;
}

/** The class of one fitting, looked-up song that no playlist holds. */
export function recallClass(
  sandbox: Sandbox,
  s: Unplaced,
  targets: TargetRange[],
  removed: ReadonlySet<string>,
): RecallClass {
  const w = sandbox.world;
  const g = w.trackG(s.trackId)!;
  const truth = w.catalog.tempoOf(g);
  const t = s.tempo;
  const reason = t.reason ?? '';
  if (removed.has(s.trackId)) return 'removed by the runner';
  if (t.bpm === null) {
    if (/estimator/.test(reason) && !/no preview/.test(reason)) return 'estimator unsure';
    return 'no answer (no source, no preview)';
  }
  if (t.confidence < MIN_CONFIDENCE) {
    // A found tempo whose check failed for a passing reason (a preview that timed out, a 5xx) has a retry
    // time; its reason keeps only the decision's words, so it is told apart by that.
    if (t.retryAt !== null) return 'a check failed for a passing reason (looked up again in 6 h)';
    if (/no preview/.test(reason)) return 'preview missing (a lone answer the audio could not check)';
    if (/disagree/.test(reason)) {
      const bpms = t.alternatives.map((a) => a.bpm);
      const threeTwo = bpms.some((a) => bpms.some((b) => tempoError(a, b) === '3:2'));
      return threeTwo ? '3:2 suspected' : 'sources disagreeing (not 3:2)';
    }
    if (/one source/.test(reason)) return 'a lone answer unconfirmed';
    if (/audio alone/.test(reason)) return 'the audio alone';
    if (/estimator/.test(reason)) return 'estimator unsure';
    return 'below the threshold (other)';
  }
  const fitting = targets.filter((x) => fitsRange(truth.bpm, x.minBpm, x.maxBpm));
  if (fitting.length > 0 && fitting.every((x) => meterLeftOut(x, t.meter) !== null))
    return meterOfPattern(truth.pattern) === '4/4'
      ? 'meter: a 4/4 song heard in another meter'
      : 'meter: truly not 4/4 (left out by design)';
  // The edges as the product takes them: where its sources say the tempo may truly be (matching.ts spanOf).
  const span = spanOf(t.bpm!, false, t.alternatives);
  if (!fitting.some((x) => placeable(span, x.minBpm, x.maxBpm))) {
    if (!fitting.some((x) => fitsRange(t.bpm!, x.minBpm, x.maxBpm)))
      return fitting.some((x) => fitsRange(t.bpm!, x.minBpm * 0.99, x.maxBpm))
        ? 'trusted, within 1 % below the range it fits (round tempo at the edge)'
        : 'trusted, wrong tempo';
    return 'trusted, just below a range’s top (edge margin)';
  }
  return 'fits, not placed yet (a batch, the spread, the budget)';
}

/** How many fitting, looked-up songs each class holds. */
export function recallCounts(
  sandbox: Sandbox,
  unplaced: Unplaced[],
  targets: TargetRange[],
  removed: ReadonlySet<string>,
): Map<RecallClass, number> {
  const n = new Map<RecallClass, number>();
  for (const s of unplaced) {
    const c = recallClass(sandbox, s, targets, removed);
    n.set(c, (n.get(c) ?? 0) + 1);
  }
  return n;
}

/** The table of classes: how many fitting, looked-up songs each holds. */
export function recallLines(
  sandbox: Sandbox,
  unplaced: Unplaced[],
  targets: TargetRange[],
  removed: ReadonlySet<string>,
  lookedUp: number,
): string[] {
  const n = recallCounts(sandbox, unplaced, targets, removed);
  const lines = [
    `Fitting songs looked up but not placed, by class (${unplaced.length} of ${lookedUp}):`,
    '',
    '| class | songs | share of the looked-up fitting songs |',
    '|---|---|---|',
  ];
  for (const c of RECALL_CLASSES) {
    const k = n.get(c) ?? 0;
    if (k > 0) lines.push(`| ${c} | ${k} | ${((100 * k) / Math.max(1, lookedUp)).toFixed(1)} % |`);
  }
  return lines;
}

/**
 * A few songs of each class the resolver could do better on (not the meter by design, not the runner's
 * removals, not the writer's timing): the truth beside what the tempo cache holds, to see why.
 */
export function recallSamples(
  sandbox: Sandbox,
  unplaced: Unplaced[],
  targets: TargetRange[],
  removed: ReadonlySet<string>,
  perClass = 4,
): string[] {
  const w = sandbox.world;
  const skip: RecallClass[] = [
    'meter: truly not 4/4 (left out by design)',
    'removed by the runner',
    'fits, not placed yet (a batch, the spread, the budget)',
  ];
  const byClass = new Map<RecallClass, string[]>();
  for (const s of unplaced) {
    const c = recallClass(sandbox, s, targets, removed);
    const list = byClass.get(c) ?? [];
    if (skip.includes(c) || list.length >= perClass) continue;
    const truth = w.catalog.tempoOf(w.trackG(s.trackId)!);
    const t = s.tempo;
    const alts = t.alternatives
      .map((a) => `${a.source} ${a.bpm} (${a.confidence}${a.meter ? `, ${a.meter}` : ''})`)
      .join(', ');
    list.push(
      `  ${s.trackId}: true ${truth.bpm} ${meterOfPattern(truth.pattern)}; cached ${t.bpm ?? '-'} from ${t.source ?? '-'} at ${t.confidence}, meter ${t.meter ?? '-'} (${t.meterConfidence}); ${alts || 'no alternatives'}; ${t.reason ?? ''}`,
    );
    byClass.set(c, list);
  }
  const lines: string[] = [];
  for (const c of RECALL_CLASSES) {
    const list = byClass.get(c);
    if (!list) continue;
    lines.push(`${c}:`, ...list);
  }
  return lines;
}

/** Songs that truly fit a target only in a meter every fitting target leaves out by default (3/4, 6/8, 5/4, 7/8). */
export function leftOutByDesign(sandbox: Sandbox, trackId: string, targets: TargetRange[]): boolean {
  const w = sandbox.world;
  const truth = w.catalog.tempoOf(w.trackG(trackId)!);
  const meter = meterOfPattern(truth.pattern);
  const fitting = targets.filter((x) => fitsRange(truth.bpm, x.minBpm, x.maxBpm));
  return fitting.length > 0 && fitting.every((x) => meterLeftOut(x, meter) !== null);
}
