// Tempo from audio: onset strength (onset.ts) → salience of each beat period (salience.ts) → the
// metrical family that best explains the music (families.ts) → an octave within it, here.
import { chooseFamily, logPrior, members, octaveRelated } from './families.ts';
import { estimateMeter } from './meter.ts';
import type { AudioMeter } from '../meter.ts';
import { onsetEnvelopes } from './onset.ts';
import { refine, salienceCurve } from './salience.ts';

export { octaveRelated };

export interface TempoCandidate {
  bpm: number;
  /** Relative support, 1 for the best candidate. */
  score: number;
}

export interface TempoEstimate {
  bpm: number | null;
  /** 0..1. Under 0.5 a rival tempo (often at 3:2) is nearly as likely; `bpm` is null when there is no pulse. */
  confidence: number;
  candidates: TempoCandidate[];
  reason?: string;
  /** The meter the bar's accents play at that tempo (estimator/meter.ts); absent without a tempo. */
  meter?: AudioMeter;
}

export const MIN_SECONDS = 5;
const SILENCE_RMS = 1e-4; // about -80 dBFS
/**
 * The octave is chosen under a log-normal prior centred on the average tempo of running playlists
 * (the sandbox's tempo mixture averages about 127 BPM), 0.6 octave wide.
 */
const OCTAVE_PRIOR_CENTRE = 128;
const OCTAVE_PRIOR_OCTAVES = 0.6;
/** Below this pulse clarity the answer is "unknown" (noise and random clicks stay under 0.25)… */
const MIN_CLARITY = 0.4;
/** …and below this one as well, unless both halves of the clip agree on the family. */
const CLEAR_WITHOUT_AGREEMENT = 0.8;
/** The most confidence an answer can have after overriding the best-supported family. */
const OVERRIDE_MAX_CONFIDENCE = 0.7;
const DISAGREEMENT_FACTOR = 0.7;
/**
 * A beat divided in three: the continuity of onsets a third of a beat apart at least this (on the
 * synthesised corpus a 6/8 heard at its beat scores 0.01-0.16, a swing at most 0.03, a straight 4/4 at
 * most 0.00: bench/tempo-accuracy), full strength this much above it.
 */
const COMPOUND_MIN = 0.05;
const COMPOUND_FULL = 0.1;

const none = (reason: string, confidence = 0, candidates: TempoCandidate[] = []): TempoEstimate => ({
  bpm: null,
  confidence,
  candidates,
  reason,
});

const round = (x: number, digits: number) => Math.round(x * 10 ** digits) / 10 ** digits;
const clamp01 = (x: number) => Math.max(0, Math.min(1, x));

/**
 * Estimate the tempo (beats per minute) of mono PCM. Right up to a factor of two by design; answers
 * `bpm: null` with a reason when the audio cannot support an answer (too short, silent, no pulse).
 */
export function estimateTempo(pcm: Float32Array, sampleRate: number): TempoEstimate {
  if (!(sampleRate >= 8000)) return none(`unsupported sample rate ${sampleRate}`);
  const seconds = pcm.length / sampleRate;
  if (seconds < MIN_SECONDS) return none(`clip too short (${seconds.toFixed(1)} s, need ${MIN_SECONDS} s)`);

  const env = onsetEnvelopes(pcm, sampleRate);
  if (!(env.rms > SILENCE_RMS)) return none('silent audio');
  const curve = salienceCurve(env);
  const choice = chooseFamily(curve);
  if (!choice) return none('no periodic onsets');
  const { top, pick, overridden, rival } = choice;

  // The octave within the family: salience under the octave prior.
  const octaves = members(pick.c)
    .map((m) => ({ bpm: m, score: curve.at(m) * logPrior(m, OCTAVE_PRIOR_CENTRE, OCTAVE_PRIOR_OCTAVES) }))
    .sort((x, y) => y.score - x.score);
  const chosen = octaves[0] as { bpm: number; score: number };
  const bpm = refine(curve, chosen.bpm);

  // Is there a pulse at all? The family's salience is high, or stands well above the median
  // salience (noise and random clicks stay under 0.05 and about 2x). A real tempo also holds over
  // time, so each half of the clip should find the same family.
  const sorted = [...curve.salience].sort((x, y) => x - y);
  const median = Math.max(1e-9, sorted[Math.floor(sorted.length / 2)] as number);
  const strength = Math.max(...members(pick.c).map((m) => curve.at(m)));
  const clarity = clamp01(Math.max((strength / median - 1.5) / 2, (strength - 0.03) / 0.1));
  const half = Math.floor(env.sum.length / 2);
  const agree = [salienceCurve(env, 0, half), salienceCurve(env, half)].every((c) => {
    const h = chooseFamily(c);
    return h !== null && octaveRelated(h.pick.c, pick.c);
  });

  // Confidence: pulse clarity, and how far ahead of the best unrelated family the pick is.
  const margin = rival ? Math.max(0, 1 - rival.score / Math.max(pick.score, top.score)) : 1;
  let confidence = Math.sqrt(clarity * clamp01(margin / 0.5));
  if (!agree) confidence *= DISAGREEMENT_FACTOR;
  if (overridden) confidence = Math.min(confidence, OVERRIDE_MAX_CONFIDENCE);
  confidence = round(confidence, 3);

  const best = Math.max(chosen.score, 1e-9);
  const candidates: TempoCandidate[] = [
    { bpm, score: 1 },
    ...octaves.slice(1).map((o) => ({ bpm: o.bpm, score: o.score / best })),
    ...[overridden, rival].flatMap((f) => (f ? [{ bpm: f.best, score: f.score / pick.score }] : [])),
  ]
    .map((c) => ({ bpm: round(c.bpm, 2), score: round(clamp01(c.score), 3) }))
    .sort((x, y) => y.score - x.score);

  if (clarity < MIN_CLARITY || (!agree && clarity < CLEAR_WITHOUT_AGREEMENT)) {
    return none('no clear pulse', Math.min(confidence, 0.2), candidates);
  }
  const m = estimateMeter(env, bpm);
  // Duple bars whose beat divides in three (an onset on every third of the beat, three in a row): a 6/8
  // felt in two, or a 12/8 shuffle. A swing leaves the middle third empty, a straight 4/4 has none there.
  if (m.meter === '4/4') {
    const thirds = curve.continuity(bpm * 3);
    if (thirds >= COMPOUND_MIN)
      return {
        bpm: round(bpm, 2),
        confidence,
        candidates,
        meter: { meter: '6/8', strength: round(clamp01((thirds - COMPOUND_MIN) / COMPOUND_FULL + 0.5), 3) },
      };
  }
  return { bpm: round(bpm, 2), confidence, candidates, meter: { meter: m.meter, strength: m.strength } };
}
