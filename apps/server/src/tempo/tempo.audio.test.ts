// The checks after Deezer in a queue of their own: a tempo-lookup job caches what two sources agree on
// and hands the rest (GetSongBPM, the preview, the estimator) to tempo-audio jobs instead of holding its
// worker while previews come. Before, a lookup waited for every preview of its batch, and the next
// batches, whose sources might agree at once, waited in the queue behind it (bench/playlist-truth).
import { describe, expect, it } from 'vitest';
import { fakeResolver, fakeTrack, type FakeSources } from './fake-sources.test-helper.ts';
import { createTempoLookups, TempoAudioPayload } from './tempo.jobs.ts';
import type { CachedTempo } from './tempo.repository.ts';
import { AUDIO_JOB_SLOT_WAIT_MS, tempoKey, type PendingCheck } from './tempo.service.ts';

const USER = 'b1c2d3e4-0000-4000-8000-000000000000';

function queues() {
  const lookups: unknown[] = [];
  const audio: Array<{ checks: PendingCheck[]; userId?: string; startAfter?: Date }> = [];
  return {
    lookups,
    audio,
    queue: {
      send: async (_n: 'tempo-lookup', p: unknown) => {
        lookups.push(p);
        return 'id';
      },
    },
    audioQueue: {
      send: async (
        _n: 'tempo-audio',
        p: { checks: PendingCheck[]; userId?: string },
        o?: { startAfter?: Date },
      ) => {
        // What pg-boss would store: the payload as the registry validates it, through JSON.
        TempoAudioPayload.parse(JSON.parse(JSON.stringify(p)));
        audio.push({ ...p, ...(o?.startAfter ? { startAfter: o.startAfter } : {}) });
        return 'id';
      },
    },
  };
}

const within = <T>(ms: number, p: Promise<T>) =>
  Promise.race([
    p,
    new Promise<never>((_, reject) =>
      setTimeout(() => reject(new Error(`still waiting after ${ms} ms`)), ms),
    ),
  ]);

