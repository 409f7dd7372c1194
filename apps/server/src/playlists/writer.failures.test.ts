// The playlist writer when things go wrong: creations and adds that Spotify applied but whose answer was
// lost, late answers, two writers at once, 429 and the daily quota in the middle of a write.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { testDb } from '../../test/db.ts';
import { jobRegistry, runJob, type JobDefinition, type JobServices } from '../app/job-registry.ts';
import { SpotifyDeferredError } from '../spotify/errors.ts';
import { createPlaylistSyncJobs } from './playlists.jobs.ts';
import { createPlaylistsRepository } from './playlists.repository.ts';
import {
  catalogTracksIn,
  seedTrueTempos,
  startPlaylistHarness,
  type PlaylistHarness,
  type Runner,
} from '../../test/playlists-harness.ts';
import { losingAnswers, lateAnswers } from './network.test-helper.ts';

let ph: PlaylistHarness;
const db2 = testDb();
beforeAll(async () => {
  ph = await startPlaylistHarness();
}, 120_000);
afterAll(async () => {
  await ph.close();
  await db2.close();
});

const posts = (r: Runner, path: RegExp) =>
  ph.h.sandbox.admin
    .requests({ service: 'spotify-api', userId: r.spotifyUserId })
    .filter((x) => x.method === 'POST' && path.test(x.url.split('?')[0]!)).length;
/** Names of the user's playlists, one entry per playlist (a duplicate creation shows twice). */
const playlistNames = (r: Runner) =>
  ph.h.sandbox.admin
    .user(r.spotifyUserId)
    .playlists.map((p) => p.name)
    .filter((n) => n.startsWith('Pacebeat '))
    .sort();
const expectEachSongOnce = (r: Runner) => {
  const w = ph.h.sandbox.world;
  for (const [name, ids] of r.playlists())
    expect(new Set(ids.map((id) => w.catalog.recordingOf(w.trackG(id)!))).size, name).toBe(ids.length);
};
/** A runner with fitting songs for two targets (the world's true tempos in the cache). */
async function runnerWithTwoTargets(o: Parameters<PlaylistHarness['runner']>[0] = {}) {
  const r = await ph.runner(o);
  const a = catalogTracksIn(ph, 150, 160, 12);
  const b = catalogTracksIn(ph, 180, 190, 12);
  await seedTrueTempos(ph, [...a, ...b]);
  ph.h.sandbox.admin.like(r.spotifyUserId, [...a, ...b]);
  return r;
}

