// A song's meter from what the sources label it and what the audio hears. Pure. Labels are evidence,
// not truth: Spotify's analyser (and ReccoBeats, which mirrors it) and GetSongBPM's contributors call a
// waltz 4/4 about as often as not, and a 4/4 song 3/4 rarely; the estimator hears bars of three against
// bars of two and four in the preview. Each analysis weighs by how often it is right (a naive Bayes
// vote over the five meters), so a lone 4/4 label does not outweigh a clear waltz in the audio.
import type { Meter } from '@pacebeat/contract';
import { METERS } from '@pacebeat/contract/rules';
import type { TempoAlternative } from '../db/tempo.schema.ts';

export type { Meter };

/** How common each meter is in popular music: 4/4 overwhelmingly. */
const PRIOR: Record<Meter, number> = { '4/4': 0.92, '3/4': 0.05, '6/8': 0.02, '5/4': 0.005, '7/8': 0.005 };

/**
 * P(label | true meter) for a metadata label: a 4/4 song is labelled 4/4 nearly always; any other meter
 * is named right a bit more often than not, and otherwise mostly flattened to 4/4 (a 6/8 also to 3/4).
 */
function labelLikelihood(label: Meter, truth: Meter): number {
  if (truth === '4/4') return label === '4/4' ? 0.98 : 0.005;
  if (label === truth) return 0.55;
  if (label === '4/4') return 0.38;
  if (truth === '6/8' && label === '3/4') return 0.25;
  return 0.02;
}

/**
 * P(audio's answer | true meter) for a clear answer of the estimator (estimator/meter.ts and the beat's
 * thirds in estimate.ts), of strength `strength` (0.5..1). It hears bars of three, five and seven, and a
 * duple bar whose beat divides in three as 6/8; a 6/8 is also heard as 4/4 (when its eighths are not all
 * played) or, when it took pairs of eighths for the beat, as 3/4. A 4/4 song heard as odd or compound is
 * rare, and rarer the clearer the answer: on the synthesised corpus no 4/4 clip gave such an answer at
 * strength 0.5 or more (bench/tempo-accuracy prints the figures). A real 4/4 shuffle played in full
 * triplets is heard as 6/8, which is what it is to a runner's feet.
 */
function audioLikelihood(heard: Meter, truth: Meter, strength: number): number {
  const falseOdd = 0.004 * (1 - 0.9 * strength);
  if (truth === '4/4') return heard === '4/4' ? 1 - 4 * falseOdd : falseOdd;
  if (truth === '6/8') return heard === '6/8' ? 0.4 : heard === '4/4' ? 0.2 : heard === '3/4' ? 0.35 : 0.02;
  if (heard === truth) return 0.8;
  return heard === '4/4' ? 0.15 : 0.03;
}

/**
 * P(audio's weak answer | true meter), for an answer of strength WEAK_AUDIO_METER to MIN_AUDIO_METER. On the
 * two synthesised corpora (bench/tempo-accuracy, seeds 0 and 1: 550 clips in 4/4, 110 in each other meter)
 * a weak 3/4, 5/4 or 7/8 came from clips of that meter 6-18 % of the time and from 4/4 clips 0.7 % (3/4)
 * or never; a weak 4/4 from 23 % of the 4/4 clips and 2-10 % of the others. Ratios shrunk to at most 8
 * (the corpus is synthetic): evidence, weaker than a clear answer's. What it catches is a waltz with a
 * lone 4/4 label whose bars the audio only half made out. (The waltz `bench:playlist-truth` still places,
 * one a run, is not such: its preview's bars come out 4/4 at 0.03, nothing; only a second label could tell.)
 */
function weakAudioLikelihood(heard: Meter, truth: Meter): number {
  if (heard === '4/4') return truth === '4/4' ? 0.25 : truth === '6/8' ? 0.09 : 0.06;
  if (heard === truth) return 0.08;
  return truth === '4/4' ? 0.01 : 0.005;
}

/** The estimator's meter, with how sure it is (a very weak answer weighs nothing). */
export interface AudioMeter {
  meter: Meter | null;
  /** 0..1; from MIN_AUDIO_METER a clear answer, from WEAK_AUDIO_METER a weak one, under it not used. */
  strength: number;
}
export const MIN_AUDIO_METER = 0.5;
/**
 * Under this the audio's answer says nothing: on the corpora a weak 3/4 under 0.3 came as often from 4/4
 * clips as from waltzes, for their share.
 */
export const WEAK_AUDIO_METER = 0.3;