describe('tempo-audio jobs', () => {
  it('a lookup does not wait for previews: it caches what two sources agree on and hands the rest on', async () => {
    const saved: Array<{ spotifyId: string | null; bpm: number | null }> = [];
    // A and B: ReccoBeats and Deezer agree (checked), at a tempo no running playlist takes (so their
    // meter needs no audio); C: Deezer alone (the audio must check it). The previews never come.
    const tempo = fakeResolver({
      reccobeats: { spA: 120, spB: 120 },
      deezerBpm: 120,
      previews: 'hang',
      saved,
    });
    const q = queues();
    const lookups = createTempoLookups({ tempo, queue: q.queue, audioQueue: q.audioQueue });
    const out = await within(3_000, lookups.run(['A', 'B', 'C'].map(fakeTrack), { userId: USER }));
    expect(out).toMatchObject({ found: 2, unknown: 0, deferred: 0, toAudio: 1 });
    expect(saved.map((r) => r.spotifyId).sort()).toEqual(['spA', 'spB']);
    expect(q.lookups).toEqual([]);
    expect(q.audio).toHaveLength(1);
    const [check] = q.audio[0]!.checks;
    expect(q.audio[0]!.userId).toBe(USER);
    expect(check).toMatchObject({
      track: fakeTrack('C'),
      answers: [{ bpm: 120, source: 'deezer' }],
      preview: 'https://cdns-preview.dzcdn.net/1.mp3',
    });
    // Its time so far goes with it: the Deezer call it waited for.
    expect(check!.heldMs).toBeGreaterThan(0);
    expect(check!.clock.n['http:deezer']).toBe(1);
  });

  it('a running tempo two sources agree on waits for the audio when one label gives its meter, and a waltz is caught', async () => {
    const saved: Array<{ spotifyId: string | null; bpm: number | null; meter?: string | null }> = [];
    // ReccoBeats says 4/4 (it labels a waltz 4/4 about as often as not); the audio hears bars of three.
    const tempo = fakeResolver({
      reccobeats: { spW: 170 },
      reccobeatsTimeSignature: { spW: 4 },
      deezerBpm: 170,
      estimate: {
        bpm: 170,
        confidence: 0.9,
        candidates: [{ bpm: 170, score: 1 }],
        meter: { meter: '3/4', strength: 0.9 },
      },
      saved,
    });
    const q = queues();
    const told: [string, string[] | undefined][] = [];
    const lookups = createTempoLookups({
      tempo,
      queue: q.queue,
      audioQueue: q.audioQueue,
      onTemposFound: async (u, keys) => void told.push([u, keys]),
    });
    const out = await within(3_000, lookups.run([fakeTrack('W')], { userId: USER }));
    // Handed on: the tempo is checked, but a lone 4/4 label does not settle the meter.
    expect(out).toMatchObject({ found: 0, toAudio: 1 });
    expect(q.audio[0]!.checks[0]!.answers).toEqual([
      { bpm: 170, source: 'reccobeats', confidence: 0.85, meter: '4/4' },
      { bpm: 170, source: 'deezer', confidence: 0.8 },
    ]);
    const checked = await lookups.runChecks(q.audio[0]!.checks, { userId: USER });
    expect(checked).toMatchObject({ found: 1 });
    expect(saved).toEqual([{ spotifyId: 'spW', bpm: 170, meter: '3/4' }]);
    // The check's job tells of the recording it found (other runners holding it are told: compose.ts).
    expect(told).toEqual([[USER, [tempoKey(fakeTrack('W'))]]]);
  });

  it('hands the audio its checks in groups as Deezer is done with them, not when Deezer has read the whole batch', async () => {
    // 30 tracks only Deezer knows, at a running tempo: each needs the audio. Deezer answers one at a time.
    const calls: string[] = [];
    const tempo = fakeResolver({ deezerBpm: 170, previews: 'hang', calls });
    const q = queues();
    const audioQueue = {
      send: async (...args: Parameters<typeof q.audioQueue.send>) => {
        calls.push('tempo-audio');
        return q.audioQueue.send(...args);
      },
    };
    const lookups = createTempoLookups({ tempo, queue: q.queue, audioQueue });
    const tracks = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123'.split('').map(fakeTrack);
    const out = await within(5_000, lookups.run(tracks, { userId: USER }));
    expect(out).toMatchObject({ found: 0, toAudio: 30 });
    expect(q.audio.map((j) => j.checks.length)).toEqual([10, 10, 10]);
    // The first group went to the audio while Deezer had most of the batch still to read.
    const deezerBefore = calls.slice(0, calls.indexOf('tempo-audio')).filter((c) => c === 'deezer').length;
    expect(deezerBefore).toBeLessThanOrEqual(14);
    expect(calls.filter((c) => c === 'deezer')).toHaveLength(30);
    expect(new Set(q.audio.flatMap((j) => j.checks.map((c) => c.track.spotifyId))).size).toBe(30);
  });

  /** Track C, whose preview never comes in its lookup: the checks that lookup hands to a tempo-audio job. */
  async function handedToAudio(q: ReturnType<typeof queues>) {
    const first = createTempoLookups({
      tempo: fakeResolver({ deezerBpm: 170, previews: 'hang' }),
      queue: q.queue,
      audioQueue: q.audioQueue,
    });
    await first.run([fakeTrack('C')], { userId: USER });
    return q.audio.splice(0)[0]!.checks;
  }

  it('a tempo-audio job checks the tracks on the audio, caches them, and counts their whole time', async () => {
    const q = queues();
    const handed = await handedToAudio(q);

    const saved: Array<{ spotifyId: string | null; bpm: number | null }> = [];
    const found: string[] = [];
    const second = createTempoLookups({
      tempo: fakeResolver({ deezerBpm: 170, saved }),
      queue: q.queue,
      audioQueue: q.audioQueue,
      onTemposFound: async (u) => void found.push(u),
    });
    const out = await second.runChecks(handed, { userId: USER });
    expect(out).toMatchObject({ found: 1, unknown: 0, deferred: 0 });
    expect(saved).toEqual([{ spotifyId: 'spC', bpm: 170 }]);
    expect(found).toContain(USER);
    expect(out.timings.tracks).toBe(1);
    expect(out.timings.totalMs).toBeGreaterThanOrEqual(handed[0]!.heldMs);
    expect(out.timings.n).toMatchObject({ 'http:deezer': 1, 'http:deezer-preview': 1, 'estimator:cpu': 1 });
  });

  it('a check whose preview must wait goes back on the queue for when the service allows', async () => {
    const q = queues();
    const handed = await handedToAudio(q);
    const saved: Array<{ spotifyId: string | null; bpm: number | null }> = [];
    const second = createTempoLookups({
      tempo: fakeResolver({ deezerBpm: 170, previews: 'refuse', saved }),
      queue: q.queue,
      audioQueue: q.audioQueue,
    });
    const out = await second.runChecks(handed, { userId: USER });
    expect(out).toMatchObject({ found: 0, deferred: 1 });
    expect(saved).toEqual([]);
    expect(q.audio).toHaveLength(1);
    expect(q.audio[0]!.checks[0]!.track).toEqual(fakeTrack('C'));
    expect(q.audio[0]!.startAfter!.getTime()).toBeGreaterThan(Date.now());
  });
});

