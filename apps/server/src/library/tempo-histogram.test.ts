// Folding tempos into the running octave for the tempo chart.
import { describe, expect, it } from 'vitest';
import { foldHistogram, foldTempo } from './tempo-histogram.ts';

describe('foldTempo', () => {
  it.each([
    [170, 170],
    [85, 170], // half time: run to at 170 steps/min
    [340, 170], // double time
    [110, 110], // the octave's lower edge is in
    [220, 110], // its upper edge is out: halved
    [219.9, 219.9],
    [55, 110],
    [42.5, 170],
  ])('%d BPM → %d', (bpm, folded) => {
    expect(foldTempo(bpm)).toBeCloseTo(folded, 6);
  });
});

describe('foldHistogram', () => {
  it('sums songs into 1-BPM bins of the octave, ascending, leaving out empty bins and bad tempos', () => {
    expect(
      foldHistogram([
        { bpm: 85.2, songs: 3 }, // → 170.4
        { bpm: 170.9, songs: 2 },
        { bpm: 340, songs: 1 }, // → 170
        { bpm: 120, songs: 4 },
        { bpm: 0, songs: 9 },
      ]),
    ).toEqual([
      { bpm: 120, tracks: 4 },
      { bpm: 170, tracks: 6 },
    ]);
  });
});
