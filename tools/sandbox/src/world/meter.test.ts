import { describe, expect, it } from 'vitest';
import { Prng } from '../audio/prng.ts';
import { BEATS_PER_BAR, barEvents, makeArrangement, makeHarmony } from '../audio/patterns.ts';
import { METER_ERRORS, reportMeter, spotifyTimeSignature } from './tempo-errors.ts';
import { drawTrueTempo, type Meter } from './tempo.ts';

const N = 40_000;
const shares = (seed: number) => {
  const n: Record<Meter, number> = { '4/4': 0, '3/4': 0, '6/8': 0, '5/4': 0, '7/8': 0 };
  for (let k = 0; k < N; k++) n[drawTrueTempo(seed, k).meter]++;
  return Object.fromEntries(Object.entries(n).map(([m, c]) => [m, c / N])) as Record<Meter, number>;
};

describe('meter in the world', () => {
  it('is 4/4 mostly, 3/4 about 5 %, 6/8 about 2 %, 5/4 and 7/8 about 0.5 % each', () => {
    const s = shares(11);
    expect(s['4/4']).toBeGreaterThan(0.9);
    expect(s['3/4']).toBeGreaterThan(0.04);
    expect(s['3/4']).toBeLessThan(0.06);
    expect(s['6/8']).toBeGreaterThan(0.012);
    expect(s['6/8']).toBeLessThan(0.028);
    for (const m of ['5/4', '7/8'] as const) {
      expect(s[m]).toBeGreaterThan(0.003);
      expect(s[m]).toBeLessThan(0.008);
    }
  });

  it('leaves every recording its tempo (drawn before the meter) and is the same per seed', () => {
    // The tempi these keys always had (before the meter was drawn).
    expect(Array.from({ length: 8 }, (_, k) => drawTrueTempo(7, k * 1000 + 3).bpm)).toEqual([
      162, 148.2, 123.56, 92.57, 159.14, 135, 91, 85.39,
    ]);
    expect(drawTrueTempo(7, 9)).toEqual({ bpm: 69.83, pattern: 'seven-eight', meter: '7/8' });
    expect(drawTrueTempo(7, 51)).toEqual({ bpm: 199.54, pattern: 'five-four', meter: '5/4' });
    expect(drawTrueTempo(7, 67)).toEqual(drawTrueTempo(7, 67));
  });

  it('is misreported realistically: 3/4 often as 4/4, 4/4 rarely as 3/4; GetSongBPM apart from Spotify', () => {
    let waltzAs4 = 0;
    let waltzes = 0;
    let fourAs3 = 0;
    let fours = 0;
    let same = 0;
    for (let k = 0; k < N; k++) {
      const t = drawTrueTempo(5, k);
      const spotify = reportMeter(5, k, t, 'spotify');
      const gsb = reportMeter(5, k, t, 'getsongbpm');
      if (t.meter === '3/4') {
        waltzes++;
        if (spotify === '4/4') waltzAs4++;
        if (spotify === gsb) same++;
      } else if (t.meter === '4/4') {
        fours++;
        if (spotify === '3/4') fourAs3++;
      }
    }
    expect(waltzAs4 / waltzes).toBeCloseTo(METER_ERRORS.tripleAsFour, 1);
    expect(fourAs3 / fours).toBeGreaterThan(0.005);
    expect(fourAs3 / fours).toBeLessThan(0.015);
    // Independent draws: agree on a waltz about 0.6² + 0.4² = 52 % of the time, not always.
    expect(same / waltzes).toBeLessThan(0.6);
    expect(spotifyTimeSignature('3/4')).toBe(3);
    expect(spotifyTimeSignature('7/8')).toBe(7);
  });
});

describe('meter in the synthesised audio', () => {
  /** Onset weight (kick, snare, bass) by position in the bar, over many bars. */
  const accents = (pattern: Parameters<typeof makeArrangement>[0], seed: number) => {
    const rng = new Prng(seed, 'meter-test');
    const arr = makeArrangement(pattern, 100, rng);
    const h = makeHarmony(rng);
    const at = new Map<number, number>();
    for (let bar = 1; bar < 33; bar++)
      for (const e of barEvents(arr, bar, h, rng))
        if (e.kind === 'kick' || e.kind === 'bass') {
          const pos = Math.round((e.at - bar * arr.beatsPerBar) * 6) / 6;
          at.set(pos, (at.get(pos) ?? 0) + e.vel);
        }
    return { arr, at };
  };

  it.each([
    ['waltz', 3],
    ['six-eight', 2],
    ['five-four', 5],
    ['seven-eight', 3.5],
  ] as const)('%s plays bars of %d beats, its strongest low accent on one', (pattern, beats) => {
    for (const seed of [1, 2, 3, 4]) {
      const { arr, at } = accents(pattern, seed);
      expect(arr.beatsPerBar).toBe(beats);
      expect(BEATS_PER_BAR[pattern]).toBe(beats);
      const strongest = [...at.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
      expect(strongest).toBe(0);
      expect(Math.max(...at.keys())).toBeLessThan(beats);
    }
  });
});
