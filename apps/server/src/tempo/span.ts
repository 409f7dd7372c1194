// Where a tempo's true value lies, from the values that agree with it. Each source is a fraction of a per
// cent off, and independent ones are off independently: the true tempo is within every agreeing value's
// own error, so their intersection is narrower than any one of them. What a playlist's edge needs: a song
// measured 189.4 by three sources is surely under 190, one measured 189.4 by nothing else may be at 190.
import type { TempoAlternative } from '../db/tempo.schema.ts';
import { octaveRelated } from './estimator/families.ts';

/** The tempo's bounds: its true value lies in [lo, hi] (in the octave of the value they bound). */
export interface TempoSpan {
  bpm: number;
  lo: number;
  hi: number;
}

/**
 * How far off a source's value may be: a relative error, plus half the step it is rounded to. The
 * metadata sources: ±0.4 % (what the sources' noise is taken to be, as EDGE_MARGIN always took it; the
 * simulated ones are exactly that); GetSongBPM knows the song, not the recording (another version of it is
 * up to 0.3 % away), and gives whole BPM; Deezer one decimal. The audio: 0.16 % median, 0.37 % at the 95th
 * percentile on the synthesised corpus (bench/tempo-accuracy), taken as 0.5 %.
 */
export const SOURCE_ERROR: Record<string, { relative: number; step: number }> = {
  spotify: { relative: 0.004, step: 0 },
  reccobeats: { relative: 0.004, step: 0 },
  deezer: { relative: 0.004, step: 0.1 },
  getsongbpm: { relative: 0.007, step: 1 },
  estimator: { relative: 0.005, step: 0 },
};

/** A source not listed above: as loose as the loosest. */
const UNKNOWN_SOURCE = { relative: 0.007, step: 1 };

/**
 * The span of `bpm` from the `alternatives` that agree with it (its value up to a factor of 2, within
 * 4 %: what decide.ts refines it from), each scaled to `bpm`'s octave: the intersection of their error
 * intervals. Null when none agrees or they do not overlap (a value off by more than its error: nothing
 * narrows the span then).
 */
export function agreedSpan(bpm: number, alternatives: readonly TempoAlternative[]): TempoSpan | null {
  let lo = -Infinity;
  let hi = Infinity;
  let n = 0;
  for (const a of alternatives) {
    if (!(a.bpm > 0) || !octaveRelated(a.bpm, bpm)) continue;
    const v = a.bpm * 2 ** Math.round(Math.log2(bpm / a.bpm));
    const e = SOURCE_ERROR[a.source] ?? UNKNOWN_SOURCE;
    const scale = v / a.bpm;
    const off = v * e.relative + (e.step / 2) * scale;
    lo = Math.max(lo, v - off);
    hi = Math.min(hi, v + off);
    n++;
  }
  if (n === 0 || lo > hi) return null;
  return { bpm, lo, hi };
}
