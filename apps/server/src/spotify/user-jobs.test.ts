import { randomUUID } from 'node:crypto';
import { PgBoss } from 'pg-boss';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { cancelUserJobs } from './user-jobs.ts';

describe('cancelUserJobs', () => {
  let boss: PgBoss;
  beforeAll(async () => {
    boss = new PgBoss({
      connectionString: inject('databaseUrl'),
      schema: 'pgboss_spotify_test',
      supervise: false,
      schedule: false,
    });
    boss.on('error', () => undefined);
    await boss.start();
  });
  afterAll(() => boss.stop({ graceful: false, close: true }));

  it('cancels the queued jobs of one user in every given queue, and no one else’s', async () => {
    const [q1, q2] = [`scan-${randomUUID()}`, `sync-${randomUUID()}`];
    await boss.createQueue(q1);
    await boss.createQueue(q2);
    const [alice, bob] = [randomUUID(), randomUUID()];
    const a1 = await boss.send(q1, { userId: alice, source: 'liked' });
    const a2 = await boss.send(q2, { userId: alice });
    const b1 = await boss.send(q1, { userId: bob });
    expect(await cancelUserJobs(boss, [q1, q2], alice)).toBe(2);
    const state = async (q: string, id: string | null) => (await boss.findJobs(q, { id: id! }))[0]?.state;
    expect(await state(q1, a1)).toBe('cancelled');
    expect(await state(q2, a2)).toBe('cancelled');
    expect(await state(q1, b1)).toBe('created');
    expect(await cancelUserJobs(boss, [q1, q2], alice)).toBe(0);
  });
});
