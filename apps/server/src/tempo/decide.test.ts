import { describe, expect, it } from 'vitest';
import { decide, MIN_ESTIMATE_CONFIDENCE, SOURCE_CONFIDENCE } from './decide.ts';

/** The playlists' threshold (playlists/matching.ts MIN_CONFIDENCE): what is placed. */
const PLACED = 0.76;

const a = (source: string, bpm: number, confidence = 0.85) => ({ source, bpm, confidence });
/** An estimate from the audio: its answer and confidence, and the candidates as [bpm, score] pairs. */
const audio = (bpm: number, confidence: number, candidates: [number, number][] = []) => ({
  bpm,
  confidence,
  candidates: candidates.map(([b, score]) => ({ bpm: b, score })),
});

describe('decide', () => {
  it('takes the first source, checked, when two independent sources agree, and averages their values', () => {
    const d = decide([a('reccobeats', 170), a('deezer', 170.5, 0.8)]);
    expect(d).toMatchObject({ bpm: 170.25, source: 'reccobeats', checked: true });
    expect(d.confidence).toBeGreaterThan(0.85);
    expect(d.alternatives).toHaveLength(2);
  });

  it('does not trust a lone source: nothing checked it', () => {
    for (const source of ['spotify', 'reccobeats', 'deezer', 'getsongbpm'] as const) {
      const d = decide([a(source, 172, SOURCE_CONFIDENCE[source])]);
      expect(d).toMatchObject({ bpm: 172, source, checked: false });
      expect(d.confidence).toBeLessThan(PLACED);
    }
  });

  it('Spotify and ReccoBeats agreeing is one analysis, not a check', () => {
    const d = decide([a('spotify', 172, 0.9), a('reccobeats', 172)]);
    expect(d.checked).toBe(false);
    expect(d.confidence).toBeLessThan(PLACED);
  });

  it('a Deezer match found by title and the audio of its own preview are one song: their agreement checks nothing', () => {
    const bySearch = { ...audio(171, 0.8), previewBySearch: true };
    const d = decide([a('deezer', 171, 0.8)], bySearch);
    expect(d.checked).toBe(false);
    expect(d.confidence).toBeLessThan(PLACED);
    // Found by ISRC, the same agreement is a check (the same recording, analysed twice independently).
    expect(decide([a('deezer', 171, 0.8)], audio(171, 0.8)).checked).toBe(true);
    // An answer keyed by the Spotify track agreeing with that preview does check it.
    expect(decide([a('reccobeats', 85.5), a('deezer', 171, 0.8)], bySearch).checked).toBe(true);
    expect(decide([a('reccobeats', 171)], bySearch).checked).toBe(true);
    // A 3:2 dispute is not settled for the search match by its own preview.
    const dispute = decide([a('reccobeats', 114), a('deezer', 171, 0.8)], {
      ...audio(171, 0.9, [
        [171, 1],
        [114, 0.3],
      ]),
      previewBySearch: true,
    });
    expect(dispute.checked).toBe(false);
    expect(dispute.confidence).toBeLessThan(PLACED);
  });

  it('a lone source checked by the audio is trusted, at the average of the two', () => {
    const d = decide([a('reccobeats', 172)], audio(86.5, 0.7));
    expect(d).toMatchObject({ bpm: 172.5, source: 'reccobeats', checked: true });
    expect(d.confidence).toBeGreaterThanOrEqual(0.9);
  });

  it('an estimate too weak to answer checks nothing', () => {
    const d = decide([a('reccobeats', 172)], audio(172, MIN_ESTIMATE_CONFIDENCE / 2));
    expect(d.checked).toBe(false);
    expect(d.confidence).toBeLessThan(PLACED);
  });

  it('settles a factor-2 disagreement with the audio and keeps both', () => {
    const estimate = audio(84.8, 0.7, [
      [84.8, 1],
      [169.6, 0.4],
    ]);
    const d = decide([a('reccobeats', 170), a('deezer', 85, 0.8)], estimate);
    expect(d).toMatchObject({ bpm: 84.93, source: 'deezer', checked: true });
    expect(d.alternatives.map((x) => x.source)).toEqual(['reccobeats', 'deezer', 'estimator']);
  });

  it('without audio, two independent sources a factor of 2 apart agree for a runner; one analysis does not', () => {
    const d = decide([a('reccobeats', 170), a('deezer', 85.5, 0.8)]);
    // At the average of the two (in the first one's octave): each source is a fraction of a per cent off.
    expect(d).toMatchObject({ bpm: 170.5, checked: true, reason: 'sources disagree by a factor of 2' });
    expect(d.confidence).toBeGreaterThanOrEqual(PLACED);
    const same = decide([a('spotify', 170, 0.9), a('reccobeats', 85)]);
    expect(same.checked).toBe(false);
    expect(same.confidence).toBeLessThan(PLACED);
  });

  it('is never confident when sources disagree by 3:2 and no audio settles it', () => {
    const d = decide([a('reccobeats', 120), a('deezer', 180, 0.8)]);
    expect(d.checked).toBe(false);
    expect(d.confidence).toBeLessThan(0.5);
  });

  it('settles a 3:2 disagreement only with the audio’s own, clear answer', () => {
    const sources = [a('reccobeats', 120), a('deezer', 180, 0.8)];
    const clear = decide(
      sources,
      audio(179.4, 0.8, [
        [179.4, 1],
        [119.6, 0.5],
      ]),
    );
    expect(clear).toMatchObject({ bpm: 179.7, source: 'deezer', checked: true });
    expect(clear.confidence).toBeGreaterThanOrEqual(PLACED);
    // The estimator unsure (a rival at 3:2 nearly as likely): unsettled.
    const unsure = decide(
      sources,
      audio(179.4, 0.4, [
        [179.4, 1],
        [119.6, 0.9],
      ]),
    );
    expect(unsure.checked).toBe(false);
    expect(unsure.confidence).toBeLessThan(PLACED);
    // The audio's answer is neither side; a candidate near one side is not enough.
    const neither = decide(
      sources,
      audio(150, 0.9, [
        [150, 1],
        [180, 0.6],
      ]),
    );
    expect(neither.checked).toBe(false);
    expect(neither.confidence).toBeLessThan(PLACED);
  });

  it('settles a 3:2 disagreement with the audio’s clear answer an octave from one side', () => {
    // The estimator heard the family of 180 and chose its half by its octave prior; a candidate near 120
    // scoring above the one at 180 does not make 120 the audio's side.
    const sources = [a('reccobeats', 120), a('deezer', 180, 0.8)];
    const half = audio(90, 0.8, [
      [90, 1],
      [120, 0.6],
      [180, 0.5],
    ]);
    const d = decide(sources, half);
    expect(d).toMatchObject({ bpm: 180, source: 'deezer', checked: true });
    expect(d.confidence).toBeGreaterThanOrEqual(PLACED);
    // Not when the audio is unsure, nor for a preview that is the disputed search match's own.
    expect(decide(sources, { ...half, confidence: 0.4 }).checked).toBe(false);
    expect(decide(sources, { ...half, previewBySearch: true }).checked).toBe(false);
    // A dispute that is not 3:2 (another version's tempo) is settled the same way.
    const other = decide([a('reccobeats', 171.5), a('deezer', 102.3, 0.8)], audio(86, 0.9, [[86, 1]]));
    expect(other).toMatchObject({ source: 'reccobeats', checked: true });
    expect(other.confidence).toBeGreaterThanOrEqual(PLACED);
  });

  it('places a side the audio settled a 3:2 dispute for, whichever source it is (GetSongBPM too)', () => {
    // Deezer at 3:2 of the truth, GetSongBPM right, the audio clear at GetSongBPM's half.
    const d = decide(
      [a('deezer', 112.3, 0.8), a('getsongbpm', 168, SOURCE_CONFIDENCE.getsongbpm)],
      audio(83.88, 1, [[83.88, 1]]),
    );
    expect(d).toMatchObject({ source: 'getsongbpm', checked: true });
    expect(d.confidence).toBeGreaterThanOrEqual(PLACED);
  });

  it('keeps a confident estimate alone, untrusted (nothing checked it), and a guess not at all', () => {
    const alone = decide([], audio(150, 0.95));
    expect(alone).toMatchObject({ bpm: 150, source: 'estimator', checked: false });
    expect(alone.confidence).toBeLessThan(PLACED);
    const guess = decide([], audio(150, MIN_ESTIMATE_CONFIDENCE / 2));
    expect(guess.bpm).toBeNull();
    expect(guess.reason).toMatch(/too uncertain/);
    expect(guess.alternatives).toEqual([{ bpm: 150, source: 'estimator', confidence: 0.15 }]);
  });

  it('passes on the estimator’s reason when it has no answer', () => {
    const d = decide([], { bpm: null, confidence: 0, candidates: [], reason: 'silent audio' });
    expect(d).toMatchObject({ bpm: null, reason: 'estimator: silent audio' });
  });
});

