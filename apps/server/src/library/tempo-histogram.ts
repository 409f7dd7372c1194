// Folding tempos into the running octave for the chart: a song at 85 BPM is run to at 170 steps/min, one
// at 340 too, as matching places them (a track fits a target by its tempo, double or half).
import { TEMPO_FOLD } from '@pacebeat/contract';

/** The tempo halved or doubled until it lies in [min, max) (an octave: max = 2 × min). */
export function foldTempo(bpm: number, fold: { min: number; max: number } = TEMPO_FOLD): number {
  let b = bpm;
  while (b >= fold.max) b /= 2;
  while (b < fold.min) b *= 2;
  return b;
}

/** Songs per 1-BPM bin of the octave (lower edge), bins with songs only, ascending. */
export function foldHistogram(
  byBpm: Array<{ bpm: number; songs: number }>,
  fold: { min: number; max: number } = TEMPO_FOLD,
): Array<{ bpm: number; tracks: number }> {
  const bins = new Map<number, number>();
  for (const { bpm, songs } of byBpm) {
    if (!(bpm > 0)) continue;
    const bin = Math.min(fold.max - 1, Math.floor(foldTempo(bpm, fold)));
    bins.set(bin, (bins.get(bin) ?? 0) + songs);
  }
  return [...bins].sort((a, b) => a[0] - b[0]).map(([bpm, tracks]) => ({ bpm, tracks }));
}
