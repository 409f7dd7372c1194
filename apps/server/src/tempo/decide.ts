// Choosing one tempo from what the sources said and, when there is one, the estimate from the audio.
// Pure. A tempo is *checked* when two independent analyses stand behind it (two metadata sources that
// agree, or a source and the audio); a lone source is not trusted enough to place, because nothing
// caught its 3:2 or wrong value. Sources that disagree are settled by the audio or stay doubtful.
import type { TempoAlternative } from '../db/tempo.schema.ts';
import { octaveRelated } from './estimator/families.ts';
import type { AudioMeter } from './meter.ts';

export type TempoSource = 'spotify' | 'reccobeats' | 'deezer' | 'getsongbpm' | 'estimator';

/** How much a value from each metadata source is trusted once something checked it. */
export const SOURCE_CONFIDENCE: Record<Exclude<TempoSource, 'estimator'>, number> = {
  spotify: 0.9,
  reccobeats: 0.85,
  deezer: 0.8,
  getsongbpm: 0.75,
};

/** A lone source, unchecked: below the playlists' threshold (0.76), whichever source it is. */
export const UNCHECKED_PENALTY = 0.15;

/** The audio alone, unchecked: below the playlists' threshold (0.76). */
export const UNCHECKED_AUDIO_MAX = 0.7;

/** Below this the estimator's answer is a guess: kept as an alternative, not used, checks nothing. */
export const MIN_ESTIMATE_CONFIDENCE = 0.3;

/** Settling a 3:2 dispute needs a clear audio answer: under 0.5 a rival (often at 3:2) is nearly as likely. */
export const SETTLE_3_2_CONFIDENCE = 0.5;

/**
 * ReccoBeats mirrors Spotify's audio-features (the same analyser, the same errors): their agreement
 * checks nothing. The other sources are independent of each other and of the audio.
 */
const analysis = (source: string) => (source === 'reccobeats' ? 'spotify' : source);

export interface AudioEstimate {
  bpm: number | null;
  confidence: number;
  candidates: { bpm: number; score: number }[];
  reason?: string;
  /** The meter the audio plays (estimator/meter.ts). */
  meter?: AudioMeter;
  /**
   * The preview came from a Deezer track found by artist and title, not by ISRC: perhaps another song or
   * version. Deezer's own tempo of that track and the audio then describe the same song and check nothing
   * of each other; only an answer keyed by the Spotify track (ReccoBeats, Spotify) or another source can.
   */
  previewBySearch?: boolean;
  /** When it ran on a thread of its own (the estimator's pool): ms there, and the CPU time of it. */
  runMs?: number;
  cpuMs?: number;
}

/** Whether the audio's agreement with answer `a` is a check: not when both describe the same search match. */
const audioChecks = (estimate: AudioEstimate, a: TempoAlternative) =>
  !(estimate.previewBySearch && a.source === 'deezer');

export interface Decision {
  bpm: number | null;
  source: TempoSource | null;
  confidence: number;
  alternatives: TempoAlternative[];
  /** Two independent analyses stand behind the tempo (sources, or a source and the audio). */
  checked: boolean;
  reason?: string;
}

/** Same tempo up to a power of two: the estimator's own test, so the two never disagree. */
export { octaveRelated };

/** Within 4 %: the same tempo. */
export const sameTempo = (a: number, b: number) => Math.abs(Math.log(a / b)) < Math.log(1.04);
const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

/** Support at or above this: the audio's own answer, up to a factor of 2 (`support`). */
const OWN_ANSWER = 1.5;

/**
 * How strongly the audio supports `bpm`: its answer (2), its answer's double or half (1.5), else the best
 * candidate within 4 % relative to the top one (at most 1).
 */
