// From onset curves to a salience for every candidate tempo: how well each beat period explains the
// music's repetitions.
import type { OnsetEnvelopes } from './onset.ts';
import { at, autocorrelation, continuity, peakNear, spread } from './periodicity.ts';

export const MIN_BPM = 40;
export const MAX_BPM = 250;
const GRID_STEP = 0.005;
/** Lags beyond this (seconds) are not used: long lags blur with tempo drift. */
const MAX_LAG_SECONDS = 6;
/** Multiples of a beat period averaged into its comb score, up to this lag (seconds). */
const COMB_SECONDS = 4.5;
const OWN_WEIGHT = 0.3;
/** Weight of the summed-band autocorrelation against the (periodicity-weighted) per-band mean. */
const SUM_WEIGHT = 0.5;
/** Bands are weighted by their own repetition at lags from this (seconds) on. */
const BAND_WEIGHT_FROM_SECONDS = 0.25;
/** Onsets this far apart (seconds) still count as together in the continuity test (timing jitter). */
const JITTER_SECONDS = 0.018;
/** The continuity test counts as onsets what rises above this quantile of the onset curve. */
const ONSET_QUANTILE = 0.75;

export interface SalienceCurve {
  /** Mixed autocorrelation of the onset curves, by lag in frames. */
  acf: Float64Array;
  /** Onset frames per second. */
  rate: number;
  /** Tempo grid (BPM, log-spaced from MIN_BPM to MAX_BPM) and the salience at each. */
  grid: number[];
  salience: number[];
  /** Salience at any tempo (interpolated; 0 outside the grid). */
  at(bpm: number): number;
  /** Autocorrelation at the beat period of `bpm` (its own periodicity, ≥ 0). */
  own(bpm: number): number;
  /**
   * How reliably three consecutive beats at `bpm` all hold onsets: 1 for a pulse that never misses a
   * beat, 0 (or below) for onsets at independent times or a grid with an empty slot.
   */
  continuity(bpm: number): number;
}

/**
 * How well a beat period explains the music: the autocorrelation at the period itself, and averaged
 * over all its multiples up to a few seconds (a comb). A lag that is a multiple of a fast
 * subdivision but does not divide the bar gets a low comb score.
 */
function salience(acf: Float64Array, rate: number, bpm: number): number {
  const lag = (60 * rate) / bpm;
  const limit = Math.min(COMB_SECONDS * rate, acf.length - 2);
  const own = Math.max(0, peakNear(acf, lag, 0.015));
  let comb = own;
  let k = 2;
  for (; k * lag <= limit; k++) comb += Math.max(0, peakNear(acf, k * lag, 0.015));
  return OWN_WEIGHT * own + (1 - OWN_WEIGHT) * (comb / (k - 1));
}

/** The salience curve of onset envelopes over frames [from, to). */
export function salienceCurve(env: OnsetEnvelopes, from = 0, to = env.sum.length): SalienceCurve {
  const slice = (x: Float64Array) => x.subarray(from, to);
  const frames = to - from;
  const maxLag = Math.round(Math.min(MAX_LAG_SECONDS * env.rate, frames / 2));
  const summed = autocorrelation([slice(env.sum)], maxLag);
  const perBand = autocorrelation(
    env.bands.map(slice),
    maxLag,
    Math.round(BAND_WEIGHT_FROM_SECONDS * env.rate),
  );
  const acf = summed.map((v, i) => SUM_WEIGHT * v + (1 - SUM_WEIGHT) * (perBand[i] as number));
  const rate = env.rate;
  const grid: number[] = [];
  for (let b = MIN_BPM; b <= MAX_BPM; b *= 1 + GRID_STEP) grid.push(b);
  const values = grid.map((b) => salience(acf, rate, b));
  // For the continuity test: the onsets (what rises above the upper quartile of the curve, the floor
  // of noise, sustain and busy accompaniment), and the same spread over the timing jitter. Built on
  // first use: only close calls need it.
  let pulses: { x: Float64Array; y: Float64Array; chance: number; self: number } | undefined;
  const onsets = () => {
    if (!pulses) {
      const raw = slice(env.sum);
      const floor = [...raw].sort((a, b) => a - b)[Math.floor(raw.length * ONSET_QUANTILE)] ?? 0;
      const x = raw.map((v) => Math.max(0, v - floor));
      const y = spread(x, Math.round(JITTER_SECONDS * rate));
      let mx = 0;
      let my = 0;
      let self = 0;
      for (let i = 0; i < x.length; i++) {
        mx += x[i] as number;
        my += y[i] as number;
        self += (x[i] as number) * (y[i] as number) ** 2;
      }
      const n = Math.max(1, x.length);
      pulses = { x, y, chance: (mx / n) * (my / n) ** 2, self: self / n };
    }
    return pulses;
  };
  return {
    acf,
    rate,
    grid,
    salience: values,
    at: (bpm) => {
      if (!(bpm >= MIN_BPM && bpm <= MAX_BPM)) return 0;
      const i = Math.log(bpm / MIN_BPM) / Math.log(1 + GRID_STEP);
      const k = Math.floor(i);
      const f = i - k;
      return (values[k] ?? 0) * (1 - f) + (values[k + 1] ?? 0) * f;
    },
    own: (bpm) => Math.max(0, peakNear(acf, (60 * rate) / bpm, 0.015)),
    continuity: (bpm) => {
      // Above chance (onsets at independent times), relative to a pulse that never misses a beat.
      const { x, y, chance, self } = onsets();
      if (!(self > chance)) return 0;
      return (continuity(x, y, (60 * rate) / bpm, 0.015) - chance) / (self - chance);
    },
  };
}

/** Exact tempo by fitting a comb of up to 8 beats to the autocorrelation within ±3 % of `bpm`. */
export function refine(curve: SalienceCurve, bpm: number): number {
  let best = bpm;
  let bestScore = -Infinity;
  for (let r = -0.03; r <= 0.03 + 1e-9; r += 0.001) {
    const t = bpm * (1 + r);
    const lag = (60 * curve.rate) / t;
    let s = 0;
    let n = 0;
    for (let k = 1; k <= 8 && k * lag < curve.acf.length - 1; k++, n++) s += at(curve.acf, k * lag);
    if (n > 0 && s / n > bestScore) {
      bestScore = s / n;
      best = t;
    }
  }
  return best;
}
