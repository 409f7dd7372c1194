import type { PgBoss } from 'pg-boss';

/** Job states that still may run. */
const LIVE = new Set(['created', 'retry', 'active']);

/**
 * Cancels every queued, retrying or running job of a user in the given queues. Per-user jobs carry
 * `userId` in their payload (the convention of the job registry), which is what this matches on.
 */
export async function cancelUserJobs(
  boss: Pick<PgBoss, 'findJobs' | 'cancel'>,
  queues: string[],
  userId: string,
) {
  let cancelled = 0;
  for (const name of queues) {
    const jobs = await boss.findJobs(name, { data: { userId } });
    const ids = jobs.filter((j) => LIVE.has(j.state)).map((j) => j.id);
    if (ids.length > 0) {
      await boss.cancel(name, ids);
      cancelled += ids.length;
    }
  }
  return cancelled;
}