function support(estimate: AudioEstimate, bpm: number): number {
  // The estimator's own answer (salience and its octave prior) counts above any other candidate; its
  // octave is only the prior's choice, so the same family an octave away counts above them too.
  if (estimate.bpm !== null && sameTempo(estimate.bpm, bpm)) return 2;
  if (estimate.bpm !== null && octaveRelated(estimate.bpm, bpm)) return OWN_ANSWER;
  const top = Math.max(1e-9, ...estimate.candidates.map((c) => c.score));
  let best = 0;
  for (const c of estimate.candidates)
    if (sameTempo(c.bpm, bpm)) best = Math.max(best, Math.min(1, c.score / top));
  return best;
}

/** Whether the sources' values are not all the same tempo. */
export function disagree(answers: TempoAlternative[]): boolean {
  const first = answers[0];
  return first !== undefined && answers.some((a) => !sameTempo(a.bpm, first.bpm));
}

/**
 * `bpm` made more precise by the values that agree with it up to an octave (each source is a fraction
 * of a per cent off; independent ones average out): their geometric mean, in `bpm`'s octave.
 */
function refined(bpm: number, values: number[]): number {
  const logs: number[] = [];
  for (const v of values) {
    const k = Math.round(Math.log2(bpm / v));
    if (sameTempo(v * 2 ** k, bpm)) logs.push(Math.log(v * 2 ** k));
  }
  if (logs.length === 0) return round(bpm, 2);
  return round(Math.exp(logs.reduce((a, b) => a + b, 0) / logs.length), 2);
}

/**
 * One tempo from `answers` (metadata sources in priority order) and an optional audio estimate.
 * Never confident when the evidence conflicts, nor when only one analysis stands behind it.
 */