describe('GetSongBPM beside the audio, while its pace has room', () => {
  /**
   * Track W: ReccoBeats (labelled 4/4) and Deezer agree on a running tempo; only its meter is unsure. The
   * audio hears 4/4 bars, clearly (strength 0.9) unless told otherwise.
   */
  async function meterOnly(
    getsongbpm: NonNullable<Parameters<typeof fakeResolver>[0]>['getsongbpm'],
    barsStrength = 0.9,
  ) {
    const saved: Array<{ spotifyId: string | null; bpm: number | null; meter?: string | null }> = [];
    const calls: string[] = [];
    const tempo = fakeResolver({
      reccobeats: { spW: 170 },
      reccobeatsTimeSignature: { spW: 4 },
      deezerBpm: 170,
      getsongbpm,
      estimate: {
        bpm: 170,
        confidence: 0.9,
        candidates: [{ bpm: 170, score: 1 }],
        meter: { meter: '4/4', strength: barsStrength },
      },
      saved,
      calls,
    });
    const q = queues();
    const lookups = createTempoLookups({ tempo, queue: q.queue, audioQueue: q.audioQueue });
    await within(3_000, lookups.run([fakeTrack('W')], { userId: USER }));
    const out = await lookups.runChecks(q.audio[0]!.checks, { userId: USER });
    return { out, saved, calls, requeued: q.audio.length - 1 };
  }

  it('a second 4/4 label from GetSongBPM settles the meter: no preview is fetched, nothing estimated', async () => {
    const { out, saved, calls } = await meterOnly({ tempo: 170, time_sig: '4/4' });
    expect(out).toMatchObject({ found: 1, deferred: 0 });
    expect(saved).toEqual([{ spotifyId: 'spW', bpm: 170, meter: '4/4' }]);
    expect(calls).toContain('getsongbpm');
    expect(calls).not.toContain('deezer-preview');
    expect(out.timings.n['estimator:cpu']).toBeUndefined();
  });

  it('when GetSongBPM has no slot at once the audio answers, and the track is not deferred', async () => {
    const { out, saved, calls, requeued } = await meterOnly('refuse');
    expect(out).toMatchObject({ found: 1, deferred: 0 });
    expect(requeued).toBe(0);
    expect(saved).toEqual([{ spotifyId: 'spW', bpm: 170, meter: '4/4' }]);
    expect(calls).toContain('deezer-preview');
    expect(calls).not.toContain('getsongbpm');
  });

  it('with its pace busy, a spare meter label is not waited for: the audio answers', async () => {
    const { out, calls } = await meterOnly({ busy: { tempo: 170, time_sig: '4/4' } });
    expect(out).toMatchObject({ found: 1, deferred: 0 });
    expect(calls).not.toContain('getsongbpm');
    expect(calls).toContain('deezer-preview');
  });

  it('a meter the audio did not make out (one 4/4 label, no clear bars) is asked of GetSongBPM after the audio', async () => {
    // A 6/8 that ReccoBeats labels 4/4; the preview's bars are unclear; GetSongBPM's pace is busy (the
    // spare label before the audio is skipped), its tie-breaker after the audio waits for a slot.
    const { saved, calls } = await meterOnly({ busy: { tempo: 170, time_sig: '6/8' } }, 0.2);
    expect(calls.indexOf('getsongbpm')).toBeGreaterThan(calls.indexOf('deezer-preview'));
    expect(saved).toEqual([{ spotifyId: 'spW', bpm: 170, meter: '6/8' }]);
  });

  it('a lone answer the audio cannot confirm is confirmed by GetSongBPM as a tie-breaker, waiting for its slot', async () => {
    // Deezer alone says 170; the audio hears nothing clear.
    const lone = (getsongbpm?: NonNullable<Parameters<typeof fakeResolver>[0]>['getsongbpm']) =>
      fakeResolver({
        deezerBpm: 170,
        ...(getsongbpm ? { getsongbpm } : {}),
        estimate: { bpm: null, confidence: 0, candidates: [], reason: 'no clear beat' },
      });
    const timings = { tracks: 0, totalMs: 0, ms: {}, n: {} as Record<string, number> };
    const handed = async (tempo: ReturnType<typeof fakeResolver>) => {
      const q = queues();
      await createTempoLookups({ tempo, queue: q.queue, audioQueue: q.audioQueue }).run([fakeTrack('L')]);
      return (await tempo.checkTempos(q.audio[0]!.checks, { timings })).answers.get('spL')!;
    };
    const without = await handed(lone());
    expect(without).toMatchObject({ status: 'found', bpm: 170 });
    expect(without.confidence).toBeLessThan(0.76);
    const withIt = await handed(lone({ busy: { tempo: 170, time_sig: '4/4' } }));
    expect(withIt).toMatchObject({ status: 'found', bpm: 170, meter: '4/4' });
    expect(withIt.confidence).toBeGreaterThanOrEqual(0.76);
    expect(withIt.alternatives.map((a) => a.source)).toEqual(['deezer', 'getsongbpm']);
    // The lookup timings say what GetSongBPM's pace went to: a tie-breaker for an unchecked tempo.
    expect(timings.n['getsongbpm:tie-breaker-tempo']).toBe(1);
  });
});

