// Tempo from audio: onset strength → autocorrelation → salience of each beat period → the metrical
// family (a tempo with its doubles and halves) that best explains the music → an octave within it.
//
// Choosing the family first is what keeps 3:2 and 3:1 errors rare: a family's evidence is pooled over
// octaves, so a dotted or triplet level only wins when the music really repeats at it. The octave
// is then a matter of taste (runners can use half or double), decided by a prior around 120 BPM.
import { onsetEnvelopes } from './onset.ts';
import { at, autocorrelation, peakNear } from './periodicity.ts';

export interface TempoCandidate {
  bpm: number;
  /** Relative support, 1 for the best candidate. */
  score: number;
}

export interface TempoEstimate {
  bpm: number | null;
  /** 0..1; below about 0.3 treat the answer as a guess. */
  confidence: number;
  candidates: TempoCandidate[];
  reason?: string;
}

export const MIN_SECONDS = 5;
const MIN_BPM = 40;
const MAX_BPM = 250;
const GRID_STEP = 0.005;
const SILENCE_RMS = 1e-4; // about -80 dBFS
/** Lags beyond this (seconds) are not used: long lags blur with tempo drift. */
const MAX_LAG_SECONDS = 6;
/** Multiples of a beat period averaged into its comb score, up to this lag (seconds). */
const COMB_SECONDS = 4.5;
const OWN_WEIGHT = 0.3;
/** Weight of the summed-band autocorrelation against the mean of per-band ones. */
const SUM_WEIGHT = 0.5;
const PRIOR_CENTRE = 120;
/** Width (octaves) of the prior used to compare families, and of the one that picks the octave. */
const FAMILY_PRIOR_OCTAVES = 1;
const OCTAVE_PRIOR_OCTAVES = 0.8;
/** Below this salience there is no pulse worth reporting. */
const MIN_SALIENCE = 0.05;
const MIN_CONFIDENCE = 0.15;

const logPrior = (bpm: number, octaves: number) =>
  Math.exp(-0.5 * (Math.log2(bpm / PRIOR_CENTRE) / octaves) ** 2);

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

/** Exact tempo by fitting a comb of up to 8 beats to the autocorrelation within ±3 % of `bpm`. */
function refine(acf: Float64Array, rate: number, bpm: number): number {
  let best = bpm;
  let bestScore = -Infinity;
  for (let r = -0.03; r <= 0.03 + 1e-9; r += 0.001) {
    const t = bpm * (1 + r);
    const lag = (60 * rate) / t;
    let s = 0;
    let n = 0;
    for (let k = 1; k <= 8 && k * lag < acf.length - 1; k++, n++) s += at(acf, k * lag);
    if (n > 0 && s / n > bestScore) {
      bestScore = s / n;
      best = t;
    }
  }
  return best;
}

export interface TempoAnalysis {
  acf: Float64Array;
  rate: number;
  /** Tempo grid (BPM, log-spaced) and the salience at each. */
  grid: number[];
  salience: number[];
}

/** The intermediate curves, for estimation and for inspection. */
export function analyseTempo(pcm: Float32Array, sampleRate: number): TempoAnalysis & { rms: number } {
  const env = onsetEnvelopes(pcm, sampleRate);
  const maxLag = Math.round(Math.min(MAX_LAG_SECONDS, pcm.length / sampleRate / 2) * env.rate);
  const summed = autocorrelation([env.sum], maxLag);
  const perBand = autocorrelation(env.bands, maxLag);
  const acf = summed.map((v, i) => SUM_WEIGHT * v + (1 - SUM_WEIGHT) * (perBand[i] as number));
  const grid: number[] = [];
  for (let b = MIN_BPM; b <= MAX_BPM; b *= 1 + GRID_STEP) grid.push(b);
  return { acf, rate: env.rate, grid, salience: grid.map((b) => salience(acf, env.rate, b)), rms: env.rms };
}

