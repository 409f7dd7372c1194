// Deezer's pace bounds how fast a library's tempos are checked (8 calls a second for the installation,
// 1.35 a track): a track whose first answer (ReccoBeats') is a tempo no playlist takes is checked last, in
// a second look (a catalog's at the lowest priority, a runner's own level with the catalogs), so that the
// pace goes first to the tracks a playlist may take.
import { describe, expect, it, onTestFinished, vi } from 'vitest';
import type { TempoAlternative } from '../db/tempo.schema.ts';
import { fakeResolver, fakeTrack } from './fake-sources.test-helper.ts';
import { createTempoLookups, TEMPO_PRIORITY, TempoAudioPayload, TempoLookupPayload } from './tempo.jobs.ts';
import { wantedTempo, type FirstAnswers, type PendingCheck, type TrackInput } from './tempo.service.ts';

const USER = 'c3d4e5f6-0000-4000-8000-000000000000';

/** A queue that keeps every payload sent, each validated as the registry would store it (through JSON). */
function capturingQueue<P>(schema: { parse(data: unknown): unknown }) {
  const sent: P[] = [];
  return {
    sent,
    send: async (_name: string, p: P) => {
      schema.parse(JSON.parse(JSON.stringify(p)));
      sent.push(p);
      return 'id';
    },
  };
}

const lookupQueue = () =>
  capturingQueue<{
    tracks: TrackInput[];
    userId?: string;
    priority?: number;
    secondLook?: true;
    known?: Record<string, { answers: TempoAlternative[] }>;
  }>(TempoLookupPayload);

const audioQueue = () =>
  capturingQueue<{ checks: PendingCheck[]; userId?: string; priority?: number; secondLook?: true }>(
    TempoAudioPayload,
  );

/** A track no source knows (GetSongBPM finds its song without a tempo), with a preview: its check and the jobs. */
function noSourceKnows(letter: string) {
  const calls: string[] = [];
  const queued = audioQueue();
  const lookups = createTempoLookups({
    tempo: fakeResolver({ getsongbpm: { tempo: 0 }, calls }),
    queue: lookupQueue(),
    audioQueue: queued,
    wantedRanges: async () => [],
  });
  return { calls, queued, lookups, check: unknownCheck(letter) };
}

/** A check handed on with no answer yet and a preview (a track no first source knows). */
function unknownCheck(letter: string): PendingCheck {
  return {
    track: fakeTrack(letter),
    answers: [],
    notes: [],
    transient: false,
    preview: `https://cdns-preview.dzcdn.net/${letter}.mp3`,
    heldMs: 0,
    clock: { ms: {}, n: {} },
  };
}