describe('creating a playlist exactly once', () => {
  it.each(['reset', 502] as const)(
    'a creation applied by Spotify whose answer was lost (%s) is found, not made again',
    async (mode) => {
      const net = losingAnswers({ method: 'POST', path: /\/me\/playlists$/, mode });
      const r = await ph.runner({ process: { fetch: net.fetch } });
      const writer = r.writer();
      const first = await writer.sync(r.userId);
      expect(net.lost()).toBe(1);
      expect(first).toMatchObject({ status: 'done' });
      expect(first.status === 'done' && first.followUpAt).toBeInstanceOf(Date);
      expect((await ph.repo.listTargets(r.userId)).filter((t) => t.state === 'creating')).toHaveLength(1);

      expect(await writer.sync(r.userId)).toMatchObject({ status: 'done', followUpAt: null });
      const names = playlistNames(r);
      expect(new Set(names).size).toBe(names.length);
      expect(posts(r, /\/me\/playlists$/)).toBe(names.length);
      for (const t of await ph.repo.listTargets(r.userId))
        if (t.state !== 'pending') expect(t).toMatchObject({ state: 'active', createAttempts: 1 });
      expectEachSongOnce(r);
    },
  );

  it('a creation that failed before Spotify applied it is made again, once', async () => {
    const r = await ph.runner();
    ph.h.sandbox.admin.setFaults([
      {
        kind: 'status',
        status: 500,
        service: 'spotify-api',
        method: 'POST',
        path: '/me/playlists',
        times: 1,
      },
    ]);
    try {
      await r.writer().sync(r.userId);
      expect(ph.h.sandbox.admin.faults()[0]!.fired).toBe(1);
    } finally {
      ph.h.sandbox.admin.setFaults([]);
    }
    await r.writer().sync(r.userId);
    const names = playlistNames(r);
    expect(new Set(names).size).toBe(names.length);
    const attempts = (await ph.repo.listTargets(r.userId)).map((t) => t.createAttempts).sort();
    expect(attempts.filter((n) => n === 2)).toHaveLength(1);
    // Every creation that reached Spotify's handler made one of these (the refused one is not logged as the user's).
    expect(posts(r, /\/me\/playlists$/)).toBe(names.length);
  });

  it('two writers at once: one runs, the other finds the user busy', async () => {
    const r = await ph.runner();
    const other = ph.h.process(); // another process: its own pool and Spotify client
    const results = await Promise.all([
      r.writer().sync(r.userId),
      r
        .writer({ repo: createPlaylistsRepository(db2.db), api: other.api, accounts: other.accounts })
        .sync(r.userId),
    ]);
    expect(results.map((x) => x.status).sort()).toEqual(['busy', 'done']);
    const names = playlistNames(r);
    expect(names.length).toBeGreaterThan(0);
    expect(new Set(names).size).toBe(names.length);
    expectEachSongOnce(r);
  });

  it('a writer whose lease ran out mid-creation stops; the next waits for that creation and finds it', async () => {
    const r = await ph.runner();
    ph.h.sandbox.admin.setFaults([
      {
        kind: 'slow',
        delayMs: 2_000,
        service: 'spotify-api',
        method: 'POST',
        path: '/me/playlists',
        times: 1,
      },
    ]);
    try {
      // A stalled process: its lease not renewed between writes either.
      const slow = r.writer({ settings: { leaseMs: 100, leaseRenewMs: 60_000 } }).sync(r.userId);
      // Its creation in flight (a busy machine may take longer than a fixed pause to get there), then its
      // lease over.
      await expect
        .poll(async () => (await ph.repo.listTargets(r.userId)).some((t) => t.state === 'creating'), {
          timeout: 20_000,
          interval: 20,
        })
        .toBe(true);
      await new Promise((res) => setTimeout(res, 200));
      const next = await r.writer({ settings: { settleMs: 5_000 } }).sync(r.userId);
      expect(next.status === 'done' && next.followUpAt).toBeInstanceOf(Date); // it waits for that one
      expect(await slow).toEqual({ status: 'stopped' });
    } finally {
      ph.h.sandbox.admin.setFaults([]);
    }
    await r.writer().sync(r.userId);
    const names = playlistNames(r);
    expect(new Set(names).size).toBe(names.length);
    expect(posts(r, /\/me\/playlists$/)).toBe(names.length);
    expect((await ph.repo.listTargets(r.userId)).filter((t) => t.state === 'creating')).toEqual([]);
    expectEachSongOnce(r);
  });
});

describe('the writer lease', () => {
  it('a live run keeps its lease while a write takes longer than the lease; a dead one loses it', async () => {
    const r = await runnerWithTwoTargets();
    ph.h.sandbox.admin.setFaults([
      { kind: 'slow', delayMs: 1_500, service: 'spotify-api', method: 'POST', path: '/items', times: 1 },
    ]);
    try {
      const settings = { leaseMs: 300, leaseRenewMs: 100, firstFillWaitMs: 0 };
      const live = r.writer({ settings }).sync(r.userId);
      // Its add in flight (its songs recorded as pending before the call), then well past its lease.
      await expect
        .poll(
          async () => {
            const targets = await ph.repo.listTargets(r.userId);
            const pending = await Promise.all(targets.map((t) => ph.repo.tracksOf(t.id, ['pending'])));
            return pending.flat().length;
          },
          { timeout: 20_000, interval: 20 },
        )
        .toBeGreaterThan(0);
      await new Promise((res) => setTimeout(res, 600));
      expect(await r.writer({ settings }).sync(r.userId)).toEqual({ status: 'busy' });
      expect((await live).status).toBe('done');
    } finally {
      ph.h.sandbox.admin.setFaults([]);
    }
    // A holder that died (no run renews it) is gone after the lease: the next run goes on.
    expect(await ph.repo.acquireLease(r.userId, 'a-dead-process', 300)).toBe(true);
    expect((await r.writer().sync(r.userId)).status).toBe('busy');
    await new Promise((res) => setTimeout(res, 400));
    expect((await r.writer().sync(r.userId)).status).toBe('done');
    expectEachSongOnce(r);
  });
});