export function decide(answers: TempoAlternative[], estimate?: AudioEstimate): Decision {
  const alternatives = [...answers];
  if (estimate && estimate.bpm !== null) {
    alternatives.push({
      bpm: round(estimate.bpm, 2),
      source: 'estimator',
      confidence: round(estimate.confidence, 3),
    });
  }
  // An estimate that can check a source: an answer, not a guess.
  const audio =
    estimate && estimate.bpm !== null && estimate.confidence >= MIN_ESTIMATE_CONFIDENCE
      ? estimate
      : undefined;
  const audioBpm = audio?.bpm ?? null;
  const primary = answers[0];
  if (!primary) {
    if (audio && audioBpm !== null) {
      // The audio alone is one analysis too (of a preview found by ISRC or by name: perhaps another
      // version), and 3:2 is its own typical error: kept, not trusted enough to place.
      return {
        bpm: round(audioBpm, 2),
        source: 'estimator',
        confidence: round(Math.min(audio.confidence, UNCHECKED_AUDIO_MAX), 3),
        alternatives,
        checked: false,
        reason: 'the audio alone, nothing to check it against',
      };
    }
    const reason = !estimate
      ? 'no source knows this track'
      : estimate.bpm === null
        ? `estimator: ${estimate.reason ?? 'no answer'}`
        : `estimator: too uncertain (${estimate.confidence.toFixed(2)})`;
    return { bpm: null, source: null, confidence: 0, alternatives, checked: false, reason };
  }
  const values = (best: TempoAlternative) => [
    ...answers.map((a) => a.bpm),
    ...(audioBpm !== null && octaveRelated(audioBpm, best.bpm) ? [audioBpm] : []),
  ];

  if (!disagree(answers)) {
    const families = new Set(answers.map((a) => analysis(a.source))).size;
    // The audio contradicts the sources (not a factor of 2): the more confident side wins, in doubt.
    if (audio && audioBpm !== null && !octaveRelated(audioBpm, primary.bpm)) {
      const c = Math.min(0.99, primary.confidence + 0.05 * (families - 1));
      const audioWins = audio.confidence > c;
      return {
        bpm: round(audioWins ? audioBpm : primary.bpm, 2),
        source: audioWins ? 'estimator' : (primary.source as TempoSource),
        confidence: round(0.6 * (audioWins ? audio.confidence : c), 3),
        alternatives,
        checked: false,
        reason: 'the audio disagrees with the sources',
      };
    }
    const byAudio = audio !== undefined && audioBpm !== null && answers.some((a) => audioChecks(audio, a));
    const checked = families >= 2 || byAudio;
    const c = checked
      ? Math.min(0.99, primary.confidence + 0.05 * (families - 1) + (byAudio ? 0.1 : 0))
      : primary.confidence - UNCHECKED_PENALTY;
    return {
      bpm: refined(primary.bpm, values(primary)),
      source: primary.source as TempoSource,
      confidence: round(c, 3),
      alternatives,
      checked,
      ...(checked ? {} : { reason: 'one source, nothing to check it against' }),
    };
  }

  // Disagreement. With audio: the value the audio supports most; ties go to the value nearest the
  // estimate (in octaves), then to the higher-priority source.
  const allOctaveOf = (best: TempoAlternative) => answers.every((a) => octaveRelated(a.bpm, best.bpm));
  if (estimate && estimate.bpm !== null) {
    const e = estimate.bpm;
    const distance = (a: TempoAlternative) => Math.abs(Math.log2(a.bpm / e));
    let best: TempoAlternative | undefined;
    let bestSupport = 0;
    for (const a of answers) {
      const s = support(estimate, a.bpm);
      if (
        s > bestSupport + 1e-9 ||
        (best && Math.abs(s - bestSupport) <= 1e-9 && distance(a) < distance(best) - 1e-9)
      ) {
        best = a;
        bestSupport = s;
      }
    }
    if (!best) {
      const related = answers.filter((a) => octaveRelated(a.bpm, e));
      best = related.sort((x, y) => distance(x) - distance(y))[0];
    }
    if (best) {
      const b = best;
      const byAudio =
        audio !== undefined &&
        audioBpm !== null &&
        octaveRelated(audioBpm, b.bpm) &&
        answers.some((a) => octaveRelated(a.bpm, b.bpm) && audioChecks(audio, a));
      let c: number;
      let checked: boolean;
      if (allOctaveOf(best)) {
        // A factor of 2 only: every side fits the same running targets; the audio picks the octave.
        const families = new Set(answers.map((a) => analysis(a.source))).size;
        checked = byAudio || (families >= 2 && audioBpm === null);
        c = byAudio
          ? Math.min(0.99, best.confidence + 0.1)
          : checked
            ? best.confidence
            : Math.min(best.confidence, 0.6);
      } else {
        // 3:2 or worse: settled only when the audio's own, clear answer is one side (up to a factor of 2:
        // which family, not which octave, is the question here).
        checked = byAudio && bestSupport >= OWN_ANSWER && (audio?.confidence ?? 0) >= SETTLE_3_2_CONFIDENCE;
        // Checked by the audio, as in every other case (GetSongBPM's own 0.75 alone is under the playlists'
        // threshold: a dispute the audio settled for it was never placed).
        c = checked ? Math.min(0.99, best.confidence + 0.1) : Math.min(best.confidence, 0.6);
      }
      return {
        bpm: refined(best.bpm, values(best)),
        source: best.source as TempoSource,
        confidence: round(c, 3),
        alternatives,
        checked,
        ...(checked ? {} : { reason: 'sources disagree and the audio does not settle it' }),
      };
    }
  }
  // No audio to settle it. Independent sources a factor of 2 apart agree for a runner (half-time
  // matching); the same analysis twice, or anything else, is doubtful.
  const allOctave = allOctaveOf(primary);
  const families = new Set(answers.map((a) => analysis(a.source))).size;
  const checked = allOctave && families >= 2;
  const c = checked
    ? primary.confidence
    : allOctave
      ? primary.confidence - UNCHECKED_PENALTY
      : primary.confidence * 0.4;
  return {
    bpm: allOctave ? refined(primary.bpm, values(primary)) : round(primary.bpm, 2),
    source: primary.source as TempoSource,
    confidence: round(c, 3),
    alternatives,
    checked,
    reason: allOctave ? 'sources disagree by a factor of 2' : 'sources disagree',
  };
}