describe('a check whose track was found meanwhile', () => {
  it('answers from the cache: no preview, no estimator, nothing saved twice', async () => {
    // Queued twice (another runner's catalog, then a newcomer's first pages at their priority): the
    // higher-priority lookup found it while this check waited in the audio queue.
    const calls: string[] = [];
    const saved: Array<{ spotifyId: string | null; bpm: number | null }> = [];
    const cached: CachedTempo[] = [];
    const tempo = fakeResolver({ deezerBpm: 170, calls, saved, cached });
    const q = queues();
    await createTempoLookups({ tempo, queue: q.queue, audioQueue: q.audioQueue }).run([fakeTrack('F')]);
    expect(q.audio).toHaveLength(1);
    cached.push({
      key: tempoKey(fakeTrack('F')),
      bpm: 171,
      source: 'deezer',
      confidence: 0.9,
      alternatives: [],
      meter: '4/4',
      meterConfidence: 0.9,
      reason: null,
      retryAt: null,
      resolvedAt: new Date(),
    });
    calls.length = 0;
    const { answers, later } = await tempo.checkTempos(q.audio[0]!.checks);
    expect(answers.get('spF')).toMatchObject({ status: 'found', bpm: 171 });
    expect(later).toEqual([]);
    expect(calls).toEqual([]);
    expect(saved).toEqual([]);
  });
});

