// Per-target filters in matching: pure functions, no I/O.
import { describe, expect, it } from 'vitest';
import type { MatchCandidate } from './candidates.ts';
import { candidate } from './candidates.test-helper.ts';
import { fittingTracks, passesFilters, planAdds, spanOf, trustedBpm, type TempoFact } from './matching.ts';

const tempos = (entries: Array<[number, number]>) =>
  new Map<string, TempoFact>(entries.map(([n, bpm]) => [`isrc:REC${n}`, { bpm, confidence: 0.85 }]));

describe('passesFilters', () => {
  const track = { explicit: false, durationMs: 200_000, fromLikedSongs: true };
  it('lets everything through without filters', () => {
    expect(passesFilters({}, { ...track, explicit: true, fromLikedSongs: false })).toBe(true);
  });
  it.each([
    ['no explicit: explicit out', { noExplicit: true }, { explicit: true }, false],
    ['no explicit: clean in', { noExplicit: true }, {}, true],
    ['liked only: a catalog track out', { likedOnly: true }, { fromLikedSongs: false }, false],
    ['liked only: a liked song in', { likedOnly: true }, {}, true],
    ['shortest: shorter out', { minDurationMs: 200_001 }, {}, false],
    ['shortest: the limit itself in', { minDurationMs: 200_000 }, {}, true],
    ['longest: longer out', { maxDurationMs: 199_999 }, {}, false],
    ['longest: the limit itself in', { maxDurationMs: 200_000 }, {}, true],
    ['null limits are none', { minDurationMs: null, maxDurationMs: null }, {}, true],
  ] as const)('%s', (_label, filters, over, expected) => {
    expect(passesFilters(filters, { ...track, ...over })).toBe(expected);
  });
});

describe('filters in planAdds and fittingTracks', () => {
  const candidates = [
    candidate(1),
    candidate(2, { explicit: true }),
    candidate(3, { fromLikedSongs: false }),
    candidate(4, { durationMs: 60_000 }),
    candidate(5, { durationMs: 9 * 60_000 }),
  ];
  const t = tempos([1, 2, 3, 4, 5].map((n) => [n, 172] as [number, number]));
  const plain = { id: 'plain', minBpm: 170, maxBpm: 180 };
  const strict = {
    id: 'strict',
    minBpm: 170,
    maxBpm: 180,
    noExplicit: true,
    likedOnly: true,
    minDurationMs: 90_000,
    maxDurationMs: 8 * 60_000,
  };

  it('a target places only what passes its own filters; an overlapping one places all', () => {
    const plan = planAdds([plain, strict], candidates, t, new Map());
    expect(plan.get('plain')!.map((p) => p.trackId)).toEqual([
      'track1',
      'track2',
      'track3',
      'track4',
      'track5',
    ]);
    expect(plan.get('strict')!.map((p) => p.trackId)).toEqual(['track1']);
  });

  it('fittingTracks says what belongs in each target now, placed or not', () => {
    const bpmOf = (tempos: Map<string, TempoFact>) => (c: MatchCandidate) => {
      const bpm = trustedBpm(tempos.get(c.recordingKey));
      return bpm === null ? null : { ...spanOf(bpm, false), corrected: false, meter: null };
    };
    const fits = fittingTracks(
      [plain, strict, { id: 'slow', minBpm: 120, maxBpm: 130 }],
      candidates,
      bpmOf(t),
    );
    expect(fits.get('plain')!.size).toBe(5);
    expect(fits.get('strict')!.size).toBe(1);
    expect(fits.get('strict')!.hasTrack(candidate(1))).toBe(true);
    expect(fits.get('slow')!.size).toBe(0);
    // An untrusted tempo fits nothing.
    const weak = new Map([['isrc:REC1', { bpm: 172, confidence: 0.5 }]]);
    expect(fittingTracks([plain], [candidate(1)], bpmOf(weak)).get('plain')!.size).toBe(0);
  });
});
