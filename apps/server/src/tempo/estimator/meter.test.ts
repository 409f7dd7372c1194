import { describe, expect, it } from 'vitest';
import { synthesizeClip, type Pattern } from '@pacebeat/sandbox/audio/synth';
import { estimateTempo } from './estimate.ts';

const SR = 44100;
/** A 30-second clip mixed like a typical preview: some timing spread, drift, noise and reverb. */
const clip = (pattern: Pattern, bpm: number, seed: number) =>
  synthesizeClip({ bpm, pattern, seed, seconds: 30, humanizeMs: 8, driftPct: 1, noise: 0.1, reverb: 0.2 });

describe('the meter from the audio', () => {
  // Bars of three (oom-pah-pah, pop 3/4, jazz waltz), slow to fast; 196 BPM is heard at half tempo.
  it.each([95, 135, 175, 196])('a waltz at %d BPM is heard in 3/4', (bpm) => {
    const r = estimateTempo(clip('waltz', bpm, bpm * 3 + 1), SR);
    expect(r.meter?.meter).toBe('3/4');
    expect(r.meter?.strength).toBeGreaterThanOrEqual(0.5);
  });

  it.each([95, 145])('a 7/8 (2 + 2 + 3) at %d BPM is heard in 7/8', (bpm) => {
    const r = estimateTempo(clip('seven-eight', bpm, bpm * 3 + 1), SR);
    expect(r.meter?.meter).toBe('7/8');
    expect(r.meter?.strength).toBeGreaterThanOrEqual(0.5);
  });

  // Two beats a bar, each of three eighths, heard at its beat (the dotted quarter): the beat's thirds
  // all sound, which a 4/4 (straight or swung) never does. At half tempo a runner would step between them.
  it.each([80, 86])('a 6/8 at %d BPM is heard in 6/8', (bpm) => {
    const r = estimateTempo(clip('six-eight', bpm, bpm * 3 + 1), SR);
    expect(r.bpm).toBeCloseTo(bpm, -1);
    expect(r.meter?.meter).toBe('6/8');
    expect(r.meter?.strength).toBeGreaterThanOrEqual(0.5);
  });

  // The cost of a false "odd" is a 4/4 song left out of every playlist: none is heard odd (or in 6/8)
  // clearly; a swing at half a runner's tempo least of all (its middle third is empty).
  it.each([
    ['backbeat', 120],
    ['backbeat', 165],
    ['four-on-the-floor', 128],
    ['half-time', 150],
    ['half-time', 88],
    ['swing', 110],
    ['swing', 80],
    ['swing', 90],
    ['sparse', 100],
  ] as const)('a 4/4 %s at %d BPM is never heard in an odd meter', (pattern, bpm) => {
    const r = estimateTempo(clip(pattern, bpm, bpm * 3 + 1), SR);
    expect(r.meter).toBeDefined();
    if (r.meter?.meter !== '4/4') expect(r.meter?.strength).toBeLessThan(0.5);
  });
});
