import type { PgBoss } from 'pg-boss';
import { TEMPO_PRIORITY } from './tempo.jobs.ts';

/** The tempo queues whose jobs a second look may be waiting in. */
const QUEUES = ['tempo-lookup', 'tempo-audio'] as const;

/**
 * A runner's wanted tempos changed (a pace added or its range edited, a run saved): their own tracks
 * waiting for a second look (queued level with the catalogs, `secondLookPriority`, since no playlist took
 * their first answer) go back to the own-library priority, so a pace at a new tempo fills from the songs
 * they chose without waiting behind every catalog queued before them (paces.spec's 60-220 pace had 11-20
 * songs after 180 s in CI). Each waiting job is edited in place (pg-boss `update`, which leaves a job a
 * worker took meanwhile alone), its payload's priority too, so that its re-queues keep it. Returns the
 * number of jobs moved.
 */
export async function promoteSecondLooks(
  boss: Pick<PgBoss, 'findJobs' | 'update'>,
  userId: string,
): Promise<number> {
  let moved = 0;
  for (const name of QUEUES) {
    const waiting = await boss.findJobs<{ priority?: number }>(name, {
      data: { userId, secondLook: true },
      queued: true,
    });
    // A catalog's second look (below the catalogs) stays where it is: only the runner's own songs move.
    for (const job of waiting) {
      if ((job.data.priority ?? TEMPO_PRIORITY.catalog) !== TEMPO_PRIORITY.catalog) continue;
      const priority = TEMPO_PRIORITY.ownLibrary;
      const { updated } = await boss.update(name, { ...job.data, priority }, { id: job.id, priority });
      moved += updated;
    }
  }
  return moved;
}
