// The `library-scan` job as the library queues it: one unit of a user's scan (scan.service.ts `runUnit`);
// pg-boss keeps at most one queued and one running per user (app/job-registry.ts).
import { z } from 'zod';

/**
 * The `library-scan` job's priority for a library's first unit (its first pages, what the runner's first
 * playlists are made of), kept in the payload so that a deferred unit keeps it when it is queued again.
 * pg-boss fetches by priority, then age: without it a new runner's first unit waited behind one unit of
 * every connected runner's scan, most of them deferred and queued again (a worker fetches every 2 s): in
 * bench:crowd at 100 runners the first Liked Songs page came 1 s after the connect for the first runner
 * and 60 s after it for the 90th.
 */
export const FIRST_READ_JOB_PRIORITY = 1;
export const LibraryScanPayload = z
  .object({ userId: z.uuid(), priority: z.number().int().min(0).max(9).optional() })
  .strict();

/** How scans queue their next unit: now (moving a queued one forward), or at a later time. */
export interface LibraryScanQueue {
  /** `first`: the library's first unit, at FIRST_READ_JOB_PRIORITY. */
  wake(userId: string, o?: { first?: boolean }): Promise<void>;
  later(userId: string, startAfter: Date): Promise<void>;
}

type ScanJob = z.infer<typeof LibraryScanPayload>;
/** The job queue as the library uses it (app/job-registry.ts `createJobQueue`). */
export const libraryScanQueue = (queue: {
  send(name: 'library-scan', payload: ScanJob, options: { startAfter: Date }): Promise<unknown>;
  wake(name: 'library-scan', payload: ScanJob): Promise<void>;
}): LibraryScanQueue => ({
  wake: (userId, o) =>
    queue.wake('library-scan', o?.first ? { userId, priority: FIRST_READ_JOB_PRIORITY } : { userId }),
  later: async (userId, startAfter) => void (await queue.send('library-scan', { userId }, { startAfter })),
});
