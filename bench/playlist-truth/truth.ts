// What the simulated world's ground truth says about a placement: the error kind of a tempo, a sweep of
// the confidence threshold over the resolver's answers, and what each source's answers would place.
import {
  EDGE_MARGIN,
  fitsRange,
  MIN_CONFIDENCE,
  placeable,
  spanOf,
  trustedBpm,
} from '@pacebeat/server/src/playlists/matching.ts';
import type { CachedTempo } from '@pacebeat/server/src/tempo/tempo.repository.ts';
import { tempoError } from '../shared/recall.ts';

export { tempoError };

export interface Range {
  minBpm: number;
  maxBpm: number;
}

export interface SweepRow {
  threshold: number;
  /** A fixed margin below each max (the rule before the sources' spans), or null: the product's spans. */
  margin: number | null;
  placed: number;
  precision: number;
  recall: number;
  threeTwo: number;
}

/** The edge rule of a sweep row: a fixed margin below each max, or (null) the product's span of the tempo. */
function edgeRule(margin: number | null, tempo: CachedTempo | undefined, bpm: number) {
  const span = spanOf(bpm, false, tempo?.alternatives);
  return (t: Range) =>
    margin === null ? placeable(span, t.minBpm, t.maxBpm) : fitsRange(bpm, t.minBpm, t.maxBpm * (1 - margin));
}

/**
 * For each (threshold, edge rule): what the matching would place from these recordings (their cached
 * tempo) against what truly fits (the world's tempo), one row per recording.
 */
export function sweep(
  recordings: Array<{ truth: number; tempo: CachedTempo | undefined }>,
  targets: Range[],
  settings: Array<{ threshold: number; margin: number | null }>,
): SweepRow[] {
  const fitting = recordings.filter((r) => targets.some((t) => fitsRange(r.truth, t.minBpm, t.maxBpm)));
  return settings.map(({ threshold, margin }) => {
    let placed = 0;
    let right = 0;
    let threeTwo = 0;
    for (const r of recordings) {
      const bpm = trustedBpm(r.tempo, threshold);
      if (bpm === null) continue;
      const takes = edgeRule(margin, r.tempo, bpm);
      for (const t of targets) {
        if (!takes(t)) continue;
        placed++;
        if (fitsRange(r.truth, t.minBpm, t.maxBpm)) right++;
        if (tempoError(bpm, r.truth) === '3:2') threeTwo++;
      }
    }
    const found = fitting.filter((r) => {
      const bpm = trustedBpm(r.tempo, threshold);
      if (bpm === null) return false;
      const takes = edgeRule(margin, r.tempo, bpm);
      return targets.some((t) => takes(t) && fitsRange(r.truth, t.minBpm, t.maxBpm));
    }).length;
    return {
      threshold,
      margin,
      placed,
      precision: placed ? right / placed : 1,
      recall: fitting.length ? found / fitting.length : 1,
      threeTwo,
    };
  });
}

/**
 * The product's threshold with fixed edge margins (the rule before the sources' spans: EDGE_MARGIN was
 * the product's), and the product's edge rule with other thresholds.
 */
export const SWEEP: Array<{ threshold: number; margin: number | null }> = [
  ...[0, 0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9].map((threshold) => ({ threshold, margin: null })),
  ...[0, 0.001, 0.002, EDGE_MARGIN, 0.005].map((margin) => ({ threshold: MIN_CONFIDENCE, margin })),
  { threshold: MIN_CONFIDENCE, margin: null },
].sort((a, b) => a.threshold - b.threshold || (a.margin ?? -1) - (b.margin ?? -1));

/**
 * What every tempo answer would do (any confidence), by source and confidence: how many it would place,
 * how many of those wrongly (strictly, and beyond 1 % of a range edge), and at 3:2.
 */
export function bySourceAndConfidence(
  recordings: Array<{ truth: number; tempo: CachedTempo | undefined }>,
  targets: Range[],
) {
  const out = new Map<string, { placed: number; wrong: number; wrongBeyond1: number; threeTwo: number }>();
  for (const r of recordings) {
    const bpm = trustedBpm(r.tempo, 0);
    if (bpm === null || !r.tempo) continue;
    const span = spanOf(bpm, false, r.tempo.alternatives);
    for (const t of targets) {
      if (!placeable(span, t.minBpm, t.maxBpm)) continue;
      const key = `${r.tempo.source} | ${r.tempo.confidence.toFixed(2)}`;
      const row = out.get(key) ?? { placed: 0, wrong: 0, wrongBeyond1: 0, threeTwo: 0 };
      row.placed++;
      if (!fitsRange(r.truth, t.minBpm, t.maxBpm)) row.wrong++;
      if (!fitsRange(r.truth, t.minBpm * 0.99, t.maxBpm * 1.01)) row.wrongBeyond1++;
      if (tempoError(bpm, r.truth) === '3:2') row.threeTwo++;
      out.set(key, row);
    }
  }
  return [...out.entries()].sort(([a], [b]) => a.localeCompare(b));
}
