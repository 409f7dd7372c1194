// True tempo of a recording and how the outside services misreport it. The true tempo is the beat
// a runner steps to; services report it, its double or its half, or nothing.
import { Rng } from './rng.ts';
import { reportTempo } from './tempo-errors.ts';

export const PATTERN_NAMES = [
  'four-on-the-floor',
  'backbeat',
  'half-time',
  'swing',
  'waltz',
  'sparse',
  'six-eight',
  'five-four',
  'seven-eight',
] as const;
export type PatternName = (typeof PATTERN_NAMES)[number];

/**
 * A recording's meter. 4/4 for most; 3/4 (a waltz: bars of three beats, the strong one alternating
 * feet under a runner's two-step stride); 6/8 (two beats a bar, each of three eighths); 5/4 (3 + 2
 * beats) and 7/8 (2 + 2 + 3 eighths, a bar of three and a half beats).
 */
export const METERS = ['4/4', '3/4', '6/8', '5/4', '7/8'] as const;
export type Meter = (typeof METERS)[number];

export interface TempoTruth {
  /**
   * Beats per minute, two decimals: the beat a runner steps to. In 6/8 the dotted quarter (two a bar),
   * in 7/8 the quarter (two eighths), otherwise the quarter note.
   */
  bpm: number;
  pattern: PatternName;
  meter: Meter;
}

/** The pattern that plays each meter other than 4/4 (and 3/4's waltz). */
const METER_PATTERN: Record<Exclude<Meter, '4/4'>, PatternName> = {
  '3/4': 'waltz',
  '6/8': 'six-eight',
  '5/4': 'five-four',
  '7/8': 'seven-eight',
};
export const meterOfPattern = (p: PatternName): Meter =>
  (Object.entries(METER_PATTERN).find(([, q]) => q === p)?.[0] as Meter | undefined) ?? '4/4';

// A mixture drawn from popular music: hip-hop and R&B near 90-100, pop and house 115-130,
// rock and techno 130-150, punk, fast pop and drum & bass 160-180, ballads below 90.
const MODES: ReadonlyArray<{ w: number; mean: number; sd: number }> = [
  { w: 11, mean: 78, sd: 8 },
  { w: 17, mean: 96, sd: 6 },
  { w: 24, mean: 122, sd: 6 },
  { w: 15, mean: 140, sd: 7 },
  { w: 14, mean: 166, sd: 8 },
  { w: 7, mean: 174, sd: 2 },
];

export function drawTrueTempo(seed: number, recordingKey: number): TempoTruth {
  const rng = new Rng(seed, 'tempo', recordingKey);
  let bpm: number;
  if (rng.chance(0.12)) bpm = 70 + rng.next() * 130;
  else {
    const m = MODES[rng.weighted(MODES.map((x) => x.w))] as { mean: number; sd: number };
    bpm = m.mean + rng.normal() * m.sd;
  }
  bpm = Math.min(205, Math.max(58, bpm));
  bpm = rng.chance(0.5) ? Math.round(bpm) : Math.round(bpm * 100) / 100;
  let pattern: PatternName;
  const p = rng.next();
  if (p < 0.05) pattern = 'waltz';
  else if (bpm < 92) pattern = p < 0.45 ? 'sparse' : p < 0.8 ? 'backbeat' : 'swing';
  else if (bpm >= 115 && bpm <= 132)
    pattern = p < 0.55 ? 'four-on-the-floor' : p < 0.85 ? 'backbeat' : 'swing';
  else if (bpm > 132)
    pattern = p < 0.3 ? 'half-time' : p < 0.75 ? 'backbeat' : p < 0.9 ? 'four-on-the-floor' : 'sparse';
  else pattern = p < 0.6 ? 'backbeat' : p < 0.8 ? 'swing' : p < 0.9 ? 'sparse' : 'four-on-the-floor';
  if (pattern !== 'waltz') {
    // The other meters, drawn apart so that no recording's tempo or 3/4 changes: 6/8 (about 2 % of
    // recordings) where the felt beat is slow enough for its eighths to be played, 5/4 and 7/8 about
    // 0.5 % each.
    const m = new Rng(seed, 'meter', recordingKey).next();
    if (bpm < 110 && m < 0.055) pattern = 'six-eight';
    else if (m >= 0.995) pattern = 'five-four';
    else if (m >= 0.99) pattern = 'seven-eight';
  }
  return { bpm, pattern, meter: meterOfPattern(pattern) };
}

/** True if bpm, its double or its half lies in [min, max) (with an optional relative tolerance). */
export function fitsRange(bpm: number, min: number, max: number, tolerance = 0): boolean {
  const lo = min * (1 - tolerance);
  const hi = max * (1 + tolerance);
  return [bpm, bpm * 2, bpm / 2].some((b) => b >= lo && b < hi);
}

/**
 * What an analyser like Spotify's old audio-features reports with octave errors only: mostly the true
 * tempo within a fraction of a percent, but the double or the half for a share (more for half-time
 * feels and sparse tracks). The services use reportTempo (tempo-errors.ts), which adds the other errors.
 */
export function analysedTempo(
  seed: number,
  key: number,
  truth: TempoTruth,
  source: string,
  octaveErrorShare: number,
): number {
  return reportTempo(seed, key, truth, source, octaveErrorShare, NO_ERRORS).bpm;
}

const NO_ERRORS = { threeTwoShare: 0, otherVersionShare: 0, wrongShare: 0 };