describe('the second look', () => {
  it('takes the running band and the ranges given, up to a factor of 2, and nothing else', () => {
    const wanted = wantedTempo([{ minBpm: 120, maxBpm: 130 }]);
    expect([170, 85, 150, 187, 125, 62.5, 250].map(wanted)).toEqual([
      true,
      true,
      true,
      true,
      true,
      true,
      true,
    ]);
    expect([135, 110, 100, 140, 210, 67].map(wanted)).toEqual([false, false, false, false, false, false]);
    expect(wantedTempo([])(125)).toBe(false);
  });

  it('checks first what a playlist may take: Deezer is not asked for a first answer none takes', async () => {
    const calls: string[] = [];
    const saved: Array<{ spotifyId: string | null; bpm: number | null }> = [];
    // A: ReccoBeats says 120 (no playlist takes it); B: 172 (a running tempo); C: ReccoBeats does not know it.
    const tempo = fakeResolver({ reccobeats: { spA: 120, spB: 172 }, deezerBpm: 172, calls, saved });
    const later: FirstAnswers[][] = [];
    const answers = await tempo.resolveTempos([fakeTrack('A'), fakeTrack('B'), fakeTrack('C')], {
      secondLook: { wanted: wantedTempo([]), later: async (ts) => void later.push(ts) },
    });
    expect(later).toEqual([
      [{ track: fakeTrack('A'), answers: [{ bpm: 120, source: 'reccobeats', confidence: 0.85 }] }],
    ]);
    expect(calls.filter((c) => c === 'deezer')).toHaveLength(2);
    expect([...answers.keys()].sort()).toEqual(['spB', 'spC']);
    expect(saved.map((s) => s.spotifyId).sort()).toEqual(['spB', 'spC']);

    // Without it (the second look itself), every track is checked, ReccoBeats not asked again when its
    // answer comes with the track: A's two sources now agree.
    calls.length = 0;
    const again = await fakeResolver({ reccobeats: { spA: 120 }, deezerBpm: 120, calls }).resolveTempos(
      [fakeTrack('A')],
      { known: new Map([['spA', { answers: later[0]![0]!.answers }]]) },
    );
    expect(calls).toEqual(['deezer']);
    expect(again.get('spA')).toMatchObject({ status: 'found', bpm: 120 });
  });

  it('a lookup job queues the second look at the lowest priority, once, and the second look checks all', async () => {
    const calls: string[] = [];
    const tempo = fakeResolver({ reccobeats: { spA: 120, spB: 172 }, deezerBpm: 0, calls });
    const queue = lookupQueue();
    let read = 0;
    const lookups = createTempoLookups({
      tempo,
      queue,
      wantedRanges: async () => {
        read++;
        return [];
      },
    });
    const out = await lookups.run([fakeTrack('A'), fakeTrack('B')], {
      userId: USER,
      priority: TEMPO_PRIORITY.catalog,
    });
    expect(out).toMatchObject({ secondLook: 1 });
    expect(queue.sent).toEqual([
      {
        tracks: [fakeTrack('A')],
        userId: USER,
        priority: TEMPO_PRIORITY.secondLook,
        secondLook: true,
        known: { spA: { answers: [{ bpm: 120, source: 'reccobeats', confidence: 0.85 }] } },
      },
    ]);
    expect(TEMPO_PRIORITY.secondLook).toBeLessThan(
      Math.min(...Object.values(TEMPO_PRIORITY).filter((p) => p !== TEMPO_PRIORITY.secondLook)),
    );

    // The second look: Deezer is asked for A (ReccoBeats not again), nothing is queued again, the ranges
    // are not read for it.
    calls.length = 0;
    const { tracks, ...payload } = queue.sent[0]!;
    const second = await lookups.run(tracks, payload);
    // (Deezer has no bpm for it: the audio checks ReccoBeats' lone answer.)
    expect(calls).toEqual(['deezer', 'deezer-preview']);
    expect(second).not.toHaveProperty('secondLook');
    expect(second.found + second.unknown).toBe(1);
    expect(queue.sent).toHaveLength(1);
    expect(read).toBe(1);
  });

  it("after Deezer too: a check of tempos no playlist takes is heard in the second look's turn", async () => {
    // B: ReccoBeats 172, Deezer 120 (a running tempo in dispute: checked now); C: Deezer's 120 alone.
    const tempo = fakeResolver({ reccobeats: { spB: 172 }, deezerBpm: 120, previews: 'hang' });
    const audio = audioQueue();
    const lookups = createTempoLookups({
      tempo,
      queue: lookupQueue(),
      audioQueue: audio,
      wantedRanges: async () => [],
    });
    const out = await lookups.run([fakeTrack('B'), fakeTrack('C')], { userId: USER });
    expect(out).toMatchObject({ toAudio: 2 });
    expect(audio.sent.map((p) => [p.checks.map((c) => c.track.spotifyId), p.priority, p.secondLook])).toEqual(
      [
        [['spB'], undefined, undefined],
        [['spC'], TEMPO_PRIORITY.secondLook, true],
      ],
    );
  });

  it('a track no source knows is heard in the second look: its preview goes first to what may be placed', async () => {
    // GetSongBPM finds the song but has no tempo for it: no source knows D.
    const { calls, queued, lookups, check } = noSourceKnows('D');
    const audio = queued.sent;
    const first = await lookups.runChecks([check], { userId: USER, priority: TEMPO_PRIORITY.catalog });
    expect(calls).toEqual(['getsongbpm']);
    expect(first).toMatchObject({ found: 0, unknown: 0, secondLook: 1 });
    expect(audio).toHaveLength(1);
    expect(audio[0]).toMatchObject({ priority: TEMPO_PRIORITY.secondLook, secondLook: true });
    expect(audio[0]!.checks.map((c) => [c.track.spotifyId, c.askedGetSongBpm])).toEqual([['spD', true]]);

    // The second look hears it, and does not ask GetSongBPM again.
    calls.length = 0;
    const second = await lookups.runChecks(audio[0]!.checks, {
      userId: USER,
      priority: TEMPO_PRIORITY.secondLook,
      secondLook: true,
    });
    expect(calls).toEqual(['deezer-preview']);
    expect(second).toMatchObject({ found: 1 });
    expect(audio).toHaveLength(1);
  });

  it("a runner's own tracks get their second look level with the catalogs, in the order queued", async () => {
    const calls: string[] = [];
    const tempo = fakeResolver({ reccobeats: { spA: 120 }, deezerBpm: 120, calls });
    const queue = lookupQueue();
    const lookups = createTempoLookups({ tempo, queue, wantedRanges: async () => [] });
    for (const priority of [TEMPO_PRIORITY.ownLibrary, TEMPO_PRIORITY.firstPages, TEMPO_PRIORITY.firstPage]) {
      calls.length = 0;
      queue.sent.length = 0;
      const out = await lookups.run([fakeTrack('A')], { userId: USER, priority });
      expect(out).toMatchObject({ secondLook: 1 });
      expect(calls).not.toContain('deezer');
      expect(queue.sent).toMatchObject([
        { tracks: [fakeTrack('A')], priority: TEMPO_PRIORITY.catalog, secondLook: true },
      ]);
    }
  });

  it("a check handed to the second look at the catalogs' level is heard there, not handed on again", async () => {
    const { calls, queued, lookups, check } = noSourceKnows('E');
    await lookups.runChecks([check], { userId: USER, priority: TEMPO_PRIORITY.ownLibrary });
    expect(queued.sent).toMatchObject([{ priority: TEMPO_PRIORITY.catalog, secondLook: true }]);
    calls.length = 0;
    const { priority, secondLook } = queued.sent[0]!;
    const second = await lookups.runChecks(queued.sent[0]!.checks, {
      userId: USER,
      ...(priority ? { priority } : {}),
      ...(secondLook ? { secondLook } : {}),
    });
    expect(calls).toEqual(['deezer-preview']);
    expect(second).toMatchObject({ found: 1 });
    expect(queued.sent).toHaveLength(1);
  });

  it('a target at another tempo is wanted too; ranges that cannot be read leave every track checked now', async () => {
    const calls: string[] = [];
    const tempo = fakeResolver({ reccobeats: { spA: 120 }, deezerBpm: 120, calls });
    const walking = createTempoLookups({
      tempo,
      queue: lookupQueue(),
      wantedRanges: async () => [{ minBpm: 115, maxBpm: 125 }],
    });
    expect(await walking.run([fakeTrack('A')], { userId: USER })).not.toHaveProperty('secondLook');
    expect(calls.filter((c) => c === 'deezer')).toHaveLength(1);

    calls.length = 0;
    const broken = createTempoLookups({
      tempo: fakeResolver({ reccobeats: { spA: 120 }, deezerBpm: 120, calls }),
      queue: lookupQueue(),
      wantedRanges: async () => {
        throw new Error('database gone');
      },
    });
    expect(await broken.run([fakeTrack('A')], { userId: USER })).toMatchObject({ found: 1 });
    expect(calls.filter((c) => c === 'deezer')).toHaveLength(1);
  });

  it('a runner’s own tracks see a pace added within seconds; catalogs keep the ranges a minute', async () => {
    let ranges = [{ minBpm: 170, maxBpm: 180 }];
    let now = Date.now();
    vi.spyOn(Date, 'now').mockImplementation(() => now);
    onTestFinished(() => void vi.restoreAllMocks());
    const lookups = createTempoLookups({
      tempo: fakeResolver({ reccobeats: { spA: 120, spB: 120, spC: 120 }, deezerBpm: 0 }),
      queue: lookupQueue(),
      wantedRanges: async () => ranges,
    });
    const own = { userId: USER, priority: TEMPO_PRIORITY.ownLibrary };
    const catalog = { userId: USER, priority: TEMPO_PRIORITY.catalog };
    expect(await lookups.run([fakeTrack('A')], own)).toMatchObject({ secondLook: 1 });
    // A pace at 115-125 is added; 6 s later a catalog's 120 still goes to the second look, the runner's
    // own song is checked now.
    ranges = [...ranges, { minBpm: 115, maxBpm: 125 }];
    now += 6_000;
    expect(await lookups.run([fakeTrack('B')], catalog)).toMatchObject({ secondLook: 1 });
    expect(await lookups.run([fakeTrack('C')], own)).not.toHaveProperty('secondLook');
  });

  it("a runner's first catalogs: a track no first source knows is looked up after the rest, once", async () => {
    const calls: string[] = [];
    // B: ReccoBeats says 172 (a running tempo); C: ReccoBeats does not know it.
    const tempo = fakeResolver({ reccobeats: { spB: 172 }, deezerBpm: 172, calls });
    const queue = lookupQueue();
    const lookups = createTempoLookups({ tempo, queue, wantedRanges: async () => [] });
    const first = { userId: USER, priority: TEMPO_PRIORITY.firstCatalog };
    const out = await lookups.run([fakeTrack('B'), fakeTrack('C')], first);
    expect(out).toMatchObject({ found: 1, unknownLater: 1 });
    expect(out).not.toHaveProperty('secondLook');
    // Deezer for B alone (and B's preview: its meter).
    expect(calls.filter((c) => c === 'deezer')).toHaveLength(1);
    expect(queue.sent).toEqual([
      {
        tracks: [fakeTrack('C')],
        userId: USER,
        priority: TEMPO_PRIORITY.firstCatalogUnknown,
        known: { spC: { answers: [] } },
      },
    ]);
    // After every first catalog, before the catalogs of runners past their first 50.
    expect(TEMPO_PRIORITY.firstCatalogUnknown).toBeLessThan(TEMPO_PRIORITY.firstCatalog);
    expect(TEMPO_PRIORITY.firstCatalogUnknown).toBeGreaterThan(TEMPO_PRIORITY.catalog);

    // That lookup: Deezer is asked for C (ReccoBeats not again), and it is not put off again.
    calls.length = 0;
    const { tracks, ...payload } = queue.sent[0]!;
    const again = await lookups.run(tracks, payload);
    expect(calls.filter((c) => c === 'reccobeats')).toEqual([]);
    expect(calls).toContain('deezer');
    expect(again).not.toHaveProperty('unknownLater');
    expect(again.found + again.unknown).toBe(1);
    expect(queue.sent).toHaveLength(1);

    // A runner past their first 50 (the catalog priority): looked up at once.
    calls.length = 0;
    const past = await lookups.run([fakeTrack('C')], { userId: USER, priority: TEMPO_PRIORITY.catalog });
    expect(calls.slice(0, 2)).toEqual(['reccobeats', 'deezer']);
    expect(past).not.toHaveProperty('unknownLater');
    expect(queue.sent).toHaveLength(1);
  });
});

