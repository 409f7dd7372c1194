import { describe, expect, it } from 'vitest';
import { continuity, spread } from './periodicity.ts';

/** An onset curve of `frames` frames with a unit click at each listed frame. */
const clicks = (frames: number, at: number[]) => {
  const x = new Float64Array(frames);
  for (const t of at) x[t] = 1;
  return x;
};

describe('continuity', () => {
  it('is high for a pulse that sounds on every beat and near zero for a grid with an empty slot', () => {
    // Beats every 30 frames, all sounding; and a "swing" grid of 10 frames whose middle slot is empty.
    const beats = clicks(
      3000,
      Array.from({ length: 100 }, (_, i) => i * 30),
    );
    const swing = clicks(3000, Array.from({ length: 100 }, (_, i) => [i * 30, i * 30 + 20]).flat());
    const full = continuity(beats, spread(beats, 1), 30, 0.015);
    expect(full).toBeCloseTo(100 / 3000, 3);
    // The swing grid repeats at 10 frames in pairs (20 → 30), but never three in a row.
    expect(continuity(swing, spread(swing, 1), 10, 0.015)).toBe(0);
    expect(continuity(swing, spread(swing, 1), 30, 0.015)).toBeGreaterThan(0);
  });

  it('tolerates timing jitter within the spread', () => {
    const jittered = clicks(
      3000,
      Array.from({ length: 100 }, (_, i) => i * 30 + (i % 3) - 1),
    );
    expect(continuity(jittered, spread(jittered, 2), 30, 0.015)).toBeGreaterThan(0.03);
    expect(continuity(jittered, jittered, 30, 0)).toBeLessThan(0.01);
  });
});
