// How the job registry's workers fetch (no database: a stand-in for pg-boss records the work options).
import type { PgBoss } from 'pg-boss';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { jobRegistry, startWorkers, WORK_POLLING, type JobServices } from './job-registry.ts';

describe('the job workers', () => {
  it('fetch again at once while jobs are ready, for every job, instead of one job per polling interval', async () => {
    const work: Array<{ name: string; options: Record<string, unknown> }> = [];
    const boss = {
      work: async (name: string, options: Record<string, unknown>) => {
        work.push({ name, options });
        return 'worker-id';
      },
    } as unknown as PgBoss;
    await startWorkers(boss, {} as JobServices, pino({ level: 'silent' }), undefined, { 'playlist-sync': 3 });
    expect(work.map((w) => w.name).sort()).toEqual(Object.keys(jobRegistry).sort());
    for (const w of work) {
      expect(w.options).toMatchObject({
        batchSize: 1,
        burstWhenReadyExceeds: WORK_POLLING.burstWhenReadyExceeds,
      });
      // pg-boss allows no burst below 1 ready job: a lone job waits for the next poll, as before.
      expect(w.options['burstWhenReadyExceeds']).toBeGreaterThanOrEqual(1);
    }
    expect(work.find((w) => w.name === 'playlist-sync')!.options['localConcurrency']).toBe(3);
  });
});
