// How tempo metadata is wrong beyond a factor of 2: 3:2 and 2:3 errors, the value of another version
// of the song, songs whose tempo changes, and plainly wrong entries. Shares are per recording (per
// song for GetSongBPM) and per source; whether a source errs is a pure function of the seed.
import { Rng, unit } from './rng.ts';
import type { Meter, TempoTruth } from './tempo.ts';

export interface SourceErrorShares {
  /** Reports 3/2 or 2/3 of the tempo (a dotted or triplet pulse taken for the beat). */
  threeTwoShare: number;
  /** Reports the tempo of another version of the song (a live take, a remix). */
  otherVersionShare: number;
  /** Reports a value unrelated to the song (a wrong entry, another song of that name). */
  wrongShare: number;
}

export interface TempoErrorConfig {
  /** Share of recordings whose tempo changes within the song (a section at another tempo). */
  tempoChangeShare: number;
  /** Spotify's old analyser: audio-features, and ReccoBeats, which mirrors it. */
  spotify: SourceErrorShares;
  deezer: SourceErrorShares;
  getsongbpm: SourceErrorShares;
}

/** The defaults, and why: see "Tempo services" in the README. */
export const REALISTIC_TEMPO_ERRORS: TempoErrorConfig = {
  tempoChangeShare: 0.03,
  spotify: { threeTwoShare: 0.03, otherVersionShare: 0, wrongShare: 0.01 },
  deezer: { threeTwoShare: 0.02, otherVersionShare: 0.02, wrongShare: 0.02 },
  getsongbpm: { threeTwoShare: 0.02, otherVersionShare: 0.04, wrongShare: 0.03 },
};

/** Only octave errors (the world before these were modelled). */
export const OCTAVE_ERRORS_ONLY: TempoErrorConfig = {
  tempoChangeShare: 0,
  spotify: { threeTwoShare: 0, otherVersionShare: 0, wrongShare: 0 },
  deezer: { threeTwoShare: 0, otherVersionShare: 0, wrongShare: 0 },
  getsongbpm: { threeTwoShare: 0, otherVersionShare: 0, wrongShare: 0 },
};

export type TempoErrorKind = 'octave' | 'three-two' | 'other-version' | 'wrong' | 'other-section';

/** A song whose tempo changes: the tempo of its other section (the true tempo is the main one). */
export function tempoChange(seed: number, rec: number, truth: TempoTruth, share: number): number | undefined {
  if (unit(seed, 'tempo-change', rec) >= share) return undefined;
  const rng = new Rng(seed, 'tempo-change-bpm', rec);
  // A half-time bridge, a slow intro, a double-time or faster ending, an accelerando.
  const factor = rng.pick([0.5, 0.67, 0.75, 0.8, 1.25, 1.33, 1.5]);
  return Math.round(truth.bpm * factor * 100) / 100;
}

/**
 * The tempo a source reports for a recording (or a song), and what kind of error it is, if any.
 * Octave errors keep the draw the world always had, so their share and their tracks do not change.
 */
export function reportTempo(
  seed: number,
  key: number,
  truth: TempoTruth,
  source: string,
  octaveErrorShare: number,
  errors: SourceErrorShares,
  otherSection?: number,
): { bpm: number; error?: TempoErrorKind } {
  const u = unit(seed, source, 'octave', key);
  const boost = truth.pattern === 'half-time' || truth.pattern === 'sparse' ? 2 : 1;
  const bpm = truth.bpm * (1 + (unit(seed, source, 'noise', key) - 0.5) * 0.008);
  const done = (x: number, error?: TempoErrorKind) => ({
    bpm: Math.round(x * 1000) / 1000,
    ...(error ? { error } : {}),
  });
  if (u < octaveErrorShare * boost) {
    const up =
      truth.pattern === 'sparse' || truth.bpm < 100
        ? true
        : truth.pattern === 'half-time'
          ? false
          : u < (octaveErrorShare * boost) / 2;
    return done(up ? bpm * 2 : bpm / 2, 'octave');
  }
  const rng = new Rng(seed, source, 'tempo-error', key);
  if (otherSection !== undefined) {
    // Sources that analysed (or whose contributors heard) another part of the song.
    const v = rng.next();
    if (v < 0.3) return done(otherSection, 'other-section');
    if (v < 0.5) return done((truth.bpm + otherSection) / 2, 'other-section');
  }
  // Triple feels (waltz, swing) are where a dotted or triplet pulse is taken for the beat.
  const triple = truth.pattern === 'waltz' || truth.pattern === 'swing' || truth.meter === '6/8' ? 2 : 1;
  const v = unit(seed, source, 'error-kind', key);
  const t32 = errors.threeTwoShare * triple;
  if (v < t32) {
    const up = truth.bpm < 100 || (truth.bpm <= 130 && rng.next() < 0.5);
    return done(up ? bpm * 1.5 : (bpm * 2) / 3, 'three-two');
  }
  if (v < t32 + errors.otherVersionShare) {
    // A live take (faster or slower by 5-12 %) or a remix (at a club or a chill tempo).
    const live = rng.next() < 0.5;
    const x = live
      ? bpm * (rng.next() < 0.7 ? 1.05 + rng.next() * 0.07 : 0.88 + rng.next() * 0.07)
      : rng.next() < 0.7
        ? 118 + rng.next() * 12
        : 84 + rng.next() * 12;
    return done(x, 'other-version');
  }
  if (v < t32 + errors.otherVersionShare + errors.wrongShare) return done(60 + rng.next() * 140, 'wrong');
  return done(bpm);
}

/**
 * How a source misreports the meter. Analysers and contributors hear a bar of three as a bar of four
 * often (a waltz's "oom" heard as beat one of four), and the reverse rarely; 6/8 is heard as two beats
 * (4/4) or as 3/4 about as often as it is named; 5/4 and 7/8 are often flattened to 4/4.
 */
export const METER_ERRORS = {
  /** A 3/4 song reported as 4/4. */
  tripleAsFour: 0.4,
  /** A 4/4 song reported as 3/4. */
  fourAsTriple: 0.01,
  /** A 6/8 song reported as 4/4, and as 3/4. */
  compoundAsFour: 0.35,
  compoundAsTriple: 0.25,
  /** A 5/4 or 7/8 song reported as 4/4. */
  oddAsFour: 0.5,
} as const;

/**
 * The meter `source` reports for a recording (or a song, for text-matched sources; `key`). Spotify's
 * audio-features and ReccoBeats, which mirrors it, share one draw ('spotify'); GetSongBPM draws its own.
 */
export function reportMeter(seed: number, key: number, truth: TempoTruth, source: string): Meter {
  const u = unit(seed, source, 'meter', key);
  const e = METER_ERRORS;
  switch (truth.meter) {
    case '4/4':
      return u < e.fourAsTriple ? '3/4' : '4/4';
    case '3/4':
      return u < e.tripleAsFour ? '4/4' : '3/4';
    case '6/8':
      return u < e.compoundAsFour ? '4/4' : u < e.compoundAsFour + e.compoundAsTriple ? '3/4' : '6/8';
    default:
      return u < e.oddAsFour ? '4/4' : truth.meter;
  }
}

/**
 * Spotify's `time_signature`: "from 3 to 7 indicating time signatures of 3/4, to 7/4", so a meter as
 * its beats per bar (6/8 as 6, 7/8 as 7).
 */
export const spotifyTimeSignature = (m: Meter): number => Number(m.split('/')[0]);