describe('background lookups and Deezer’s pace', () => {
  it('a background batch takes no Deezer slot others wait for: the first call deferred, the rest go with it unasked', async () => {
    const tracks = 'ABCDEFGH'.split('').map(fakeTrack);
    const reccobeats = Object.fromEntries(tracks.map((t) => [t.spotifyId, 172]));
    const busy = { reccobeats, deezerBpm: 172, deezerPace: 'busy' as const, backgroundWaitMs: 50 };
    const calls: string[] = [];
    const answers = await fakeResolver({ ...busy, calls }).resolveTempos(tracks, { background: true });
    expect(calls.filter((c) => c === 'deezer')).toEqual([]);
    expect([...answers.values()].map((a) => a.status)).toEqual(tracks.map(() => 'deferred'));
    // The same batch in the foreground waits for its slots and asks Deezer for every track.
    const foreground: string[] = [];
    const found = await fakeResolver({ ...busy, calls: foreground }).resolveTempos(tracks);
    expect(foreground.filter((c) => c === 'deezer')).toHaveLength(tracks.length);
    expect([...found.values()].every((a) => a.status === 'found')).toBe(true);
  });

  it('a background lookup that gave way goes back on the queue with what ReccoBeats said: not asked again', async () => {
    const tracks = 'ABCD'.split('').map(fakeTrack);
    const reccobeats = Object.fromEntries(tracks.map((t) => [t.spotifyId, 172]));
    const calls: string[] = [];
    const queue = lookupQueue();
    const lookups = createTempoLookups({
      tempo: fakeResolver({ reccobeats, deezerBpm: 172, deezerPace: 'busy', backgroundWaitMs: 50, calls }),
      queue,
    });
    const out = await lookups.run(tracks, { userId: USER, priority: TEMPO_PRIORITY.catalog });
    expect(out).toMatchObject({ gaveWay: tracks.length, found: 0, deferred: 0 });
    expect(calls).toEqual(['reccobeats', 'reccobeats']);
    expect(queue.sent).toHaveLength(1);
    const again = queue.sent[0]!;
    expect(again.priority).toBe(TEMPO_PRIORITY.catalog);
    expect(again.tracks).toEqual(tracks);
    expect(Object.values(again.known ?? {}).map((k) => k.answers.map((a) => [a.source, a.bpm]))).toEqual(
      tracks.map(() => [['reccobeats', 172]]),
    );
    // Its next try, with room: Deezer only.
    calls.splice(0);
    const next = createTempoLookups({
      tempo: fakeResolver({ reccobeats, deezerBpm: 172, calls }),
      queue: lookupQueue(),
    });
    const done = await next.run(again.tracks, {
      userId: USER,
      priority: TEMPO_PRIORITY.catalog,
      known: again.known!,
    });
    expect(done).toMatchObject({ found: tracks.length });
    expect(calls.filter((c) => c !== 'deezer-preview')).toEqual(tracks.map(() => 'deezer'));
  });

  it('background checks take no GetSongBPM slot others wait for: deferred, unheard, with the batch', async () => {
    const checks = 'ABCDEF'.split('').map(unknownCheck);
    const busy = { getsongbpm: { busy: { tempo: 172 } }, backgroundWaitMs: 50 };
    const calls: string[] = [];
    const { answers, later } = await fakeResolver({ ...busy, calls }).checkTempos(checks, {
      background: true,
    });
    expect(calls).toEqual([]);
    expect(answers.size).toBe(0);
    expect(later.map((l) => l.retryAt !== undefined)).toEqual(checks.map(() => true));
    // In the foreground every check waits for its GetSongBPM slot and is heard.
    const foreground: string[] = [];
    await fakeResolver({ ...busy, calls: foreground }).checkTempos(checks);
    expect(foreground.filter((c) => c === 'getsongbpm')).toHaveLength(checks.length);
    expect(foreground.filter((c) => c === 'deezer-preview')).toHaveLength(checks.length);
  });
});
