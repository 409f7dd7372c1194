// The playlist-sync job through a real pg-boss (its own schema) on the test PostgreSQL and the sandbox.
import { randomUUID } from 'node:crypto';
import { PgBoss } from 'pg-boss';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import type { HousekeepingService } from '../jobs/housekeeping.service.ts';
import { createJobQueue, jobRegistry, setupQueues, startWorkers } from '../app/job-registry.ts';
import { cancelUserJobs } from '../spotify/user-jobs.ts';
import type { TempoLookups } from '../tempo/tempo.jobs.ts';
import { createPlaylistSyncJobs, RUNNER_WAITING_JOB_PRIORITY, TRIGGER_DELAY_MS } from './playlists.jobs.ts';
import { startPlaylistHarness, type PlaylistHarness } from '../../test/playlists-harness.ts';

let ph: PlaylistHarness;
const boss = new PgBoss({
  connectionString: inject('databaseUrl'),
  schema: `pgboss_playlists_${randomUUID().slice(0, 8)}`,
});
boss.on('error', () => undefined);
beforeAll(async () => {
  ph = await startPlaylistHarness();
  await boss.start();
  await setupQueues(boss);
}, 120_000);
afterAll(async () => {
  await boss.stop({ graceful: false, close: true });
  await ph.close();
});

const syncJobs = (userId: string) => boss.findJobs('playlist-sync', { data: { userId } });

describe('playlist-sync through pg-boss', () => {
  it('keeps one queued run per user however often it is asked, keyed by the user', async () => {
    const queue = createJobQueue(boss);
    const jobs = createPlaylistSyncJobs({ writer: { sync: async () => ({ status: 'busy' }) }, queue });
    const [a, b] = [randomUUID(), randomUUID()];
    for (let i = 0; i < 5; i++) await jobs.trigger(a);
    await jobs.trigger(b);
    const queued = (await syncJobs(a)).filter((j) => j.state === 'created');
    expect(queued).toHaveLength(1);
    expect(queued[0]!.singletonKey).toBe(a);
    expect((await syncJobs(b)).filter((j) => j.state === 'created')).toHaveLength(1);
    // Disconnect cancels the user's queued run (every queue of the registry), no one else's.
    expect(await cancelUserJobs(boss, Object.keys(jobRegistry), a)).toBe(1);
    expect((await syncJobs(a)).map((j) => j.state)).toEqual(['cancelled']);
    expect((await syncJobs(b)).map((j) => j.state)).toEqual(['created']);
    await cancelUserJobs(boss, Object.keys(jobRegistry), b);
  });

  it('a runner’s edit moves their queued background run ahead of the newcomers’ first fills', async () => {
    // A follow-up of a runner with their first 50 placed waits at the usual priority, then newcomers' first
    // fills are queued at the waiting priority; the runner adds a pace and watches for its playlist.
    const queue = createJobQueue(boss);
    const [runner, newcomer] = [randomUUID(), randomUUID()];
    const jobsOf = (first: boolean) =>
      createPlaylistSyncJobs({
        writer: { sync: async () => ({ status: 'busy' }) },
        queue,
        firstSongs: async () => first,
        now: () => Date.now() - TRIGGER_DELAY_MS,
      });
    await jobsOf(false).trigger(runner);
    await jobsOf(true).trigger(newcomer);
    await jobsOf(false).triggerWatched(runner);
    const queued = (await syncJobs(runner)).filter((j) => j.state === 'created');
    expect(queued).toHaveLength(1);
    expect(queued[0]!.priority).toBe(RUNNER_WAITING_JOB_PRIORITY);
    // Same priority: the older ask first, the runner's queued run.
    const [next] = await boss.fetch('playlist-sync');
    expect((next!.data as { userId: string }).userId).toBe(runner);
    await cancelUserJobs(boss, Object.keys(jobRegistry), runner);
    await cancelUserJobs(boss, Object.keys(jobRegistry), newcomer);
  });

  it('moves a user’s queued run sooner, never later, and up to an ask’s priority', async () => {
    const queue = createJobQueue(boss);
    const u = randomUUID();
    const at = (ms: number) => new Date(Date.now() + ms);
    const queued = async () => (await syncJobs(u)).filter((j) => j.state === 'created');
    const follow = at(100_000);
    await queue.sooner('playlist-sync', { userId: u }, follow);
    await queue.sooner('playlist-sync', { userId: u }, at(200_000));
    expect((await queued()).map((j) => j.startAfter.getTime())).toEqual([follow.getTime()]);
    const soon = at(3_000);
    await queue.sooner('playlist-sync', { userId: u }, soon);
    expect((await queued()).map((j) => j.startAfter.getTime())).toEqual([soon.getTime()]);
    await queue.sooner('playlist-sync', { userId: u, priority: RUNNER_WAITING_JOB_PRIORITY }, at(60_000));
    const [job, ...more] = await queued();
    expect(more).toEqual([]);
    expect(job!.startAfter.getTime()).toBe(soon.getTime());
    expect(job!.priority).toBe(RUNNER_WAITING_JOB_PRIORITY);
    expect(job!.data).toEqual({ userId: u, priority: RUNNER_WAITING_JOB_PRIORITY });
    await cancelUserJobs(boss, Object.keys(jobRegistry), u);
  });

  it('a triggered run writes the user’s playlists', async () => {
    const r = await ph.runner();
    const jobs = createPlaylistSyncJobs({ writer: r.writer(), queue: createJobQueue(boss) });
    const housekeeping = { run: async () => ({}) } as unknown as HousekeepingService;
    const tempoLookups = { run: async () => ({}) } as unknown as TempoLookups;
    const library = {
      runUnit: async () => ({ status: 'skipped' as const }),
      requestDueRescans: async () => ({ rescans: 0, created: 0 }),
    };
    await startWorkers(
      boss,
      { housekeeping, tempoLookups, library, playlistSync: jobs },
      pino({ level: 'silent' }),
    );
    await jobs.trigger(r.userId);
    for (let i = 0; i < 100 && (await syncJobs(r.userId))[0]?.state !== 'completed'; i++)
      await new Promise((res) => setTimeout(res, 100));
    const [job] = await syncJobs(r.userId);
    expect(job?.state).toBe('completed');
    expect(job?.output).toMatchObject({ status: 'success', detail: { status: 'done' } });
    expect(r.playlists().size).toBeGreaterThan(0);
  });
});