describe('adding exactly once', () => {
  it.each(['reset', 502] as const)(
    'an add applied by Spotify whose answer was lost (%s) is read back, not repeated',
    async (mode) => {
      const net = losingAnswers({ method: 'POST', path: /\/playlists\/\w+\/items$/, mode });
      const r = await runnerWithTwoTargets({ process: { fetch: net.fetch } });
      const writer = r.writer();
      const first = await writer.sync(r.userId);
      expect(net.lost()).toBe(1);
      expect(first.status === 'done' && first.followUpAt).toBeInstanceOf(Date);
      const pending = await Promise.all(
        (await ph.repo.listTargets(r.userId)).map((t) => ph.repo.tracksOf(t.id, ['pending'])),
      );
      expect(pending.flat().length).toBeGreaterThan(0); // recorded before the call, unsettled

      await writer.sync(r.userId);
      expectEachSongOnce(r);
      const lists = r.playlists();
      expect(posts(r, /\/items$/)).toBe(lists.size); // the lost one was not sent again
      expect(lists.get('Pacebeat 150–160 BPM')!.length).toBeGreaterThanOrEqual(12);
      expect(lists.get('Pacebeat 180–190 BPM')!.length).toBeGreaterThanOrEqual(12);
    },
  );

  it('an add Spotify applies after the client gave up is waited for, then found', async () => {
    const net = lateAnswers({ method: 'POST', path: /\/playlists\/\w+\/items$/, applyAfterMs: 2_000 });
    const r = await runnerWithTwoTargets({ process: { fetch: net.fetch } });
    const writer = r.writer({ settings: { settleMs: 3_000 } });
    await writer.sync(r.userId);
    expect(net.late()).toBe(1);
    const sent = posts(r, /\/items$/);
    const second = await writer.sync(r.userId); // too early to tell: it must not add again yet
    expect(second.status === 'done' && second.followUpAt).toBeInstanceOf(Date);
    expect(posts(r, /\/items$/)).toBe(sent);
    await new Promise((res) => setTimeout(res, 3_100));
    // The test's premise is that Spotify applied it within the settle time: on a slow machine the late
    // request itself may land later, so wait for it (a condition, not more seconds).
    await vi.waitFor(() => expect(net.applied()).toBe(1), { timeout: 30_000, interval: 50 });
    await writer.sync(r.userId);
    expect(posts(r, /\/items$/)).toBe(r.playlists().size);
    expectEachSongOnce(r);
  });

  it('an add that failed before Spotify applied it is made again once; one the user followed by an edit is read whole', async () => {
    const r = await runnerWithTwoTargets();
    ph.h.sandbox.admin.setFaults([
      { kind: 'status', status: 503, service: 'spotify-api', method: 'POST', path: '/items', times: 1 },
    ]);
    try {
      await r.writer().sync(r.userId);
      expect(ph.h.sandbox.admin.faults()[0]!.fired).toBe(1);
    } finally {
      ph.h.sandbox.admin.setFaults([]);
    }
    const refused = (await ph.repo.listTargets(r.userId)).find((t) => t.snapshotId && t.state === 'active');
    expect(refused).toBeTruthy();
    await r.writer().sync(r.userId); // snapshot unchanged: it did not land, so it is sent again
    expect(posts(r, /\/items$/)).toBe(r.playlists().size);
    expectEachSongOnce(r);

    // Applied, answer lost, and the user adds a song of their own before Pacebeat looks: read whole.
    const net = losingAnswers({ method: 'POST', path: /\/playlists\/\w+\/items$/, mode: 'reset' });
    const r2 = await runnerWithTwoTargets({ process: { fetch: net.fetch } });
    await r2.writer().sync(r2.userId);
    const t = (await ph.repo.listTargets(r2.userId)).find((x) => x.state === 'active' && x.snapshotId)!;
    const own = catalogTracksIn(ph, 100, 101, 1);
    for (const target of await ph.repo.listTargets(r2.userId))
      if (target.playlistId) ph.h.sandbox.admin.addToPlaylist(target.playlistId, own, r2.spotifyUserId);
    await r2.writer().sync(r2.userId);
    expectEachSongOnce(r2);
    expect(posts(r2, /\/items$/)).toBe(r2.playlists().size);
    expect(t).toBeTruthy();
  });
});