describe('the audio’s clear running tempo against a source that says another', () => {
  it('is settled by GetSongBPM as a tie-breaker', async () => {
    // Deezer says 134.8 (a wrong entry, not a running tempo); the audio hears 86 clearly (172 for a runner).
    const resolve = (getsongbpm?: { busy: { tempo: number } }) =>
      fakeResolver({
        deezerBpm: 134.8,
        estimate: { bpm: 86, confidence: 1, candidates: [{ bpm: 86, score: 1 }] },
        ...(getsongbpm ? { getsongbpm } : {}),
      })
        .resolveTempos([fakeTrack('T')])
        .then((m) => m.get('spT')!);
    const without = await resolve();
    expect(without.confidence).toBeLessThan(0.76);
    const settled = await resolve({ busy: { tempo: 172 } });
    expect(settled).toMatchObject({ status: 'found', bpm: 172, source: 'getsongbpm' });
    expect(settled.confidence).toBeGreaterThanOrEqual(0.76);
  });
});

describe('a Deezer match found by name', () => {
  /** Deezer alone says 170 for a match found by name; the audio of its preview hears 170 (4/4). */
  const byName = async (title: string, duration: number) => {
    const calls: string[] = [];
    const answer = (
      await fakeResolver({
        deezerBpm: 170,
        deezerByName: { title, duration },
        estimate: { bpm: 170, confidence: 0.9, candidates: [{ bpm: 170, score: 1 }] },
        calls,
      }).resolveTempos([{ ...fakeTrack('N'), durationMs: 200_400 }])
    ).get('spN')!;
    return { answer, calls };
  };

  it('with the same title and length it is the same recording: the audio of its preview checks its bpm', async () => {
    const { answer, calls } = await byName('Song', 200);
    expect(answer).toMatchObject({ status: 'found', bpm: 170, source: 'deezer' });
    expect(answer.confidence).toBeGreaterThanOrEqual(0.76);
    expect(calls).toContain('deezer-preview');
  });

  it('another version (its own words, or another length) is checked by nothing: not placed', async () => {
    for (const [title, duration] of [
      ['Song (Acoustic Version)', 200],
      ['Song', 205],
    ] as const) {
      const { answer } = await byName(title, duration);
      expect(answer, title).toMatchObject({ status: 'found', bpm: 170, source: 'deezer' });
      expect(answer.confidence, `${title}, ${duration} s`).toBeLessThan(0.76);
    }
  });
});

/** Track W (ReccoBeats labels it 4/4, Deezer agrees on 170), handed to a tempo-audio job. */
async function waltzLike(previews: FakeSources['previews'], more: Partial<FakeSources> = {}) {
  const saved: Array<{ spotifyId: string | null; bpm: number | null; meter?: string | null }> = [];
  const tempo = fakeResolver({
    reccobeats: { spW: 170 },
    reccobeatsTimeSignature: { spW: 4 },
    deezerBpm: 170,
    previews,
    saved,
    ...more,
  });
  const q = queues();
  const lookups = createTempoLookups({ tempo, queue: q.queue, audioQueue: q.audioQueue });
  await within(3_000, lookups.run([fakeTrack('W')], { userId: USER }));
  return { lookups, q, saved, checks: q.audio.splice(0)[0]!.checks };
}

