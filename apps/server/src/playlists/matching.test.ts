import { describe, expect, it } from 'vitest';
import { candidate } from './candidates.test-helper.ts';
import {
  DEFAULT_TARGETS,
  dueNow,
  EDGE_MARGIN,
  fitsRange,
  MIN_CONFIDENCE,
  placeable,
  planAdds,
  ROUND_SLACK,
  spanOf,
  targetDescription,
  targetName,
  trustedBpm,
  type PlannedTrack,
  type TempoFact,
} from './matching.ts';
import { SongSet } from './song-identity.ts';

/** A placed row of candidate n's track. */
const placedRow = (n: number) => ({ trackId: `track${n}`, recordingKey: `isrc:REC${n}` });
const tempo = (bpm: number | null, confidence = 0.85): TempoFact => ({ bpm, confidence });
const TARGETS = DEFAULT_TARGETS.map((t) => ({ id: `${t.minBpm}-${t.maxBpm}`, ...t }));

describe('fitsRange: tempo, double or half in [min, max)', () => {
  it.each([
    [165, 160, 170, true], // the tempo itself
    [82.5, 160, 170, true], // half time: its double fits
    [330, 160, 170, true], // double time: its half fits
    [160, 160, 170, true], // min is in
    [170, 160, 170, false], // max is out
    [169.99, 160, 170, true],
    [80, 160, 170, true], // 2 × 80 = 160, exactly the min
    [85, 160, 170, false], // 2 × 85 = 170, exactly the max
    [340, 160, 170, false], // 340 / 2 = 170
    [320, 160, 170, true], // 320 / 2 = 160
    [159.99, 160, 170, false],
    [120, 160, 170, false], // 3:2 of 180 and 2:3 of 180 are not the same tempo
    [110, 160, 170, false],
    [41.25, 160, 170, false], // a quarter: only one factor of 2 is allowed
  ])('%s BPM in [%s, %s): %s', (bpm, min, max, fits) => {
    expect(fitsRange(bpm, min, max)).toBe(fits);
  });

  it('puts every tempo of the default ranges in exactly one default target', () => {
    for (let bpm = 60; bpm <= 200; bpm += 0.25) {
      const n = DEFAULT_TARGETS.filter((t) => fitsRange(bpm, t.minBpm, t.maxBpm)).length;
      const inAny = [bpm, bpm * 2, bpm / 2].some((b) => b >= 150 && b < 190);
      expect(n, String(bpm)).toBe(inAny ? 1 : 0);
    }
  });
});

