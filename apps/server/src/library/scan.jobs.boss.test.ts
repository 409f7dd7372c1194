// The library-scan queue's order through a real pg-boss (its own schema, no workers): a new library's first
// unit is fetched before the units other libraries queued earlier, also after Spotify deferred it.
import { randomUUID } from 'node:crypto';
import { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { createJobQueue, jobRegistry, runJob, setupQueues, type JobServices } from '../app/job-registry.ts';
import { SpotifyDeferredError } from '../spotify/errors.ts';
import { FIRST_READ_JOB_PRIORITY, libraryScanQueue } from './scan.jobs.ts';

const boss = new PgBoss({
  connectionString: inject('databaseUrl'),
  schema: `pgboss_scanorder_${randomUUID().slice(0, 8)}`,
});
beforeAll(async () => {
  await boss.start();
  await setupQueues(boss);
});
afterAll(() => boss.stop({ graceful: false, close: true }));

const next = async () => {
  const [job] = await boss.fetch<{ userId: string; priority?: number }>('library-scan');
  return job;
};

it('a new library’s first unit goes before the units queued earlier by other libraries', async () => {
  const q = libraryScanQueue(createJobQueue(boss));
  const others = [randomUUID(), randomUUID(), randomUUID()];
  for (const userId of others) await q.wake(userId);
  const newcomer = randomUUID();
  await q.wake(newcomer, { first: true });

  const first = await next();
  expect(first?.data).toEqual({ userId: newcomer, priority: FIRST_READ_JOB_PRIORITY });
  // Spotify asks it to wait (its first pages' share of the window is full): queued again, it keeps its
  // place before the others once its time comes.
  const def = jobRegistry['library-scan'];
  const services = {
    library: {
      runUnit: async () => {
        throw new SpotifyDeferredError('rate', new Date(Date.now() - 1_000));
      },
    },
  } as unknown as JobServices;
  expect(await runJob(boss, 'library-scan', def, services, first!.data)).toMatchObject({
    status: 'skipped',
  });
  await boss.complete('library-scan', first!.id);
  expect((await next())?.data.userId).toBe(newcomer);
  // The others, oldest first.
  const rest = [await next(), await next(), await next()].map((j) => j?.data.userId);
  expect(rest).toEqual(others);
});
