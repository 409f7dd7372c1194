// The tempo-lookup job through a real pg-boss (its own schema) on the test PostgreSQL.
import { randomUUID } from 'node:crypto';
import { PgBoss } from 'pg-boss';
import pino from 'pino';
import { afterAll, expect, inject, it, onTestFinished } from 'vitest';
import { createJobQueue, setupQueues, startWorkers } from '../app/job-registry.ts';
import type { HousekeepingService } from '../jobs/housekeeping.service.ts';
import { promoteSecondLooks } from './second-look-promotion.ts';
import { createTempoLookups, TEMPO_PRIORITY } from './tempo.jobs.ts';
import { startTempoHarness, type TempoHarness } from './tempo.test-helper.ts';
import { tempoKey } from './tempo.service.ts';

let h: TempoHarness | undefined;
const boss = new PgBoss({
  connectionString: inject('databaseUrl'),
  schema: `pgboss_tempo_${randomUUID().slice(0, 8)}`,
});
afterAll(async () => {
  await boss.stop({ graceful: false, close: true });
  await h?.close();
});

it('resolves a queued batch in a job and caches every answer', async () => {
  h = await startTempoHarness({ seed: 9100 }, { module: { estimatePreview: undefined } });
  await boss.start();
  await setupQueues(boss);
  const lookups = createTempoLookups({ tempo: h.module.service, queue: createJobQueue(boss) });
  const housekeeping = { run: async () => ({}) } as unknown as HousekeepingService;
  const library = {
    runUnit: async () => ({ status: 'skipped' as const }),
    requestDueRescans: async () => ({ rescans: 0, created: 0 }),
  };
  const playlistSync = { run: async () => ({ status: 'busy' as const }) };
  await startWorkers(
    boss,
    { housekeeping, tempoLookups: lookups, library, playlistSync },
    pino({ level: 'silent' }),
  );

  const { tracks } = h.liked('ana.runs', 5);
  expect(await lookups.enqueue(tracks)).toBe(1);
  const keys = tracks.map(tempoKey);
  let rows = new Map();
  for (let i = 0; i < 100 && rows.size < keys.length; i++) {
    await new Promise((r) => setTimeout(r, 200));
    rows = await h.module.repo.getByKeys(keys);
  }
  expect(rows.size).toBe(keys.length);
});

/** A pg-boss of its own without workers: the order jobs are fetched in is what a worker would run. */
async function queueOnly() {
  const boss = new PgBoss({
    connectionString: inject('databaseUrl'),
    schema: `pgboss_tempo_${randomUUID().slice(0, 8)}`,
  });
  onTestFinished(() => boss.stop({ graceful: false, close: true }));
  await boss.start();
  await setupQueues(boss);
  return { boss, queue: createJobQueue(boss) };
}

it('looks up a runner’s own tracks before catalog tracks queued earlier, and a re-queue keeps its priority', async () => {
  const { boss, queue } = await queueOnly();
  const lookups = createTempoLookups({
    tempo: {
      // Everything deferred: the job sends its tracks again for later.
      resolveTempos: async (ts) =>
        new Map(
          ts.map((t) => [
            t.spotifyId,
            { status: 'deferred', bpm: null, source: null, confidence: 0, alternatives: [], cached: false },
          ]),
        ),
    },
    queue,
  });
  const track = (id: string) => ({ spotifyId: id, artists: ['A'], title: id, durationMs: 200_000 });
  const user = randomUUID();
  await lookups.enqueue([track('catalog1')], { userId: user, priority: TEMPO_PRIORITY.catalog });
  await lookups.enqueue([track('liked1')], { userId: user, priority: TEMPO_PRIORITY.ownLibrary });
  const [first] = await boss.fetch<{ tracks: { spotifyId: string }[]; priority?: number }>('tempo-lookup');
  expect(first?.data.tracks[0]?.spotifyId).toBe('liked1');

  await lookups.run(first!.data.tracks as ReturnType<typeof track>[], {
    userId: user,
    priority: TEMPO_PRIORITY.ownLibrary,
  });
  // One at a time: the jobs of one fetch come back in no particular order.
  const [again] = await boss.fetch<{ tracks: { spotifyId: string }[] }>('tempo-lookup');
  const [catalog] = await boss.fetch<{ tracks: { spotifyId: string }[] }>('tempo-lookup');
  // The deferred re-queue is newer than the catalog job and still goes first.
  expect(again?.data.tracks[0]?.spotifyId).toBe('liked1');
  expect(catalog?.data.tracks[0]?.spotifyId).toBe('catalog1');
});

it('moves a runner’s own second looks up to their own library’s priority when their paces change, and nothing else', async () => {
  const { boss, queue } = await queueOnly();
  const track = (id: string) => ({ spotifyId: id, artists: ['A'], title: id, durationMs: 200_000 });
  const [user, other] = [randomUUID(), randomUUID()];
  const second = (id: string, userId: string, priority: number) => ({
    tracks: [track(id)],
    userId,
    priority,
    secondLook: true as const,
    known: { [id]: { answers: [{ bpm: 100, source: 'reccobeats', confidence: 0.85 }] } },
  });
  // Queued in this order; a catalog lookup of the runner's queued before their own second look.
  await queue.send('tempo-lookup', { tracks: [track('catalog1')], userId: user });
  await queue.send('tempo-lookup', second('own1', user, TEMPO_PRIORITY.catalog));
  await queue.send('tempo-lookup', second('theirCatalog1', user, TEMPO_PRIORITY.secondLook));
  await queue.send('tempo-lookup', second('others1', other, TEMPO_PRIORITY.catalog));
  const check = {
    track: track('own2'),
    answers: [],
    notes: [],
    transient: false,
    heldMs: 0,
    clock: { ms: {}, n: {} },
  };
  await queue.send('tempo-audio', { checks: [check], userId: user, priority: 0, secondLook: true });

  expect(await promoteSecondLooks(boss, user)).toBe(2);
  type Data = { tracks: { spotifyId: string }[]; priority?: number };
  const [first] = await boss.fetch<Data>('tempo-lookup');
  expect(first?.data.tracks[0]?.spotifyId).toBe('own1');
  // The payload says it too, so that a re-queue of the job keeps it.
  expect(first?.data.priority).toBe(TEMPO_PRIORITY.ownLibrary);
  const rest: string[] = [];
  for (let i = 0; i < 3; i++) {
    const [job] = await boss.fetch<Data>('tempo-lookup');
    rest.push(job!.data.tracks[0]!.spotifyId);
  }
  expect(rest).toEqual(['catalog1', 'others1', 'theirCatalog1']);
  const audio = await boss.findJobs<{ priority?: number }>('tempo-audio', { data: { userId: user } });
  expect(audio.map((j) => [j.priority, j.data.priority])).toEqual([
    [TEMPO_PRIORITY.ownLibrary, TEMPO_PRIORITY.ownLibrary],
  ]);
  // Nothing left to move.
  expect(await promoteSecondLooks(boss, user)).toBe(0);
});