describe('placeable: a tempo at or above a target’s min, and where it may truly be under its max', () => {
  const lone = (bpm: number) => spanOf(bpm, false);
  it.each([
    [160, 160, 170, true], // a song at exactly the min is in
    [160.1, 160, 170, true],
    [169.3, 160, 170, true], // 0.41 % below the max: all its span is under it
    [169.4, 160, 170, false], // 0.35 % below: it may be a 170 BPM song, which belongs to 170–180
    [84.7, 160, 170, false], // the same for half time
    [338.8, 160, 170, false], // and double time
    [159.5, 150, 160, false],
    [159.7, 160, 170, true], // 0.19 % under a round min its span reaches: most such songs are at 160
    [159.6, 160, 170, false], // 0.25 % under: not here (ROUND_SLACK), and not in 150–160 (it may be at 160)
    [149.75, 150, 160, true], // the same at the lowest min: no target below takes it
    [189.3, 180, 190, false], // it may be a 190 BPM song, which fits no target
  ])('%s BPM, nothing narrowing it, in [%s, %s): %s', (bpm, min, max, fits) => {
    expect(placeable(lone(bpm), min, max)).toBe(fits);
  });

  it('leaves out only the margin below each max when nothing narrows it, less the slack under a min: every other tempo is placed once', () => {
    const mins = [150, 160, 170, 180];
    for (let bpm = 60; bpm <= 200; bpm += 0.05) {
      const n = DEFAULT_TARGETS.filter((t) => placeable(lone(bpm), t.minBpm, t.maxBpm)).length;
      const octaves = [bpm, bpm * 2, bpm / 2];
      const underMin = octaves.some((b) => mins.some((min) => b >= min * (1 - ROUND_SLACK) && b < min));
      const nearMax = octaves.some((b) =>
        [160, 170, 180, 190].some((max) => b >= max / (1 + EDGE_MARGIN) && b < max),
      );
      const inAny = octaves.some((b) => b >= 150 && b < 190);
      expect(n, String(bpm)).toBe(underMin || (inAny && !nearMax) ? 1 : 0);
    }
  });

  it('takes a tempo just under a round min only when its span reaches it: not agreeing sources under it, not a correction', () => {
    expect(placeable(lone(159.75), 160, 170)).toBe(true);
    expect(placeable(lone(159.75), 150, 160)).toBe(false);
    // Three values that agree on 159.7 closely: the song is not at 160, so it stays in 150–160.
    const close = [
      { source: 'reccobeats', bpm: 159.7, confidence: 0.85 },
      { source: 'deezer', bpm: 159.7, confidence: 0.8 },
      { source: 'estimator', bpm: 159.2, confidence: 0.9 },
    ];
    const span = spanOf(159.7, false, close);
    expect(span.hi).toBeLessThan(160);
    expect(placeable(span, 160, 170)).toBe(false);
    expect(placeable(span, 150, 160)).toBe(true);
    // The runner's correction is exact: 159.9 is under 160.
    expect(placeable(spanOf(159.9, true), 160, 170)).toBe(false);
    expect(placeable(spanOf(159.9, true), 150, 160)).toBe(true);
  });

  it('narrows the span by the sources that agree: 189.4 from three of them is under 190, from one it may not be', () => {
    const three = [
      { source: 'reccobeats', bpm: 94.68, confidence: 0.85 },
      { source: 'deezer', bpm: 189, confidence: 0.8 },
      { source: 'estimator', bpm: 189.64, confidence: 0.9 },
    ];
    expect(placeable(spanOf(189.4, false, three), 180, 190)).toBe(true);
    expect(placeable(lone(189.4), 180, 190)).toBe(false);
    // A value off from the rest by more than its error narrows nothing: the span is a lone value's.
    const apart = [
      { source: 'deezer', bpm: 189.2, confidence: 0.8 },
      { source: 'estimator', bpm: 186, confidence: 0.9 },
    ];
    expect(spanOf(189.4, false, apart)).toEqual(lone(189.4));
    // A value that does not agree (3:2) is not part of it.
    expect(spanOf(189.4, false, [...three, { source: 'getsongbpm', bpm: 126, confidence: 0.75 }])).toEqual(
      spanOf(189.4, false, three),
    );
    // The runner's correction is exact.
    expect(placeable(spanOf(189.9, true), 180, 190)).toBe(true);
  });

  it('planAdds places a tempo just under an edge nowhere, unless its agreeing sources put it under or it is just under a round min', () => {
    const tempos = new Map<string, TempoFact>([
      ['isrc:REC1', tempo(159.8)], // a 160 BPM song reported 0.1 % low: 160–170 takes it (ROUND_SLACK)
      ['isrc:REC2', tempo(160.2)],
      [
        'isrc:REC3',
        {
          ...tempo(159.5),
          alternatives: [
            { source: 'deezer', bpm: 159.2, confidence: 0.8 },
            { source: 'reccobeats', bpm: 159.3, confidence: 0.85 },
            { source: 'estimator', bpm: 159.9, confidence: 0.9 },
          ],
        },
      ],
      ['isrc:REC4', tempo(159.5)], // the same tempo, nothing to narrow it: it may be at 160, or under it
    ]);
    const plan = planAdds(
      TARGETS,
      [1, 2, 3, 4].map((n) => candidate(n)),
      tempos,
      new Map(),
    );
    expect(plan.get('160-170')?.map((p) => p.trackId)).toEqual(['track1', 'track2']);
    expect(plan.get('150-160')?.map((p) => p.trackId)).toEqual(['track3']);
  });
});

describe('trustedBpm', () => {
  it('uses a confident tempo and refuses unknown, zero and doubtful ones', () => {
    expect(trustedBpm(tempo(172, 0.85))).toBe(172);
    expect(trustedBpm(tempo(172, MIN_CONFIDENCE))).toBe(172);
    expect(trustedBpm(tempo(172, MIN_CONFIDENCE - 0.01))).toBeNull();
    expect(trustedBpm(tempo(172, 0.6))).toBeNull(); // decide(): a conflict it could not settle
    expect(trustedBpm(tempo(172, 0.7))).toBeNull(); // ReccoBeats alone: nothing checked it
    expect(trustedBpm(tempo(172, 0.8))).toBe(172); // Deezer, checked (a 3:2 dispute the audio settled)
    expect(trustedBpm(tempo(null, 0))).toBeNull();
    expect(trustedBpm(tempo(0, 0.9))).toBeNull();
    expect(trustedBpm(undefined)).toBeNull();
  });
});

