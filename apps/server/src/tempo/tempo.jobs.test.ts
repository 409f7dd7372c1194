import { describe, expect, it } from 'vitest';
import {
  audioWorkers,
  createTempoLookups,
  TEMPO_BATCH,
  TEMPO_PRIORITY,
  TempoLookupPayload,
} from './tempo.jobs.ts';
import {
  AUDIO_JOB_SLOT_WAIT_MS,
  BACKGROUND_RETRY_MS,
  type SourceTempo,
  type TempoAnswer,
  type TrackInput,
} from './tempo.service.ts';

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

const USER = '0b6f1f4e-8a52-4c9b-9d7e-2a1c3e5f7a90';
const OTHER = '5d2e8c1a-3b4f-4e6a-9c7d-1f2a3b4c5d6e';

function fakeQueue() {
  const sent: { tracks: TrackInput[]; userId?: string; startAfter?: Date }[] = [];
  return {
    sent,
    send: async (
      _name: 'tempo-lookup',
      p: { tracks: TrackInput[]; userId?: string },
      o: { startAfter?: Date } = {},
    ) => {
      TempoLookupPayload.parse(p);
      sent.push({ ...p, ...(o.startAfter ? { startAfter: o.startAfter } : {}) });
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
    expect(queue.sent.map((s) => s.userId)).toEqual([undefined, undefined, undefined]);
    await lookups.enqueue(tracks.slice(0, 2), { userId: USER });
    expect(queue.sent[3]).toEqual({ tracks: tracks.slice(0, 2), userId: USER });
  });

  it('gives the resolver the user’s Spotify audio-features only for a job with a user', async () => {
    const asked: string[] = [];
    const given: boolean[] = [];
    const audioFeatures = async () => new Map<string, SourceTempo>();
    const lookups = createTempoLookups({
      tempo: {
        resolveTempos: async (_ts, o = {}) => {
          given.push(o.audioFeatures === audioFeatures);
          return new Map();
        },
      },
      queue: fakeQueue(),
      audioFeaturesFor: async (userId) => {
        asked.push(userId);
        return userId === USER ? audioFeatures : undefined;
      },
    });
    await lookups.run([track(1)]);
    await lookups.run([track(1)], { userId: USER });
    await lookups.run([track(1)], { userId: 'c2d3e4f5-0000-4000-8000-000000000000' });
    expect(asked).toEqual([USER, 'c2d3e4f5-0000-4000-8000-000000000000']);
    expect(given).toEqual([false, true, false]);
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
    const counts = await lookups.run([track(1), track(2), track(3), track(4)], { userId: USER });
    expect(counts).toMatchObject({ found: 1, unknown: 1, deferred: 2 });
    expect(queue.sent).toEqual([{ tracks: [track(3), track(4)], userId: USER, startAfter: later }]);
  });

  it('a stop hands the tracks not yet decided back to the queue at once, with the same user and priority', async () => {
    const queue = fakeQueue();
    const stop = new AbortController();
    const lookups = createTempoLookups({
      tempo: {
        // The resolver, stopped after the first track: the others have no answer.
        resolveTempos: async (ts, o = {}) => {
          stop.abort();
          expect(o.stopping?.aborted).toBe(true);
          return new Map([[ts[0]!.spotifyId, answer('found')]]);
        },
      },
      queue,
    });
    const counts = await lookups.run([track(1), track(2), track(3)], {
      userId: USER,
      priority: 2,
      stopping: stop.signal,
    });
    expect(counts).toMatchObject({ found: 1, unknown: 0, deferred: 0, handedBack: 2 });
    expect(queue.sent).toEqual([{ tracks: [track(2), track(3)], userId: USER, priority: 2 }]);
  });

  it('asks for the user’s playlist sync when a job of their library found tempos, and only then, with the recordings found', async () => {
    const told: string[] = [];
    const keys: (string[] | undefined)[] = [];
    const statuses: TempoAnswer['status'][][] = [['found', 'unknown'], ['unknown'], ['found']];
    let call = 0;
    const lookups = createTempoLookups({
      tempo: {
        resolveTempos: async (ts) => {
          const s = statuses[call++]!;
          return new Map(ts.map((t, i) => [t.spotifyId, answer(s[i] ?? 'unknown')]));
        },
      },
      queue: fakeQueue(),
      onTemposFound: async (userId, found) => {
        told.push(userId);
        keys.push(found);
      },
    });
    await lookups.run([track(1), track(2)], { userId: USER });
    await lookups.run([track(3)], { userId: USER }); // nothing found
    await lookups.run([track(4)]); // no user: nobody's playlists
    expect(told).toEqual([USER]);
    // Only the found one's recording: other runners holding it are told (compose.ts).
    expect(keys).toEqual([['isrc:USABC0000001']]);
  });

  it('asks for the playlist sync as soon as the resolver has early answers', async () => {
    const told: string[] = [];
    const lookups = createTempoLookups({
      tempo: {
        resolveTempos: async (ts, o = {}) => {
          await o.onEarlyAnswers?.();
          expect(told).toEqual([USER]); // before the slower sources
          return new Map(ts.map((t) => [t.spotifyId, answer('unknown')]));
        },
      },
      queue: fakeQueue(),
      onTemposFound: async (userId) => void told.push(userId),
    });
    await lookups.run([track(1)], { userId: USER });
    await lookups.run([track(2)]);
    expect(told).toEqual([USER]);
  });

  it('a background job waits for Deezer to have room, else goes back on the queue as it came, asking nobody', async () => {
    const queue = fakeQueue();
    const ran: (boolean | undefined)[] = [];
    let room = false;
    let asked = 0;
    const lookups = createTempoLookups({
      tempo: {
        resolveTempos: async (ts, o = {}) => {
          ran.push(o.background);
          return new Map(ts.map((t) => [t.spotifyId, answer('found')]));
        },
        deezerHasRoom: async () => (asked++, room),
      },
      queue,
      roomWaitMs: 0,
    });
    const known = { track1: { answers: [{ bpm: 120, source: 'reccobeats', confidence: 0.85 }] } };
    const before = Date.now();
    // A runner's first 50 go now, busy or not; the catalogs and second looks wait for room.
    await lookups.run([track(1)], { userId: USER, priority: TEMPO_PRIORITY.firstCatalog });
    await lookups.run([track(1)], { userId: USER, priority: TEMPO_PRIORITY.firstCatalogUnknown });
    expect(ran).toEqual([undefined, undefined]);
    const out = await lookups.run([track(1)], {
      userId: USER,
      priority: TEMPO_PRIORITY.secondLook,
      secondLook: true,
      known,
    });
    expect(ran).toEqual([undefined, undefined]);
    expect(out).toMatchObject({ waitedForRoom: 1 });
    expect(queue.sent).toHaveLength(1);
    const { startAfter, ...again } = queue.sent[0]!;
    expect(again).toEqual({
      tracks: [track(1)],
      userId: USER,
      priority: TEMPO_PRIORITY.secondLook,
      secondLook: true,
      known,
    });
    expect(startAfter!.getTime()).toBeGreaterThanOrEqual(before + BACKGROUND_RETRY_MS);
    // With room, it runs, and its Deezer calls are a background lookup's.
    room = true;
    await lookups.run([track(1)], { userId: USER, priority: TEMPO_PRIORITY.catalog });
    expect(ran).toEqual([undefined, undefined, true]);
    expect(queue.sent).toHaveLength(1);
    expect(asked).toBe(2);
  });

  it('a first-50 catalog job of a runner who has reached 50 goes back as background work, asking nobody', async () => {
    const queue = fakeQueue();
    const audio: { checks: unknown[]; priority?: number }[] = [];
    const resolved: string[] = [];
    const short = new Map([
      [USER, true],
      [OTHER, false],
    ]);
    const lookups = createTempoLookups({
      tempo: {
        resolveTempos: async (ts) => {
          resolved.push(...ts.map((t) => t.spotifyId));
          return new Map(ts.map((t) => [t.spotifyId, answer('found')]));
        },
        checkTempos: async () => ({ answers: new Map(), later: [] }),
      },
      queue,
      audioQueue: { send: async (_n, p) => (audio.push(p), 'id') },
      firstSongs: async (userId) => short.get(userId) ?? false,
    });
    // Still short of 50: the job runs at its priority.
    await lookups.run([track(1)], { userId: USER, priority: TEMPO_PRIORITY.firstCatalog });
    expect(resolved).toEqual(['track1']);
    expect(queue.sent).toEqual([]);
    // Reached: the job goes back on the queue as the catalogs of a runner past 50 (background), unasked.
    const known = { track2: { answers: [{ bpm: 150, source: 'reccobeats', confidence: 0.85 }] } };
    for (const priority of [TEMPO_PRIORITY.firstCatalog, TEMPO_PRIORITY.firstCatalogUnknown]) {
      const out = await lookups.run([track(2)], { userId: OTHER, priority, known });
      expect(out).toMatchObject({ background: 1 });
    }
    expect(resolved).toEqual(['track1']);
    expect(queue.sent).toEqual([
      { tracks: [track(2)], userId: OTHER, priority: TEMPO_PRIORITY.catalog, known },
      { tracks: [track(2)], userId: OTHER, priority: TEMPO_PRIORITY.catalog, known },
    ]);
    // The runner's own tracks are not catalogs: they run whatever the count.
    await lookups.run([track(3)], { userId: OTHER, priority: TEMPO_PRIORITY.ownLibrary });
    expect(resolved).toEqual(['track1', 'track3']);
    // The checks handed on at a first-50 priority likewise.
    const check = {
      track: track(4),
      answers: [],
      notes: [],
      transient: false,
      heldMs: 0,
      clock: { ms: {}, n: {} },
    };
    const out = await lookups.runChecks([check], { userId: OTHER, priority: TEMPO_PRIORITY.firstCatalog });
    expect(out).toMatchObject({ background: 1 });
    expect(audio).toEqual([{ checks: [check], userId: OTHER, priority: TEMPO_PRIORITY.catalog }]);
  });

  it('refuses a payload that is not a batch of tracks', () => {
    expect(TempoLookupPayload.safeParse({ tracks: [] }).success).toBe(false);
    expect(TempoLookupPayload.safeParse({ tracks: [{ ...track(1), spotifyId: 'bad id!' }] }).success).toBe(
      false,
    );
    expect(TempoLookupPayload.safeParse({ tracks: [track(1)] }).success).toBe(true);
    expect(TempoLookupPayload.safeParse({ tracks: [track(1)], userId: USER }).success).toBe(true);
    for (const userId of ['', 'ana', `${USER}x`, 42, null])
      expect(TempoLookupPayload.safeParse({ tracks: [track(1)], userId }).success).toBe(false);
    expect(TempoLookupPayload.safeParse({ tracks: [track(1)], user: USER }).success).toBe(false);
  });
});

describe('tempo-audio workers', () => {
  it('are as few as the preview pace needs: the line of waiting checks fits the wait for a slot', () => {
    expect(audioWorkers(8)).toBe(6);
    expect(audioWorkers(1)).toBe(2);
    expect(audioWorkers(0.1)).toBe(1);
    // Three work processes (the scale-out shape), 4 checks at a time per job: every check in flight gets
    // its preview within AUDIO_JOB_SLOT_WAIT_MS, so none goes back on the queue behind younger jobs
    // (down to half a preview a second, where one worker each is the least there is).
    for (const rate of [0.5, 1, 1.5, 2, 3, 4, 8, 16, 50]) {
      const inFlight = 3 * audioWorkers(rate) * 4;
      expect(inFlight / rate).toBeLessThanOrEqual(AUDIO_JOB_SLOT_WAIT_MS / 1000);
    }
  });
});
