import { describe, expect, it } from 'vitest';
import { createTempoLookups, TEMPO_BATCH, TempoLookupPayload } from './tempo.jobs.ts';
import type { TempoAnswer, TrackInput } from './tempo.service.ts';

const track = (n: number): TrackInput => ({
  spotifyId: `track${n}`,
  isrc: `USABC${String(n).padStart(7, '0')}`,
  artists: ['A'],
  title: `T${n}`,
  durationMs: 200_000,
});
const answer = (status: TempoAnswer['status'], retryAt?: Date): TempoAnswer => ({
  status,
  bpm: status === 'found' ? 170 : null,
  source: status === 'found' ? 'deezer' : null,
  confidence: status === 'found' ? 0.8 : 0,
  alternatives: [],
  cached: false,
  ...(retryAt ? { retryAt } : {}),
});

function fakeQueue() {
  const sent: { tracks: TrackInput[]; startAfter?: Date }[] = [];
  return {
    sent,
    send: async (_name: 'tempo-lookup', p: { tracks: TrackInput[] }, o: { startAfter?: Date } = {}) => {
      TempoLookupPayload.parse(p);
      sent.push({ tracks: p.tracks, ...(o.startAfter ? { startAfter: o.startAfter } : {}) });
      return 'id';
    },
  };
}

describe('tempo lookups as jobs', () => {
  it('queues a library in batches', async () => {
    const queue = fakeQueue();
    const lookups = createTempoLookups({ tempo: { resolveTempos: async () => new Map() }, queue });
    const tracks = Array.from({ length: 2 * TEMPO_BATCH + 3 }, (_, i) => track(i));
    expect(await lookups.enqueue(tracks)).toBe(3);
    expect(queue.sent.map((s) => s.tracks.length)).toEqual([TEMPO_BATCH, TEMPO_BATCH, 3]);
  });

  it('re-queues the deferred tracks for when the service allows, and counts outcomes', async () => {
    const queue = fakeQueue();
    const later = new Date(Date.now() + 60_000);
    const lookups = createTempoLookups({
      tempo: {
        resolveTempos: async (ts) =>
          new Map(
            ts.map((t, i) => [
              t.spotifyId,
              i === 0 ? answer('found') : i === 1 ? answer('unknown') : answer('deferred', later),
            ]),
          ),
      },
      queue,
    });
    const counts = await lookups.run([track(1), track(2), track(3), track(4)]);
    expect(counts).toEqual({ found: 1, unknown: 1, deferred: 2 });
    expect(queue.sent).toEqual([{ tracks: [track(3), track(4)], startAfter: later }]);
  });

  it('refuses a payload that is not a batch of tracks', () => {
    expect(TempoLookupPayload.safeParse({ tracks: [] }).success).toBe(false);
    expect(TempoLookupPayload.safeParse({ tracks: [{ ...track(1), spotifyId: 'bad id!' }] }).success).toBe(
      false,
    );
    expect(TempoLookupPayload.safeParse({ tracks: [track(1)] }).success).toBe(true);
  });
});