describe('planAdds', () => {
  it('places each trusted track in the target its tempo, double or half fits, in rank order', () => {
    const candidates = [candidate(3), candidate(1), candidate(2), candidate(4), candidate(5)];
    const tempos = new Map([
      ['isrc:REC1', tempo(172)],
      ['isrc:REC2', tempo(86)], // half of 172
      ['isrc:REC3', tempo(175.5)],
      ['isrc:REC4', tempo(120)], // fits nothing
      ['isrc:REC5', tempo(172, 0.3)], // too uncertain
    ]);
    const plan = planAdds(TARGETS, candidates, tempos, new Map());
    expect(plan.get('170-180')).toEqual([
      {
        trackId: 'track1',
        recordingKey: 'isrc:REC1',
        title: 'Song 1',
        artistId: 'a1',
        artistIds: ['a1'],
        durationMs: 200_000,
        bpm: 172,
        since: 0,
      },
      {
        trackId: 'track2',
        recordingKey: 'isrc:REC2',
        title: 'Song 2',
        artistId: 'a1',
        artistIds: ['a1'],
        durationMs: 200_000,
        bpm: 86,
        since: 0,
      },
      {
        trackId: 'track3',
        recordingKey: 'isrc:REC3',
        title: 'Song 3',
        artistId: 'a1',
        artistIds: ['a1'],
        durationMs: 200_000,
        bpm: 175.5,
        since: 0,
      },
    ]);
    for (const id of ['150-160', '160-170', '180-190']) expect(plan.get(id)).toEqual([]);
  });

  it('places a recording once, as its best-ranked track, and never one the target already has', () => {
    const candidates = [
      candidate(1),
      candidate(2, { trackId: 'compilationCopy', recordingKey: 'isrc:REC1' }),
      candidate(3),
      candidate(4),
    ];
    const tempos = new Map([
      ['isrc:REC1', tempo(155)],
      ['isrc:REC3', tempo(155)],
      ['isrc:REC4', tempo(155)],
    ]);
    // REC3 was added earlier and removed by the user; REC4 is pending from a batch in flight.
    const placed = new Map([['150-160', new SongSet([placedRow(3), placedRow(4)])]]);
    const plan = planAdds(TARGETS, candidates, tempos, placed);
    expect(plan.get('150-160')?.map((p) => p.trackId)).toEqual(['track1']);
  });

  it('places a song once however many versions of it the library holds (song-identity.ts)', () => {
    const candidates = [
      candidate(1, { title: 'Window' }),
      candidate(2, { title: 'Window - Radio Edit', durationMs: 170_000 }),
      candidate(3, { title: 'Window - Live' }),
      candidate(4, { title: 'Door (Remastered 2011)' }),
    ];
    const tempos = new Map(candidates.map((c) => [c.recordingKey, tempo(155)]));
    // "Door" (another recording of it) is in the playlist already.
    const door = { trackId: 'x', recordingKey: 'isrc:X', title: 'Door', artistId: 'a1', durationMs: 200_000 };
    const plan = planAdds(TARGETS, candidates, tempos, new Map([['150-160', new SongSet([door])]]));
    expect(plan.get('150-160')?.map((p) => p.trackId)).toEqual(['track1', 'track3']);
  });

  it('keeps the list order among equal ranks (stable) and matches overlapping targets independently', () => {
    const targets = [
      { id: 'a', minBpm: 160, maxBpm: 175 },
      { id: 'b', minBpm: 170, maxBpm: 180 },
    ];
    const candidates = [candidate(9, { rank: 0 }), candidate(8, { rank: 0 })];
    const tempos = new Map([
      ['isrc:REC9', tempo(172)],
      ['isrc:REC8', tempo(86.5)],
    ]);
    const plan = planAdds(targets, candidates, tempos, new Map());
    expect(plan.get('a')?.map((p) => p.trackId)).toEqual(['track9', 'track8']);
    expect(plan.get('b')?.map((p) => p.trackId)).toEqual(['track9', 'track8']);
  });
});

