import { describe, expect, it } from 'vitest';
import { decide, MIN_ESTIMATE_CONFIDENCE } from './decide.ts';

const a = (source: string, bpm: number, confidence = 0.85) => ({ source, bpm, confidence });
/** An estimate from the audio: its answer and confidence, and the candidates as [bpm, score] pairs. */
const audio = (bpm: number, confidence: number, candidates: [number, number][] = []) => ({
  bpm,
  confidence,
  candidates: candidates.map(([b, score]) => ({ bpm: b, score })),
});

describe('decide', () => {
  it('takes the first source and raises confidence when sources agree', () => {
    const d = decide([a('reccobeats', 170), a('deezer', 170.5, 0.8)]);
    expect(d).toMatchObject({ bpm: 170, source: 'reccobeats' });
    expect(d.confidence).toBeGreaterThan(0.85);
    expect(d.alternatives).toHaveLength(2);
  });

  it('settles a factor-2 disagreement with the audio and keeps both', () => {
    const estimate = audio(84.8, 0.7, [
      [84.8, 1],
      [169.6, 0.4],
    ]);
    const d = decide([a('reccobeats', 170), a('deezer', 85, 0.8)], estimate);
    expect(d).toMatchObject({ bpm: 85, source: 'deezer' });
    expect(d.alternatives.map((x) => x.source)).toEqual(['reccobeats', 'deezer', 'estimator']);
  });

  it('without audio keeps the first source of a factor-2 disagreement with lower confidence', () => {
    const d = decide([a('reccobeats', 170), a('deezer', 85, 0.8)]);
    expect(d.bpm).toBe(170);
    expect(d.confidence).toBeLessThan(0.85);
    expect(d.reason).toMatch(/factor of 2/);
  });

  it('is never confident when sources disagree by 3:2 and no audio settles it', () => {
    const d = decide([a('reccobeats', 120), a('deezer', 180, 0.8)]);
    expect(d.confidence).toBeLessThan(0.5);
  });

  it('uses a confident estimate alone, but not a guess', () => {
    expect(decide([], audio(150, 0.8))).toMatchObject({
      bpm: 150,
      source: 'estimator',
    });
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
