// The playlist-sync job: one writer run for a user. Asked for when tempos arrive (tempo-lookup jobs),
// when the library scanner adds tracks, and on connect; pg-boss keeps at most one queued and one running
// per user (queue policy `stately`, singletonKey = userId), so a burst of asks makes one run. A runner's
// runs before their first 50 songs go before the others' (FIRST_SONGS_JOB_PRIORITY).
import { z } from 'zod';
import type { PlaylistWriter, SyncResult } from './writer.ts';

export const PlaylistSyncPayload = z
  .object({ userId: z.uuid(), priority: z.number().int().min(0).max(9).optional() })
  .strict();
/**
 * The run's pg-boss priority while the runner has fewer than their first 50 songs placed (kept in the
 * payload, so a run Spotify deferred keeps it): pg-boss fetches by priority, then age, and each worker
 * fetches every 2 s, so a new runner's first fill waited behind the runs of every runner whose playlists
 * were growing (at 1,000 runners, 213 runs queued 10 minutes into the storm).
 */
export const FIRST_SONGS_JOB_PRIORITY = 1;

/** How soon a run starts after it is asked for: asks in this window make one run. */
export const TRIGGER_DELAY_MS = 3_000;
/** When another writer holds the user's lease, try again this much later. */
export const BUSY_RETRY_MS = 30_000;
/**
 * A run that has something to do later (a write to settle, matches waiting to share an add) comes back
 * at most this much later: the queued run holds the user's one queued slot, and asks made meanwhile
 * (new tempos) are folded into it, so it must not sit far in the future. A run with nothing due costs
 * no Spotify call.
 */
export const FOLLOW_UP_MAX_MS = 5_000;

export interface PlaylistSyncQueue {
  send(
    name: 'playlist-sync',
    payload: z.infer<typeof PlaylistSyncPayload>,
    options?: { startAfter?: Date },
  ): Promise<string | null>;
}

export function createPlaylistSyncJobs(deps: {
  writer: Pick<PlaylistWriter, 'sync'>;
  queue: PlaylistSyncQueue;
  /** Whether the runner has fewer than their first 50 songs placed (their runs go first). */
  firstSongs?: (userId: string) => Promise<boolean>;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const send = async (userId: string, at: number) => {
    const first = (await deps.firstSongs?.(userId)) === true;
    return deps.queue.send(
      'playlist-sync',
      first ? { userId, priority: FIRST_SONGS_JOB_PRIORITY } : { userId },
      { startAfter: new Date(at) },
    );
  };
  return {
    /** Asks for a writer run for the user soon (new tempos, new tracks, a new connection). */
    trigger: (userId: string) => send(userId, now() + TRIGGER_DELAY_MS),

    /**
     * The job: one writer run, and the next one when something is left to settle or another writer is busy
     * (or a shutdown, `stopping`, ended the run early: its follow-up is due at once).
     */
    async run(userId: string, stopping?: AbortSignal): Promise<SyncResult> {
      const r = await deps.writer.sync(userId, stopping);
      if (r.status === 'busy') await send(userId, now() + BUSY_RETRY_MS);
      if (r.status === 'done' && r.followUpAt)
        await send(userId, Math.min(r.followUpAt.getTime(), now() + FOLLOW_UP_MAX_MS));
      return r;
    },
  };
}

export type PlaylistSyncJobs = ReturnType<typeof createPlaylistSyncJobs>;