describe('Spotify asks to wait in the middle of a write', () => {
  const services = (jobs: ReturnType<typeof createPlaylistSyncJobs>) =>
    ({ playlistSync: jobs }) as unknown as JobServices;
  const fakeBoss = () => {
    const sent: { name: string; data: unknown; options: Record<string, unknown> }[] = [];
    return {
      sent,
      send: (async (name: string, data: object, options: Record<string, unknown> = {}) => {
        sent.push({ name, data, options });
        return 'job-2';
      }) as never,
    };
  };

  it('a 429 releases the batch it refused, and the job runs again when the limit allows, for that user only', async () => {
    const r = await runnerWithTwoTargets();
    ph.h.sandbox.admin.setFaults([
      {
        kind: 'status',
        status: 429,
        retryAfterSeconds: 1,
        service: 'spotify-api',
        method: 'POST',
        path: '/items',
        times: 1,
      },
    ]);
    const boss = fakeBoss();
    const jobs = createPlaylistSyncJobs({
      writer: r.writer(),
      queue: { send: async () => null, wake: async () => undefined, sooner: async () => undefined },
    });
    try {
      const def = jobRegistry['playlist-sync'] as unknown as JobDefinition<never>;
      const outcome = await runJob(boss, 'playlist-sync', def, services(jobs), { userId: r.userId });
      expect(outcome).toMatchObject({ status: 'skipped', detail: { reason: 'rate' } });
    } finally {
      ph.h.sandbox.admin.setFaults([]);
    }
    expect(boss.sent).toHaveLength(1);
    expect(boss.sent[0]).toMatchObject({
      name: 'playlist-sync',
      data: { userId: r.userId },
      options: { singletonKey: r.userId },
    });
    const retryAt = boss.sent[0]!.options['startAfter'] as Date;
    expect(retryAt.getTime()).toBeGreaterThan(Date.now() - 100);
    const pending = await Promise.all(
      (await ph.repo.listTargets(r.userId)).map((t) => ph.repo.tracksOf(t.id, ['pending'])),
    );
    expect(pending.flat()).toEqual([]); // refused: nothing left to verify
    await new Promise((res) => setTimeout(res, Math.max(0, retryAt.getTime() - Date.now()) + 50));
    // The run the job queued (another budget key: this one has learned a tight rate from the 429).
    const later = ph.h.process();
    expect(await r.writer({ api: later.api, accounts: later.accounts }).sync(r.userId)).toMatchObject({
      status: 'done',
    });
    expectEachSongOnce(r);
    expect(r.playlists().get('Pacebeat 180–190 BPM')!.length).toBeGreaterThanOrEqual(12);
  });

  it('the daily quota stops the run; it resumes where it stopped, with nothing added twice', async () => {
    const r = await runnerWithTwoTargets();
    ph.h.sandbox.admin.setConfig({
      dailyQuota: { windowSeconds: 86_400, maxRequests: 4, minRetryAfterSeconds: 13 * 3600 },
    });
    let err: unknown;
    try {
      await r.writer().sync(r.userId);
    } catch (e) {
      err = e;
    } finally {
      ph.h.sandbox.admin.setConfig({ dailyQuota: false });
    }
    expect(err).toBeInstanceOf(SpotifyDeferredError);
    expect((err as SpotifyDeferredError).reason).toBe('quota');
    expect((err as SpotifyDeferredError).retryAt.getTime()).toBeGreaterThan(Date.now() + 12 * 3600_000);
    const before = r.playlists();
    // The next day (another budget: its cooldown is over): the same run picks up where it stopped.
    const tomorrow = ph.h.process();
    expect(await r.writer({ api: tomorrow.api, accounts: tomorrow.accounts }).sync(r.userId)).toMatchObject({
      status: 'done',
    });
    const after = r.playlists();
    for (const [name, ids] of before) expect(after.get(name)!.slice(0, ids.length)).toEqual(ids);
    expectEachSongOnce(r);
    expect(after.get('Pacebeat 150–160 BPM')!.length).toBeGreaterThanOrEqual(12);
    expect(after.get('Pacebeat 180–190 BPM')!.length).toBeGreaterThanOrEqual(12);
  });
});
