import { describe, expect, it } from 'vitest';
import { autocorrelation, continuity, spread } from './periodicity.ts';

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

describe('autocorrelation', () => {
  /** The definition, term by term: mean removed, 1 at lag 0, corrected for the shrinking overlap. */
  const direct = (c: Float64Array, lags: number) => {
    const n = c.length;
    const m = c.reduce((a, b) => a + b, 0) / n;
    const d = c.map((v) => v - m);
    const at = (l: number) => d.reduce((s, v, t) => (t + l < n ? s + v * (d[t + l] as number) : s), 0);
    const zero = at(0);
    return Array.from({ length: lags + 1 }, (_, l) => (at(l) / zero) * (n / (n - l)));
  };
  // A pulse every 7 frames with noise, and a curve of noise alone (deterministic).
  let seed = 7;
  const noise = () => ((seed = (seed * 16807) % 2147483647) / 2147483647) * 0.3;
  const pulse = Float64Array.from({ length: 301 }, (_, t) => (t % 7 === 0 ? 1 : 0) + noise());
  const hiss = Float64Array.from({ length: 301 }, () => noise());

  it('is the definition, computed through the transform (an odd length, padded)', () => {
    const got = autocorrelation([pulse], 40);
    const want = direct(pulse, 40);
    expect(got.length).toBe(41);
    got.forEach((v, l) => expect(v).toBeCloseTo(want[l] as number, 10));
    expect(got[7]).toBeGreaterThan(0.5);
  });

  it('averages curves weighted by the square of their own peak from weightFrom on', () => {
    const a = direct(pulse, 30);
    const b = direct(hiss, 30);
    const wa = Math.max(...a.slice(5)) ** 2;
    const wb = Math.max(...b.slice(5)) ** 2;
    const got = autocorrelation([pulse, hiss], 30, 5);
    got.forEach((v, l) =>
      expect(v).toBeCloseTo(((a[l] as number) * wa + (b[l] as number) * wb) / (wa + wb), 10),
    );
  });
});
