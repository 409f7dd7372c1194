// Where a lookup's time goes: the resolver sums, per track decided, the pacing waits and calls of each
// outside service (through the real service callers and clients), the preview, the estimator and the cache.
import { describe, expect, it } from 'vitest';
import { fakeResolver, fakeTrack } from './fake-sources.test-helper.ts';
import type { LookupTimings } from './lookup-timings.ts';

const resolver = (estimateMs: number) => fakeResolver({ estimateMs });

describe('lookup timings', () => {
  it('sums, per track decided, the pacing, the calls, the preview, the estimator and the cache', async () => {
    const tracks = ['A', 'B', 'C'].map(fakeTrack);
    const timings: LookupTimings = { tracks: 0, totalMs: 0, ms: {}, n: {} };
    const answers = await resolver(60).resolveTempos(tracks, { timings });
    expect([...answers.values()].map((a) => a.status)).toEqual(['found', 'found', 'found']);
    expect(timings.tracks).toBe(3);
    const m = timings.ms;
    // Each track: one Deezer call paced 30 ms ahead, one preview 20 ms ahead; ReccoBeats' one call is
    // shared by the three (each waited for it).
    expect(m['pacing:deezer']).toBeGreaterThanOrEqual(3 * 28);
    expect(m['pacing:deezer-preview']).toBeGreaterThanOrEqual(3 * 18);
    for (const s of ['http:deezer', 'http:deezer-preview', 'http:reccobeats'])
      expect(m[s]).toBeGreaterThanOrEqual(3 * 9);
    expect(m['estimator:cpu']).toBe(3 * 25);
    expect(m['estimator:off-cpu']).toBe(3 * 15);
    expect(m['estimator:wait']).toBeGreaterThanOrEqual(3 * 18);
    expect(m['db:cache']).toBeGreaterThanOrEqual(0);
    // How many times: per track one Deezer call, one preview, one estimate, and the shared ReccoBeats call
    // (one: none of the ids is known, so there is no second).
    expect(timings.n).toMatchObject({
      'http:deezer': 3,
      'http:deezer-preview': 3,
      'estimator:cpu': 3,
      'http:reccobeats': 3,
    });
    // The stages happen inside each track's time from the start to its row saved.
    const staged = Object.values(m).reduce((a, b) => a + b, 0);
    expect(timings.totalMs).toBeGreaterThanOrEqual(staged - 1);
  });

  it('adds nothing without a sink, and the answers are the same', async () => {
    const tracks = [
      { spotifyId: 'spX', isrc: 'USAAA2600001', artists: ['Band'], title: 'Song', durationMs: 200_000 },
    ];
    const answers = await resolver(0).resolveTempos(tracks);
    expect(answers.get('spX')).toMatchObject({ status: 'found', bpm: 170 });
  });
});