describe('a tempo-audio check waits in line for its preview', () => {
  // In a 100-runner storm at 1 preview a second, checks whose slot was more than 3 s away went back on the
  // queue, behind younger jobs: 33,421 deferrals for 999 previews heard, and the queue's order (a runner's
  // first songs, then their library, oldest first) lost. Now a check waits up to AUDIO_JOB_SLOT_WAIT_MS.
  it('a slot 20 s away is waited for in the job: heard and placed, not sent back to the queue', async () => {
    const slept: number[] = [];
    const { lookups, q, saved, checks } = await waltzLike({ aheadMs: 20_000 }, { slept });
    const out = await lookups.runChecks(checks, { userId: USER });
    expect(out).toMatchObject({ found: 1, deferred: 0 });
    expect(slept).toEqual([20_000]);
    expect(saved).toEqual([{ spotifyId: 'spW', bpm: 170, meter: '4/4' }]);
    expect(q.audio).toEqual([]);
  });

  it('a line longer than that: back on the queue for when its slot would come', async () => {
    expect(AUDIO_JOB_SLOT_WAIT_MS).toBeLessThan(45_000);
    const slept: number[] = [];
    const { lookups, q, saved, checks } = await waltzLike({ aheadMs: 45_000 }, { slept });
    const before = Date.now();
    const out = await lookups.runChecks(checks, { userId: USER });
    expect(out).toMatchObject({ found: 0, deferred: 1 });
    expect(slept).toEqual([]);
    expect(saved).toEqual([]);
    expect(q.audio).toHaveLength(1);
    expect(q.audio[0]!.startAfter!.getTime()).toBeGreaterThanOrEqual(before + 45_000);
  });

  it('a shutdown during the wait: back on the queue at once, nothing cached, no failure counted', async () => {
    const stop = new AbortController();
    const { lookups, q, saved, checks } = await waltzLike(
      { aheadMs: 20_000 },
      { whileWaiting: () => stop.abort() },
    );
    const out = await lookups.runChecks(checks, { userId: USER, stopping: stop.signal });
    expect(out).toMatchObject({ found: 0, handedBack: 1 });
    expect(saved).toEqual([]);
    expect(q.audio).toHaveLength(1);
    expect(q.audio[0]!.startAfter).toBeUndefined();
    expect(q.audio[0]!.checks[0]!.audioFailures).toBeUndefined();
  });
});

describe('a running tempo whose meter only the audio can settle waits for the audio', () => {
  it('a preview that must wait: not placed on its one 4/4 label, back on the queue for when the pace allows', async () => {
    const { lookups, q, saved, checks } = await waltzLike('refuse');
    const out = await lookups.runChecks(checks, { userId: USER });
    expect(out).toMatchObject({ found: 0, deferred: 1 });
    expect(saved).toEqual([]);
    expect(q.audio).toHaveLength(1);
    expect(q.audio[0]!.checks[0]!.track).toEqual(fakeTrack('W'));
    expect(q.audio[0]!.startAfter!.getTime()).toBeGreaterThan(Date.now());
  });

  it('a preview that fails is tried again a minute later, three times in all, then the label is taken', async () => {
    const { lookups, q, saved, checks } = await waltzLike('fail');
    let pending = checks;
    for (const tries of [1, 2]) {
      const before = Date.now();
      const out = await lookups.runChecks(pending, { userId: USER });
      expect(out).toMatchObject({ found: 0, deferred: 1 });
      const next = q.audio.splice(0)[0]!;
      expect(next.checks[0]!.audioFailures).toBe(tries);
      expect(next.startAfter!.getTime()).toBeGreaterThanOrEqual(before + 60_000 * tries);
      pending = next.checks;
    }
    expect(saved).toEqual([]);
    const out = await lookups.runChecks(pending, { userId: USER });
    expect(out).toMatchObject({ found: 1, deferred: 0 });
    expect(saved).toEqual([{ spotifyId: 'spW', bpm: 170, meter: '4/4' }]);
    expect(q.audio).toEqual([]);
  }, 20_000);
});
