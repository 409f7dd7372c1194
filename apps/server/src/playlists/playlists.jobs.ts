// The playlist-sync job: one writer run for a user. Asked for when tempos arrive (tempo-lookup jobs, for
// every runner whose library holds the tracks), when the library scanner adds tracks, and on connect; pg-boss keeps at most one queued and one running
// per user (queue policy `stately`, singletonKey = userId), so a burst of asks makes one run. The runs a
// runner waits for go before the others' (RUNNER_WAITING_JOB_PRIORITY): before their first 50 songs, and
// right after an edit of theirs (a pace added or changed, a song excluded or its tempo fixed).
import { z } from 'zod';
import type { PlaylistWriter, SyncResult } from './writer.ts';

export const PlaylistSyncPayload = z
  .object({ userId: z.uuid(), priority: z.number().int().min(0).max(9).optional() })
  .strict();
/**
 * The pg-boss priority of a run the runner waits for: while they have fewer than their first 50 songs
 * placed, and after an edit of theirs (kept in the payload, so a run Spotify deferred keeps it). pg-boss
 * fetches by priority, then age, and each worker fetches every 2 s, so a new runner's first fill waited
 * behind the runs of every runner whose playlists were growing (at 1,000 runners, 213 runs queued 10
 * minutes into the storm); and once first fills went ahead, a runner's new pace waited behind every
 * newcomer's first fill (100 s in the browser tests, where every runner is new).
 */
export const RUNNER_WAITING_JOB_PRIORITY = 1;

/** How soon a run starts after it is asked for: asks in this window make one run. */
export const TRIGGER_DELAY_MS = 3_000;
/**
 * A runner whose library holds tempos another runner's lookup found (a shared track is looked up once, by
 * whoever queued it first) is asked for a run at most this often: before their first 50 songs, every few
 * seconds, as their own lookups ask (bench:crowd: a runner 39 songs short waited 8 minutes with 85 fitting
 * tempos known, all found by others' lookups); after, once a minute, as their adds wait for company anyway.
 */
export const SHARED_TEMPOS_EVERY_MS = { firstSongs: 5_000, steady: 60_000 };
/** The most runners told of one lookup job's tempos (a popular artist's catalog is in many libraries). */
export const SHARED_TEMPOS_HOLDERS_MAX = 1_000;

/** When another writer holds the user's lease, try again this much later. */
export const BUSY_RETRY_MS = 30_000;
/**
 * A run that has something to do later (a write to settle, matches waiting to share an add) queues its next
 * run for then, however far: the writer has nothing to add before (its songs wait for company), and an ask
 * that brings something due sooner moves that queued run forward (`sooner`): a runner short of their first
 * 50 songs, whose new tempos can make an add due at once. Until session 25 the follow-up came at most 5 s
 * later, so that the one queued run could take new asks: 87 of 106 writer runs of a lifecycle day added
 * nothing, and in a crowd those runs held the writer's workers while first fills waited.
 */
export interface PlaylistSyncQueue {
  send(
    name: 'playlist-sync',
    payload: z.infer<typeof PlaylistSyncPayload>,
    options?: { startAfter?: Date },
  ): Promise<string | null>;
  /** Queues a run to start now, or moves the user's queued one to now (and to the payload's priority). */
  wake(name: 'playlist-sync', payload: z.infer<typeof PlaylistSyncPayload>): Promise<void>;
  /** Queues a run at `at`, or moves the user's queued one to `at` if it waits longer (and up in priority). */
  sooner(name: 'playlist-sync', payload: z.infer<typeof PlaylistSyncPayload>, at: Date): Promise<void>;
}

export function createPlaylistSyncJobs(deps: {
  writer: Pick<PlaylistWriter, 'sync'>;
  queue: PlaylistSyncQueue;
  /** Whether the runner has fewer than their first 50 songs placed (their runs go first). */
  firstSongs?: (userId: string) => Promise<boolean>;
  now?: () => number;
}) {
  const now = deps.now ?? Date.now;
  const isFirst = async (userId: string, known?: boolean) =>
    known ?? (await deps.firstSongs?.(userId)) === true;
  const payload = (userId: string, first: boolean) =>
    first ? { userId, priority: RUNNER_WAITING_JOB_PRIORITY } : { userId };
  /** A run at `at`, or the user's queued one moved to `at` if it waits longer. */
  const sooner = async (userId: string, at: number, firstKnown?: boolean) =>
    deps.queue.sooner('playlist-sync', payload(userId, await isFirst(userId, firstKnown)), new Date(at));
  /**
   * A run asked for by new tempos or tracks. A runner short of their first 50 gets it at `at` (their
   * queued run moved forward: the new songs may bring them to 50, which goes at once); anyone else gets a
   * run only when none is queued, since a queued one is due when their waiting songs' company is.
   */
  const ask = async (userId: string, at: number, firstKnown?: boolean) => {
    if (await isFirst(userId, firstKnown)) return sooner(userId, at, true);
    await deps.queue.send('playlist-sync', payload(userId, false), { startAfter: new Date(at) });
  };
  /** When each runner was last asked for a run for others' tempos (this process; a cap keeps it small). */
  const sharedAsked = new Map<string, number>();
  return {
    /** Asks for a writer run for the user soon (new tempos, new tracks, a new connection). */
    trigger: (userId: string) => ask(userId, now() + TRIGGER_DELAY_MS),

    /**
     * Asks for runs of the runners whose library holds tempos another runner's lookup found, each at most
     * as often as SHARED_TEMPOS_EVERY_MS allows.
     */
    async triggerHolders(userIds: string[]): Promise<number> {
      let asked = 0;
      for (const userId of userIds) {
        const last = sharedAsked.get(userId);
        const since = last === undefined ? Infinity : now() - last;
        if (since < SHARED_TEMPOS_EVERY_MS.firstSongs) continue;
        const first = (await deps.firstSongs?.(userId)) === true;
        if (!first && since < SHARED_TEMPOS_EVERY_MS.steady) continue;
        if (sharedAsked.size >= 10_000) sharedAsked.clear();
        sharedAsked.set(userId, now());
        await ask(userId, now() + TRIGGER_DELAY_MS, first);
        asked++;
      }
      return asked;
    },

    /**
     * Asks for a run now, ahead of the background runs, for a runner who just changed something and
     * watches it reach Spotify (their targets, exclusions, corrections). A run already queued for them
     * (a follow-up, at the usual priority) is moved to now and to this priority: a plain send would be
     * refused while it waits (one queued run per user).
     */
    triggerWatched: (userId: string) =>
      deps.queue.wake('playlist-sync', { userId, priority: RUNNER_WAITING_JOB_PRIORITY }),

    /**
     * The job: one writer run, and the next one when something is left to settle or another writer is busy
     * (or a shutdown, `stopping`, ended the run early: its follow-up is due at once).
     */
    async run(userId: string, stopping?: AbortSignal): Promise<SyncResult> {
      const r = await deps.writer.sync(userId, stopping);
      if (r.status === 'busy') await sooner(userId, now() + BUSY_RETRY_MS);
      if (r.status === 'done' && r.followUpAt) await sooner(userId, r.followUpAt.getTime());
      return r;
    },
  };
}

export type PlaylistSyncJobs = ReturnType<typeof createPlaylistSyncJobs>;
