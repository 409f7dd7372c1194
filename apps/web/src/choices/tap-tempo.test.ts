import { describe, expect, it } from 'vitest';
import { addTap, bpmFromTaps, MIN_TAPS, RESTART_AFTER_MS } from './tap-tempo.ts';

const steady = (n: number, every: number, from = 1000) =>
  Array.from({ length: n }, (_, i) => from + i * every);

describe('bpmFromTaps', () => {
  it('needs four taps', () => {
    expect(MIN_TAPS).toBe(4);
    expect(bpmFromTaps(steady(3, 500))).toBeNull();
    expect(bpmFromTaps(steady(4, 500))).toBe(120);
  });

  it('reads steady taps', () => {
    expect(bpmFromTaps(steady(8, 387))).toBe(155); // 155.04
    expect(bpmFromTaps(steady(8, 353))).toBe(170); // 169.97
    expect(bpmFromTaps(steady(6, 700))).toBe(85.7);
  });

  it('averages a human’s uneven taps', () => {
    expect(bpmFromTaps([0, 340, 712, 1050, 1420, 1765])).toBe(170);
  });

  it('ignores a stray tap: a double tap and a missed beat', () => {
    const double = [...steady(5, 400), 1000 + 4 * 400 + 40, ...steady(4, 400, 1000 + 5 * 400)].sort(
      (a, b) => a - b,
    );
    expect(bpmFromTaps(double)).toBe(150);
    const missed = [0, 400, 800, 1600, 2000, 2400];
    expect(bpmFromTaps(missed)).toBe(150);
  });
});

describe('addTap', () => {
  it('starts over after a pause, and keeps the last 16', () => {
    let taps: number[] = [];
    for (const t of steady(20, 400)) taps = addTap(taps, t);
    expect(taps).toHaveLength(16);
    expect(addTap(taps, taps.at(-1)! + RESTART_AFTER_MS + 1)).toHaveLength(1);
    expect(addTap(taps, taps.at(-1)! + RESTART_AFTER_MS)).toHaveLength(16);
  });
});