describe('decide with audio that contradicts a lone source', () => {
  it('lets a confident estimate overrule a text-matched value that is not a factor of 2 away, in doubt', () => {
    const d = decide([a('getsongbpm', 76, 0.75)], audio(123, 0.9, [[123, 1]]));
    expect(d).toMatchObject({
      bpm: 123,
      source: 'estimator',
      reason: 'the audio disagrees with the sources',
    });
    expect(d.confidence).toBeLessThan(0.6);
  });
  it('keeps a more trusted source over a weak estimate, with lower confidence', () => {
    const d = decide([a('reccobeats', 140)], audio(93, 0.4));
    expect(d).toMatchObject({ bpm: 140, source: 'reccobeats' });
    expect(d.confidence).toBeLessThan(0.6);
  });
  it('a factor of 2 between a lone source and the audio is agreement', () => {
    const d = decide([a('getsongbpm', 80, 0.75)], audio(160, 0.9));
    expect(d).toMatchObject({ bpm: 80, source: 'getsongbpm' });
    expect(d.confidence).toBeGreaterThan(0.75);
  });
});

describe('decide: which side of a factor 2 the audio supports', () => {
  it('prefers the estimator’s own answer over a candidate that scores as high', () => {
    const estimate = audio(85, 0.9, [
      [170, 1],
      [85, 1],
    ]);
    expect(decide([a('spotify', 170, 0.9), a('reccobeats', 85)], estimate)).toMatchObject({
      bpm: 85,
      source: 'reccobeats',
    });
  });
});
