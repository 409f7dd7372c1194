import { describe, expect, it } from 'vitest';
import { synthesizeClip, type Pattern } from '@pacebeat/sandbox/audio/synth';
import { estimateTempo, octaveRelated } from './estimate.ts';

const SR = 44100;
/** Right for running: within 4 % after ×1, ×2 or ×½. */
const rightForRunning = (est: number, truth: number) =>
  [1, 2, 0.5].some((f) => Math.abs(est - truth * f) <= 0.04 * truth * f);

// Two tempi per pattern, from slow to fast, with humanised timing, drift, noise and reverb.
const CASES: [Pattern, number][] = [
  ['four-on-the-floor', 124],
  ['four-on-the-floor', 172],
  ['backbeat', 76],
  ['backbeat', 148],
  ['half-time', 140],
  ['half-time', 174],
  ['swing', 96],
  ['swing', 160],
  ['waltz', 84],
  ['waltz', 138],
  ['sparse', 72],
  ['sparse', 118],
];

/** A 20-second clip mixed like a typical preview: some timing spread, drift, noise and reverb. */
const typicalClip = (pattern: Pattern, bpm: number, seed: number) =>
  synthesizeClip({ bpm, pattern, seed, seconds: 20, humanizeMs: 8, driftPct: 1, noise: 0.1, reverb: 0.2 });

describe('estimateTempo', () => {
  it.each(CASES)('%s at %d BPM is right up to a factor of two', (pattern, bpm) => {
    const pcm = typicalClip(pattern, bpm, bpm * 7 + 1);
    const r = estimateTempo(pcm, SR);
    expect(r.bpm).not.toBeNull();
    expect(rightForRunning(r.bpm as number, bpm)).toBe(true);
    expect(r.confidence).toBeGreaterThan(0.15);
    expect(r.candidates[0]?.bpm).toBe(r.bpm);
  });

  // A fast pop 3/4 (kick on one, snare on three): the bar's double, 2/3 of the beat, collects the
  // bar's evidence although nothing sounds at its own period. The estimator gave 130.6 for both.
  it.each([13, 16])('a fast 3/4 at 196 BPM (seed %d) does not come out at 2/3 of its tempo', (seed) => {
    const bpm = 196;
    const pcm = typicalClip('waltz', bpm, seed);
    const r = estimateTempo(pcm, SR);
    expect(r.bpm).not.toBeNull();
    expect(Math.abs((r.bpm as number) / bpm - 2 / 3)).toBeGreaterThan(0.04);
    expect(rightForRunning(r.bpm as number, bpm)).toBe(true);
  });

  // The other side of the same call: a slow swing's triplets repeat too, but their middle slot is
  // empty, so they are not the beat (that would put a runner 3:1 off).
  it.each([62, 70])('a slow swing at %d BPM is not taken for its triplets', (bpm) => {
    const pcm = typicalClip('swing', bpm, bpm * 7 + 1);
    const r = estimateTempo(pcm, SR);
    expect(rightForRunning(r.bpm as number, bpm)).toBe(true);
  });

  it('answers null for silence', () => {
    const r = estimateTempo(new Float32Array(SR * 10), SR);
    expect(r).toMatchObject({ bpm: null, confidence: 0, reason: 'silent audio' });
  });

  it('answers null with low confidence for white noise', () => {
    let s = 12345;
    const pcm = new Float32Array(SR * 20).map(() => {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      return (s / 2 ** 32 - 0.5) * 0.5;
    });
    const r = estimateTempo(pcm, SR);
    expect(r.bpm).toBeNull();
    expect(r.reason).toMatch(/pulse|onsets/);
    expect(r.confidence).toBeLessThan(0.15);
  });

  it('answers null for random clicks (onsets without a pulse)', () => {
    let s = 777;
    const rand = () => {
      s = (Math.imul(s, 1103515245) + 12345) >>> 0;
      return s / 2 ** 32;
    };
    // Decaying noise bursts at random times, about two a second.
    let env = 0;
    const pcm = new Float32Array(SR * 30).map(() => {
      if (rand() < 2 / SR) env = 1;
      env *= 0.999;
      return env * (rand() - 0.5);
    });
    const r = estimateTempo(pcm, SR);
    expect(r.bpm).toBeNull();
    expect(r.reason).toBe('no clear pulse');
  });

  it('answers null for a steady tone (no onsets at all)', () => {
    const pcm = new Float32Array(SR * 10).map((_, i) => 0.3 * Math.sin((2 * Math.PI * 440 * i) / SR));
    expect(estimateTempo(pcm, SR).bpm).toBeNull();
  });

  it('refuses a clip under five seconds', () => {
    const pcm = synthesizeClip({ bpm: 120, pattern: 'four-on-the-floor', seed: 1, seconds: 2 });
    const r = estimateTempo(pcm, SR);
    expect(r.bpm).toBeNull();
    expect(r.reason).toMatch(/too short/);
  });

  it('works at other sample rates', () => {
    const pcm = synthesizeClip({ bpm: 132, pattern: 'backbeat', seed: 3, seconds: 15, sampleRate: 22050 });
    const r = estimateTempo(pcm, 22050);
    expect(rightForRunning(r.bpm as number, 132)).toBe(true);
  });
});

describe('octaveRelated', () => {
  it('accepts powers of two within 4 % and rejects 3:2', () => {
    expect(octaveRelated(120, 60)).toBe(true);
    expect(octaveRelated(121, 240)).toBe(true);
    expect(octaveRelated(120, 90)).toBe(false);
    expect(octaveRelated(120, 180)).toBe(false);
  });
});
