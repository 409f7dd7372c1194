// The tempo-lookup job through a real pg-boss (its own schema) on the test PostgreSQL.
import { randomUUID } from 'node:crypto';
import { PgBoss } from 'pg-boss';
import pino from 'pino';
import { afterAll, expect, inject, it } from 'vitest';
import { createJobQueue, setupQueues, startWorkers } from '../jobs/registry.ts';
import type { HousekeepingService } from '../jobs/housekeeping.service.ts';
import { createTempoLookups } from './tempo.jobs.ts';
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