/** True when a and b are the same tempo up to a power of two (within 4 %). */
export function octaveRelated(a: number, b: number): boolean {
  const r = Math.log2(a / b);
  return Math.abs(r - Math.round(r)) < Math.log2(1.04);
}

const none = (reason: string, confidence = 0, candidates: TempoCandidate[] = []): TempoEstimate => ({
  bpm: null,
  confidence,
  candidates,
  reason,
});

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;

/**
 * Estimate the tempo (beats per minute) of mono PCM. Right up to a factor of two by design; answers
 * `bpm: null` with a reason when the audio cannot support an answer (too short, silent, no pulse).
 */
export function estimateTempo(pcm: Float32Array, sampleRate: number): TempoEstimate {
  if (!(sampleRate >= 8000)) return none(`unsupported sample rate ${sampleRate}`);
  const seconds = pcm.length / sampleRate;
  if (seconds < MIN_SECONDS) return none(`clip too short (${seconds.toFixed(1)} s, need ${MIN_SECONDS} s)`);

  const a = analyseTempo(pcm, sampleRate);
  if (!(a.rms > SILENCE_RMS)) return none('silent audio');
  const salAt = (bpm: number) => {
    if (bpm < MIN_BPM || bpm > MAX_BPM) return 0;
    const i = Math.log(bpm / MIN_BPM) / Math.log(1 + GRID_STEP);
    const k = Math.floor(i);
    const f = i - k;
    return (a.salience[k] ?? 0) * (1 - f) + (a.salience[k + 1] ?? 0) * f;
  };
  const members = (c: number) => [c / 2, c, 2 * c, 4 * c].filter((m) => m >= MIN_BPM && m <= MAX_BPM);

  // Each family {c/2, c, 2c, 4c} with c in one octave scores its best member under a broad prior.
  const families: { c: number; score: number; best: number }[] = [];
  for (let c = 62.5; c < 125; c *= 1 + GRID_STEP) {
    let score = 0;
    let best = c;
    for (const m of members(c)) {
      const s = salAt(m) * logPrior(m, FAMILY_PRIOR_OCTAVES);
      if (s > score) {
        score = s;
        best = m;
      }
    }
    families.push({ c, score, best });
  }
  const peaks = families.filter((f, i) => {
    // The octave wraps around: the family after the last is the first.
    const prev = families[(i + families.length - 1) % families.length] as { score: number };
    const next = families[(i + 1) % families.length] as { score: number };
    return f.score > 0 && f.score >= prev.score && f.score > next.score;
  });
  peaks.sort((x, y) => y.score - x.score);
  const top = peaks[0];
  if (!top) return none('no periodic onsets');
  const rival = peaks.find((p) => !octaveRelated(p.c, top.c));

  // The octave within the family: salience under a narrower prior.
  const octaves = members(top.c)
    .map((m) => ({ bpm: m, score: salAt(m) * logPrior(m, OCTAVE_PRIOR_OCTAVES) }))
    .sort((x, y) => y.score - x.score);
  const chosen = octaves[0] as { bpm: number; score: number };
  const bpm = refine(a.acf, a.rate, chosen.bpm);

  const strength = salAt(chosen.bpm);
  const margin = rival ? 1 - rival.score / top.score : 1;
  const confidence = round(Math.max(0, Math.min(1, (strength / 0.25) * (0.4 + margin))), 3);

  const best = Math.max(chosen.score, 1e-9);
  const candidates: TempoCandidate[] = [
    { bpm, score: 1 },
    ...octaves.slice(1).map((o) => ({ bpm: o.bpm, score: o.score / best })),
    ...(rival ? [{ bpm: rival.best, score: rival.score / top.score }] : []),
  ]
    .map((c) => ({ bpm: round(c.bpm, 2), score: round(Math.min(1, c.score), 3) }))
    .sort((x, y) => y.score - x.score);

  if (strength < MIN_SALIENCE || confidence < MIN_CONFIDENCE) {
    return none('no clear pulse', Math.min(confidence, MIN_CONFIDENCE), candidates);
  }
  return { bpm: round(bpm, 2), confidence, candidates };
}
