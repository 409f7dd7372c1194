// planAdds with the runner's choices (pure): a correction is used over the resolver's tempo, whatever its
// confidence, and is due at once; an excluded recording or artist is never planned.
import { describe, expect, it } from 'vitest';
import { candidate as aCandidate } from './candidates.test-helper.ts';
import { DEFAULT_TARGETS, dueNow, planAdds, type TempoFact } from './matching.ts';
import { excludedBy, NO_CHOICES, type RunnerChoices } from './runner-choices.ts';

const candidate = (n: number, artistIds = ['a1']) => aCandidate(n, { artistIds });
const TARGETS = DEFAULT_TARGETS.map((t) => ({ id: `${t.minBpm}`, ...t }));
const choices = (o: Partial<RunnerChoices>): RunnerChoices => ({ ...NO_CHOICES, ...o });
const keysBy = (plan: Map<string, { recordingKey: string }[]>) =>
  Object.fromEntries([...plan].map(([id, l]) => [id, l.map((p) => p.recordingKey)]));

describe('planAdds with the runner’s choices', () => {
  const tempos = new Map<string, TempoFact>([
    ['isrc:REC1', { bpm: 172, confidence: 0.85, resolvedAt: new Date(1_000_000) }],
    ['isrc:REC2', { bpm: null, confidence: 0 }],
    ['isrc:REC3', { bpm: 155, confidence: 0.4 }],
  ]);
  const cands = [candidate(1), candidate(2, ['a2']), candidate(3, ['a3', 'a1'])];

  it('without choices: only the trusted tempo is planned', () => {
    expect(keysBy(planAdds(TARGETS, cands, tempos, new Map()))).toEqual({
      150: [],
      160: [],
      170: ['isrc:REC1'],
      180: [],
    });
  });

  it('a correction moves a track, places an unknown or uncertain one, and is due at once', () => {
    const ch = choices({
      corrections: new Map([
        ['isrc:REC1', 155],
        ['isrc:REC2', 83],
        ['isrc:REC3', 188],
      ]),
    });
    const plan = planAdds(TARGETS, cands, tempos, new Map(), undefined, ch);
    expect(keysBy(plan)).toEqual({ 150: ['isrc:REC1'], 160: ['isrc:REC2'], 170: [], 180: ['isrc:REC3'] });
    expect(plan.get('150')![0]).toMatchObject({ bpm: 155, since: 0 });
    // A lone corrected track is due now, not after the wait for a batch to fill.
    const { due } = dueNow(plan, false, { batch: 100, firstFill: 50, maxWaitMs: 120_000 }, 5_000_000);
    expect(due.get('150')).toBe(1);
  });

  it('an excluded recording or artist is never planned, whatever its tempo or correction', () => {
    const byTrack = choices({
      excludedRecordings: new Set(['isrc:REC1']),
      corrections: new Map([['isrc:REC1', 155]]),
    });
    expect(keysBy(planAdds(TARGETS, cands, tempos, new Map(), undefined, byTrack))[150]).toEqual([]);
    const byArtist = choices({
      excludedArtists: new Set(['a1']),
      corrections: new Map([['isrc:REC3', 188]]),
    });
    const plan = keysBy(planAdds(TARGETS, cands, tempos, new Map(), undefined, byArtist));
    expect(Object.values(plan).flat()).toEqual([]); // REC1 is a1's, REC3 features a1
    expect(excludedBy(cands[1]!, byArtist)).toBeNull();
    expect(excludedBy(cands[2]!, byArtist)).toBe('artist');
    expect(excludedBy(cands[0]!, byTrack)).toBe('track');
  });
});