/**
 * Below this, 4/4 is not decided even when it is the likeliest single meter. Without conflict 4/4 is far
 * more likely (a lone 4/4 label 0.967, the audio's alone 0.986); under it a label of another meter stands
 * against the audio's 4/4, and the other meters together are about as likely or more (a 3/4 label
 * against a clear duple audio leaves 4/4 at 0.47: a 6/8 may sound duple). A 4/4 song left out costs less than
 * a waltz in a running playlist, and the runner can say "This one is in 4/4".
 */
export const FOUR_FOUR_AT_LEAST = 0.9;

export interface MeterDecision {
  /** The most likely meter; null when nobody said anything. */
  meter: Meter | null;
  /** Its posterior probability (0..1). */
  confidence: number;
}

/**
 * The same analysis twice checks nothing: ReccoBeats mirrors Spotify's audio-features, so their labels
 * count once (the first one given).
 */
const family = (source: string) => (source === 'reccobeats' ? 'spotify' : source);

/** The labels that count: one per independent analysis. */
function independentLabels(answers: Pick<TempoAlternative, 'source' | 'meter'>[]): Meter[] {
  const seen = new Set<string>();
  const out: Meter[] = [];
  for (const a of answers) {
    if (!a.meter || a.source === 'estimator' || seen.has(family(a.source))) continue;
    seen.add(family(a.source));
    out.push(a.meter);
  }
  return out;
}

/** The meter from the sources' labels and, when it is clear, the audio's answer. */
export function decideMeter(
  answers: Pick<TempoAlternative, 'source' | 'meter'>[],
  audio?: AudioMeter | null,
): MeterDecision {
  const labels = independentLabels(answers);
  const strength = audio?.strength ?? 0;
  const heard = audio && audio.meter && strength >= WEAK_AUDIO_METER ? audio.meter : null;
  if (labels.length === 0 && heard === null) return { meter: null, confidence: 0 };
  const score = METERS.map((m) => {
    let p = PRIOR[m];
    for (const l of labels) p *= labelLikelihood(l, m);
    if (heard)
      p *= strength >= MIN_AUDIO_METER ? audioLikelihood(heard, m, strength) : weakAudioLikelihood(heard, m);
    return p;
  });
  const total = score.reduce((a, b) => a + b, 0);
  let best = 0;
  for (let i = 1; i < score.length; i++) if ((score[i] as number) > (score[best] as number)) best = i;
  // 4/4 only when the evidence does not conflict: otherwise the likeliest other meter.
  if (METERS[best] === '4/4' && (score[best] as number) / total < FOUR_FOUR_AT_LEAST) {
    best = -1;
    for (let i = 0; i < score.length; i++)
      if (METERS[i] !== '4/4' && (best < 0 || (score[i] as number) > (score[best] as number))) best = i;
  }
  return {
    meter: METERS[best] as Meter,
    confidence: Math.round(((score[best] as number) / total) * 1000) / 1000,
  };
}

/**
 * Sure enough without the audio: two independent labels agreeing on 4/4 leave about 1.3 % for anything
 * else (0.8 % of songs are waltzes both label 4/4); a lone 4/4 label leaves about 2.5 % (a waltz is
 * labelled 4/4 that often), so the audio is asked.
 */
export const METER_SETTLED = 0.985;

/** Spotify's (and ReccoBeats') `time_signature`: beats a bar, 3 to 7 ("3/4" to "7/4"); 6 and 7 as 6/8 and 7/8. */
export function meterOfTimeSignature(n: unknown): Meter | undefined {
  const byBeats: Record<number, Meter> = { 3: '3/4', 4: '4/4', 5: '5/4', 6: '6/8', 7: '7/8' };
  return typeof n === 'number' ? byBeats[n] : undefined;
}

/** GetSongBPM's `time_sig` ("4/4", "3/4", "6/8", …; 2/4 and 12/8 are duple, 9/8 triple). */
export function meterOfTimeSig(s: unknown): Meter | undefined {
  if (typeof s !== 'string') return undefined;
  const m = /^\s*(\d{1,2})\s*\/\s*(\d{1,2})\s*$/.exec(s);
  if (!m) return undefined;
  const text = `${Number(m[1])}/${Number(m[2])}`;
  const same: Record<string, Meter> = {
    '4/4': '4/4',
    '2/4': '4/4',
    '2/2': '4/4',
    '12/8': '4/4',
    '3/4': '3/4',
    '3/8': '3/4',
    '9/8': '3/4',
    '6/8': '6/8',
    '6/4': '6/8',
    '5/4': '5/4',
    '5/8': '5/4',
    '7/8': '7/8',
    '7/4': '7/8',
  };
  return same[text];
}
