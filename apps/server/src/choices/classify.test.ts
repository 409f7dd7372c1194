// How a tempo meets a range, and what a target waits for and skips (pure).
import { describe, expect, it } from 'vitest';
import type { TempoFact } from '../playlists/matching.ts';
import { NO_CHOICES } from '../playlists/runner-choices.ts';
import { SongSet } from '../playlists/song-identity.ts';
import { foldOf, skippedBy, waitingFor } from './classify.ts';

describe('foldOf', () => {
  it.each([
    [175, 'none'],
    [87.5, 'double'],
    [350, 'half'],
    [170, 'none'],
    [180, null],
    [90, null], // 180 is out
    [120, null],
  ])('%s BPM in 170–180 → %s', (bpm, fold) => expect(foldOf(bpm, 170, 180)).toBe(fold));
});

describe('waiting and skipped', () => {
  const target = { id: 't', minBpm: 170, maxBpm: 180 };
  const c = (n: number, artistIds = ['a']) => ({
    trackId: `t${n}`,
    recordingKey: `isrc:R${n}`,
    title: `Song ${n}`,
    artistIds,
    durationMs: 1,
    explicit: false,
    fromLikedSongs: true,
    rank: n,
  });
  const tempos = new Map<string, TempoFact>([
    ['isrc:R1', { bpm: 175, confidence: 0.9 }],
    ['isrc:R2', { bpm: 176, confidence: 0.5 }],
    ['isrc:R3', { bpm: null, confidence: 0 }],
    ['isrc:R4', { bpm: 120, confidence: 0.5 }], // uncertain, but fits no way: not this target's
    ['isrc:R5', { bpm: 174, confidence: 0.9 }],
    ['isrc:R6', { bpm: 130, confidence: 0.9 }],
  ]);
  const candidates = [c(1), c(2), c(3), c(4), c(5, ['b']), c(6, ['b']), c(7)]; // R7: not looked up yet
  const base = { target, candidates, tempos, placed: new SongSet(), minConfidence: 0.76 };

  it('waits for what fits by a trusted tempo; skips the uncertain that would fit and the unknown', () => {
    const i = { ...base, choices: NO_CHOICES };
    expect(waitingFor(i).map((p) => p.trackId)).toEqual(['t1', 't5']);
    expect(skippedBy(i).map((s) => [s.trackId, s.reason])).toEqual([
      ['t2', 'uncertain'],
      ['t3', 'unknown_tempo'],
    ]);
  });

  it('an excluded artist’s tracks are skipped where they would fit; placed ones are in no list', () => {
    const i = {
      ...base,
      placed: new SongSet([{ trackId: 'x', recordingKey: 'isrc:R1' }]),
      choices: { ...NO_CHOICES, excludedArtists: new Set(['b']), corrections: new Map([['isrc:R3', 88]]) },
    };
    expect(waitingFor(i).map((p) => p.trackId)).toEqual(['t3']);
    expect(skippedBy(i).map((s) => [s.trackId, s.reason])).toEqual([
      ['t2', 'uncertain'],
      ['t5', 'excluded_artist'],
    ]);
  });

  it('a target’s filters: what they leave out is skipped with the filter’s reason, and does not wait', () => {
    const filtered = [
      { ...c(1), explicit: true }, // fits, explicit
      { ...c(5), fromLikedSongs: false }, // fits, only in a playlist
      { ...c(8), durationMs: 30_000 }, // fits by a correction, too short
      { ...c(6), explicit: true }, // explicit but fits no way: not this target's
      { ...c(9), explicit: true }, // explicit, uncertain: the tempo is the reason
    ];
    const i = {
      ...base,
      target: { ...target, noExplicit: true, likedOnly: true, minDurationMs: 60_000, maxDurationMs: null },
      candidates: filtered.map((t) => ({ ...t, durationMs: t.durationMs === 1 ? 200_000 : t.durationMs })),
      tempos: new Map([...tempos, ['isrc:R9', { bpm: 172, confidence: 0.5 }]]),
      choices: { ...NO_CHOICES, corrections: new Map([['isrc:R8', 171]]) },
    };
    expect(waitingFor(i)).toEqual([]);
    expect(skippedBy(i).map((s) => [s.trackId, s.reason])).toEqual([
      ['t1', 'explicit'],
      ['t5', 'not_liked'],
      ['t8', 'duration'],
      ['t9', 'uncertain'],
    ]);
    // Without the filters the same tracks wait.
    const open = { ...i, target };
    expect(waitingFor(open).map((p) => p.trackId)).toEqual(['t1', 't5', 't8']);
  });
});

describe('meter', () => {
  const target = { id: 't', minBpm: 170, maxBpm: 180 };
  const c = (n: number) => ({
    trackId: `t${n}`,
    recordingKey: `isrc:M${n}`,
    title: `Song ${n}`,
    artistIds: [`a${n}`],
    durationMs: 1,
    explicit: false,
    fromLikedSongs: true,
    rank: n,
  });
  // All trusted and fitting 170–180 (87.5 at double time); their meters differ.
  const tempos = new Map<string, TempoFact>([
    ['isrc:M1', { bpm: 175, confidence: 0.9, meter: '4/4' }],
    ['isrc:M2', { bpm: 174, confidence: 0.9, meter: '3/4' }],
    ['isrc:M3', { bpm: 87.5, confidence: 0.9, meter: '6/8' }],
    ['isrc:M4', { bpm: 176, confidence: 0.9, meter: '5/4' }],
    ['isrc:M5', { bpm: 172, confidence: 0.9, meter: '7/8' }],
    ['isrc:M6', { bpm: 173, confidence: 0.9, meter: null }],
  ]);
  const candidates = [1, 2, 3, 4, 5, 6].map(c);
  const base = { candidates, tempos, placed: new SongSet(), minConfidence: 0.76, choices: NO_CHOICES };

  it('leaves songs in 3/4, 6/8, 5/4 and 7/8 out by default, each with its reason; 4/4 and unknown go in', () => {
    const i = { ...base, target };
    expect(waitingFor(i).map((p) => p.trackId)).toEqual(['t1', 't6']);
    expect(skippedBy(i).map((s) => [s.trackId, s.reason])).toEqual([
      ['t2', 'meter_3_4'],
      ['t3', 'meter_6_8'],
      ['t4', 'meter_5_4'],
      ['t5', 'meter_7_8'],
    ]);
  });

  it('a target that takes some meters places them, and still skips the others', () => {
    const i = { ...base, target: { ...target, metersIncluded: ['3/4' as const, '6/8' as const] } };
    expect(waitingFor(i).map((p) => p.trackId)).toEqual(['t1', 't2', 't3', 't6']);
    expect(skippedBy(i).map((s) => s.reason)).toEqual(['meter_5_4', 'meter_7_8']);
  });

  it('the runner’s “this one is in 4/4” places a song the resolver heard in 3/4, and the reverse leaves one out', () => {
    const choices = {
      ...NO_CHOICES,
      meterCorrections: new Map([
        ['isrc:M2', '4/4' as const],
        ['isrc:M1', '3/4' as const],
      ]),
    };
    const i = { ...base, target, choices };
    expect(waitingFor(i).map((p) => p.trackId)).toEqual(['t2', 't6']);
    expect(skippedBy(i).map((s) => [s.trackId, s.reason])[0]).toEqual(['t1', 'meter_3_4']);
  });

  it('a song out of the range is not skipped for its meter (it is not this target’s)', () => {
    const i = { ...base, target: { id: 'slow', minBpm: 120, maxBpm: 130 } };
    expect(skippedBy(i)).toEqual([]);
  });
});
