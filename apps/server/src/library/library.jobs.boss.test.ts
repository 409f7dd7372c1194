// The library-scan job through a real pg-boss (its own schema) on the test PostgreSQL: a connect starts
// a scan that runs to the end by itself, one unit queued per user at a time, and a disconnect cancels it.
import { randomUUID } from 'node:crypto';
import { PgBoss } from 'pg-boss';
import pino from 'pino';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import type { HousekeepingService } from '../jobs/housekeeping.service.ts';
import { createJobQueue, jobRegistry, setupQueues, startWorkers } from '../app/job-registry.ts';
import { cancelUserJobs } from '../spotify/user-jobs.ts';
import { libraryScanQueue } from './scan.jobs.ts';
import { startLibraryHarness, type LibraryHarness, type LibraryProcess } from '../../test/library-harness.ts';

let h: LibraryHarness;
let p: LibraryProcess;
const boss = new PgBoss({
  connectionString: inject('databaseUrl'),
  schema: `pgboss_library_${randomUUID().slice(0, 8)}`,
});

beforeAll(async () => {
  h = await startLibraryHarness({ seed: 10_707 });
  await boss.start();
  await setupQueues(boss);
  p = h.libraryProcess({
    // Longer units than the product's 5 calls: pg-boss polls every 2 s, and this test waits for the end.
    settings: { callsPerUnit: 40 },
    jobs: createJobQueue(boss),
    cancelJobs: async (userId) => void (await cancelUserJobs(boss, Object.keys(jobRegistry), userId)),
  });
  const housekeeping = { run: async () => ({}) } as unknown as HousekeepingService;
  const none = { found: 0, unknown: 0, deferred: 0, timings: { tracks: 0, totalMs: 0, ms: {}, n: {} } };
  const tempoLookups = {
    run: async () => ({ ...none, toAudio: 0 }),
    runChecks: async () => none,
  };
  await startWorkers(
    boss,
    {
      housekeeping,
      tempoLookups,
      library: { runUnit: p.library.scans.runUnit, requestDueRescans: p.library.service.requestDueRescans },
      playlistSync: { run: async () => ({ status: 'busy' as const }) },
    },
    pino({ level: 'silent' }),
  );
});
afterAll(async () => {
  await boss.stop({ graceful: false, close: true });
  await h.close();
});

const liveJobs = async (userId: string) =>
  (await boss.findJobs('library-scan', { data: { userId } })).filter((j) =>
    ['created', 'retry', 'active'].includes(j.state),
  );

async function until(check: () => Promise<boolean>, ms = 80_000) {
  for (const end = Date.now() + ms; Date.now() < end;) {
    if (await check()) return;
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error('timed out');
}

it('a connect starts the scan, which runs unit after unit to the end by itself', async () => {
  const u = h.spotifyUser({ liked: 120, favouriteArtists: 2 });
  const userId = await h.connect(p, u.id);
  await until(async () => {
    const liked = (await p.library.service.sources(userId, { timeZone: null })).sources[0]!;
    return liked.stats.known_tracks === 120 && liked.progress.state === 'idle';
  });
  await until(async () => (await liveJobs(userId)).length === 0);
}, 120_000);

it('keeps at most one queued unit per user, and a disconnect cancels it', async () => {
  const u = h.spotifyUser({ liked: 400, favouriteArtists: 3 });
  h.sandbox.admin.setConfig({
    faults: [{ kind: 'slow', delayMs: 300, service: 'spotify-api', path: '/me/tracks' }],
  });
  try {
    const userId = await h.connect(p, u.id);
    const q = libraryScanQueue(createJobQueue(boss));
    await q.wake(userId);
    await q.wake(userId);
    await q.later(userId, new Date(Date.now() + 3600_000));
    const queued = (await liveJobs(userId)).filter((j) => j.state !== 'active');
    expect(queued.length).toBeLessThanOrEqual(1);
    await until(async () => (await liveJobs(userId)).some((j) => j.state === 'active'));
    await p.spotify.connect.disconnect(userId);
    await until(async () => (await liveJobs(userId)).length === 0);
    expect((await p.library.service.sources(userId, { timeZone: null })).sources).toEqual([]);
  } finally {
    h.sandbox.admin.setConfig({ faults: [] });
  }
});
