// Choosing one tempo from what the sources said and, when there is one, the estimate from the audio.
// Pure. Sources that agree raise confidence; sources that disagree by a factor of 2 are settled by
// the audio (the candidate the estimator's evidence supports) and both are kept as alternatives.
import type { TempoAlternative } from '../db/tempo.schema.ts';
import { octaveRelated } from './estimator/families.ts';

export type TempoSource = 'spotify' | 'reccobeats' | 'deezer' | 'getsongbpm' | 'estimator';

/** How much a value from each metadata source is trusted on its own. */
export const SOURCE_CONFIDENCE: Record<Exclude<TempoSource, 'estimator'>, number> = {
  spotify: 0.9,
  reccobeats: 0.85,
  deezer: 0.8,
  getsongbpm: 0.75,
};

/** Below this the estimator's answer is a guess: kept as an alternative, not used. */
export const MIN_ESTIMATE_CONFIDENCE = 0.3;

export interface AudioEstimate {
  bpm: number | null;
  confidence: number;
  candidates: { bpm: number; score: number }[];
  reason?: string;
}

export interface Decision {
  bpm: number | null;
  source: TempoSource | null;
  confidence: number;
  alternatives: TempoAlternative[];
  reason?: string;
}

/** Same tempo up to a power of two: the estimator's own test, so the two never disagree. */
export { octaveRelated };

/** Within 4 %: the same tempo. */
export const sameTempo = (a: number, b: number) => Math.abs(Math.log(a / b)) < Math.log(1.04);
const round = (x: number, d: number) => Math.round(x * 10 ** d) / 10 ** d;

/** How strongly the audio supports `bpm`: its answer (2), else the best candidate within 4 % relative to the top one. */
function support(estimate: AudioEstimate, bpm: number): number {
  // The estimator's own answer (salience and its octave prior) counts above any other candidate.
  if (estimate.bpm !== null && sameTempo(estimate.bpm, bpm)) return 2;
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
 * One tempo from `answers` (metadata sources in priority order) and an optional audio estimate.
 * Never confident when the evidence conflicts.
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
  const primary = answers[0];
  if (!primary) {
    if (estimate && estimate.bpm !== null && estimate.confidence >= MIN_ESTIMATE_CONFIDENCE) {
      return {
        bpm: round(estimate.bpm, 2),
        source: 'estimator',
        confidence: round(estimate.confidence, 3),
        alternatives,
      };
    }
    const reason = !estimate
      ? 'no source knows this track'
      : estimate.bpm === null
        ? `estimator: ${estimate.reason ?? 'no answer'}`
        : `estimator: too uncertain (${estimate.confidence.toFixed(2)})`;
    return { bpm: null, source: null, confidence: 0, alternatives, reason };
  }

  const withAudio = (a: TempoAlternative, c: number) =>
    estimate && estimate.bpm !== null && octaveRelated(estimate.bpm, a.bpm) ? Math.min(0.99, c + 0.1) : c;

  if (!disagree(answers)) {
    const agreeing = answers.length;
    const c = Math.min(0.99, primary.confidence + 0.05 * (agreeing - 1));
    // The audio contradicts the sources (not a factor of 2): the more confident side wins, in doubt.
    if (estimate && estimate.bpm !== null && !octaveRelated(estimate.bpm, primary.bpm)) {
      const audioWins = estimate.confidence > c;
      return {
        bpm: round(audioWins ? estimate.bpm : primary.bpm, 2),
        source: audioWins ? 'estimator' : (primary.source as TempoSource),
        confidence: round(0.6 * (audioWins ? estimate.confidence : c), 3),
        alternatives,
        reason: 'the audio disagrees with the sources',
      };
    }
    return {
      bpm: round(primary.bpm, 2),
      source: primary.source as TempoSource,
      confidence: round(withAudio(primary, c), 3),
      alternatives,
    };
  }

  // Disagreement. With audio: the value the audio supports most; ties go to the value nearest the
  // estimate (in octaves), then to the higher-priority source.
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
      const allOctave = answers.every((a) => octaveRelated(a.bpm, best.bpm));
      const c = allOctave ? withAudio(best, best.confidence) : Math.min(best.confidence, 0.6);
      return {
        bpm: round(best.bpm, 2),
        source: best.source as TempoSource,
        confidence: round(c, 3),
        alternatives,
      };
    }
  }
  // No audio to settle it: a factor of 2 still serves a runner (half-time matching); anything else is doubtful.
  const allOctave = answers.every((a) => octaveRelated(a.bpm, primary.bpm));
  const c = allOctave ? primary.confidence * 0.8 : primary.confidence * 0.4;
  return {
    bpm: round(primary.bpm, 2),
    source: primary.source as TempoSource,
    confidence: round(c, 3),
    alternatives,
    reason: allOctave ? 'sources disagree by a factor of 2' : 'sources disagree',
  };
}