describe('dueNow: when to spend an add call', () => {
  const POLICY = { batch: 100, firstFill: 50, maxWaitMs: 120_000 };
  const NOW = 1_000_000_000;
  const planned = (n: number, since: number): PlannedTrack[] =>
    Array.from({ length: n }, (_, i) => ({ trackId: `t${i}`, recordingKey: `k${i}`, bpm: 170, since }));

  it('a first fill waits until 50 matches are known, then writes everything, one call per playlist', () => {
    const few = new Map([
      ['a', planned(20, NOW - 1000)],
      ['b', planned(20, NOW - 5000)],
    ]);
    const waiting = dueNow(few, true, POLICY, NOW);
    expect([...waiting.due.values()]).toEqual([0, 0]);
    expect(waiting.nextAt).toBe(NOW - 5000 + 120_000);
    const enough = new Map([...few, ['c', planned(10, NOW)]]);
    expect(dueNow(enough, true, POLICY, NOW)).toEqual({
      due: new Map([
        ['a', 20],
        ['b', 20],
        ['c', 10],
      ]),
      nextAt: null,
    });
    // A small library: after the longest wait, whatever there is.
    expect(dueNow(few, true, POLICY, NOW + 120_000).due.get('a')).toBe(20);
  });

  it('a first fill short of 50 goes out once its first match waited firstFillWaitMs (issue 23)', () => {
    const policy = { ...POLICY, firstFillWaitMs: 15_000 };
    const few = new Map([
      ['a', planned(20, NOW - 1000)],
      ['b', planned(3, NOW - 5000)],
    ]);
    const early = dueNow(few, true, policy, NOW);
    expect([...early.due.values()]).toEqual([0, 0]);
    expect(early.nextAt).toBe(NOW - 5000 + 15_000);
    expect(dueNow(few, true, policy, NOW + 10_000).due).toEqual(
      new Map([
        ['a', 20],
        ['b', 3],
      ]),
    );
  });

  it('until 50 are placed, a playlist with 5 ready goes at once, fewer after 15 s; then the 2-minute wait', () => {
    const policy = { ...POLICY, firstFillWaitMs: 15_000, fillMin: 5 };
    const plan = new Map([
      ['a', planned(5, NOW - 1000)],
      ['b', planned(2, NOW - 1000)],
    ]);
    expect(dueNow(plan, 'filling', policy, NOW)).toEqual({
      due: new Map([
        ['a', 5],
        ['b', 0],
      ]),
      nextAt: NOW - 1000 + 15_000,
    });
    expect(dueNow(plan, 'filling', policy, NOW + 14_000).due.get('b')).toBe(2);
    // Once the runner has 50 placed: what is short of a full add waits for company.
    expect(dueNow(plan, 'steady', policy, NOW)).toEqual({
      due: new Map([
        ['a', 0],
        ['b', 0],
      ]),
      nextAt: NOW - 1000 + 120_000,
    });
  });

  it('until 50 are placed, a playlist with songs waits longer for company; the add reaching 50 goes at once', () => {
    const policy = { ...POLICY, firstFillWaitMs: 15_000, fillMin: 5, fillWaitMs: 60_000 };
    const plan = new Map([
      ['a', planned(2, NOW - 20_000)],
      ['b', planned(2, NOW - 20_000)],
    ]);
    // `a` has songs: its 2 wait a minute; `b` is empty: its first songs go after 15 s.
    const some = { ...policy, placed: new Map([['a', 10]]) };
    expect(dueNow(plan, 'filling', some, NOW)).toEqual({
      due: new Map([
        ['a', 0],
        ['b', 2],
      ]),
      nextAt: NOW - 20_000 + 60_000,
    });
    expect(dueNow(plan, 'filling', some, NOW + 40_000).due.get('a')).toBe(2);
    // 46 placed: these 4 bring the runner to 50, so they go now.
    const near = {
      ...policy,
      placed: new Map([
        ['a', 40],
        ['b', 6],
      ]),
    };
    expect(dueNow(plan, 'filling', near, NOW).due).toEqual(
      new Map([
        ['a', 2],
        ['b', 2],
      ]),
    );
    // Without a wait of its own, the 15 s of the first fill.
    expect(dueNow(plan, 'filling', { ...some, fillWaitMs: undefined }, NOW).due.get('a')).toBe(2);
  });

  it('then adds full batches of 100 at once, and a remainder once it has waited long enough', () => {
    const plan = new Map([
      ['a', planned(230, NOW - 10_000)],
      ['b', planned(7, NOW - 130_000)],
      ['c', []],
    ]);
    const r = dueNow(plan, false, POLICY, NOW);
    expect(r.due).toEqual(
      new Map([
        ['a', 200],
        ['b', 7],
      ]),
    );
    expect(r.nextAt).toBe(NOW - 10_000 + 120_000);
  });
});

describe('names', () => {
  it('names a target by its range and says what the playlist is', () => {
    expect(targetName(170, 180)).toBe('Pacebeat 170–180 BPM');
    expect(targetName(172.5, 177.5)).toBe('Pacebeat 172.5–177.5 BPM');
    expect(targetDescription(170, 180)).toMatch(/170–180 BPM, or half or double/);
    expect(targetDescription(170, 180)).toMatch(/not added again/);
  });
});
