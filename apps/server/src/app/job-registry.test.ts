// How the job registry's workers fetch (no database: a stand-in for pg-boss records the work options).
import type { PgBoss } from 'pg-boss';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { BURST_POLLING, jobRegistry, startWorkers, type JobServices } from './job-registry.ts';

describe('the job workers', () => {
  it('of the writer fetch again at once while runs are ready; the paced tempo jobs poll as before', async () => {
    const work = new Map<string, Record<string, unknown>>();
    const boss = {
      work: async (name: string, options: Record<string, unknown>) => {
        work.set(name, options);
        return 'worker-id';
      },
    } as unknown as PgBoss;
    await startWorkers(boss, {} as JobServices, pino({ level: 'silent' }), undefined, { 'playlist-sync': 3 });
    expect([...work.keys()].sort()).toEqual(Object.keys(jobRegistry).sort());
    expect(work.get('playlist-sync')).toMatchObject({ batchSize: 1, localConcurrency: 3, ...BURST_POLLING });
    // pg-boss allows no burst below 1 ready job: a lone run waits for the next poll, as before.
    expect(BURST_POLLING.burstWhenReadyExceeds).toBeGreaterThanOrEqual(1);
    for (const name of ['tempo-lookup', 'tempo-audio'])
      expect(work.get(name)).not.toHaveProperty('burstWhenReadyExceeds');
  });
});
