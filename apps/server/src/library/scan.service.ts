// One scan unit of one user (the `library-scan` job): a few steps of one call each, in the order a user
// waits for them: playlist discovery, Liked Songs, playlists (in the user's order), Followed artists,
// then artist catalogs. Each step commits its rows and cursor; the unit queues the next one while work
// remains. Spotify's "wait" (rate limit, daily quota) is not a failure: the source shows it and the
// job is queued again for when Spotify work resumes (app/job-registry.ts runJob).
import type { Logger } from 'pino';
import type { JobOutcome } from '../jobs/job-outcome.ts';
import type { SpotifyAccountRepository } from '../spotify/account.repository.ts';
import {
  SpotifyAccountDisabledError,
  SpotifyApiError,
  SpotifyDeferredError,
  SpotifyNotConnectedError,
} from '../spotify/errors.ts';
import { catalogStep } from './catalog.scan.ts';
import { LibraryGoneError } from './errors.ts';
import { followedStep } from './followed.scan.ts';
import type { LibraryRepository, LibraryUserRow, SourceRow } from './library.repository.ts';
import { likedStep } from './liked.scan.ts';
import { discoveryStep, playlistNeedsRead, playlistStep } from './playlists.scan.ts';
import { TEMPO_REQUEUE_MS, type ScanContext, type StepResult } from './scan-context.ts';

export type ScanTask =
  | { kind: 'discovery' }
  | { kind: 'liked_songs' | 'playlist' | 'followed_artists' | 'artist_catalogs'; source: SourceRow };

/** The next step of a user's scan, or undefined when nothing is due now (pure: tests call it). */
export function planNext(
  user: LibraryUserRow,
  sources: SourceRow[],
  now: number,
  maxFailures: number,
): ScanTask | undefined {
  const due = (d: Date | null) => d !== null && d.getTime() <= now;
  const ready = (s: SourceRow) => (s.dueAt === null || s.dueAt.getTime() <= now) && s.failures < maxFailures;
  const running = (s: SourceRow) => s.cursor !== null && ready(s);
  const wanted = (s: SourceRow) => s.enabled && (running(s) || (due(s.dueAt) && s.failures < maxFailures));
  const backoff = user.discoveryDueAt === null || due(user.discoveryDueAt);
  if ((user.discoveryOffset !== null && backoff) || due(user.discoveryDueAt)) return { kind: 'discovery' };
  const of = (kind: SourceRow['kind']) => sources.filter((s) => s.kind === kind);
  const liked = of('liked_songs').find(wanted);
  if (liked) return { kind: 'liked_songs', source: liked };
  const playlist = of('playlist').find((s) => s.enabled && playlistNeedsRead(s) && ready(s));
  if (playlist) return { kind: 'playlist', source: playlist };
  const followed = of('followed_artists').find(wanted);
  if (followed) return { kind: 'followed_artists', source: followed };
  const catalogs = of('artist_catalogs')[0];
  const catalogsOn = catalogs?.enabled || of('followed_artists').some((s) => s.enabled);
  if (catalogs && catalogsOn && ready(catalogs)) return { kind: 'artist_catalogs', source: catalogs };
  return undefined;
}

export interface ScanServiceDeps extends ScanContext {
  repo: ScanContext['repo'] & Pick<LibraryRepository, 'updateSource' | 'updateUser' | 'tracksWithoutTempo'>;
  accounts: Pick<SpotifyAccountRepository, 'get'>;
  /** Queues the user's next scan unit (now, or at `startAfter`). */
  wake: (userId: string, startAfter?: Date) => Promise<void>;
  /**
   * Called after a unit stored tracks, or ended a pass (the target playlists' writer listens: what it held
   * for company may go once the library is read, `readDone`).
   */
  onTracksAdded?: (userId: string) => Promise<void>;
  /** Called after a unit that called Spotify (what it stored may change the status page's counts). */
  onCountsChanged?: (userId: string) => Promise<void>;
  log: Logger;
}

const BACKOFF_BASE_MS = 60_000;
/**
 * A scan step Spotify put off this long brings no other artists' songs soon (a rate limit's wait is
 * seconds; the day's quota or a runner's share, hours): songs held for company go then (`readDone`).
 */
export const NO_COMPANY_WAIT_MS = 3600_000;
/** Tracks one idle unit queues tempo lookups for again, at most. */
const TEMPO_SWEEP_LIMIT = 500;
const BACKOFF_CAP_MS = 3600_000;

/** A failure the status page can show, in plain words. */
function describe(err: unknown): string {
  if (err instanceof SpotifyApiError)
    return err.status === 0
      ? 'Spotify could not be reached; Pacebeat will try again.'
      : `Spotify answered ${err.status} to ${err.endpoint}; Pacebeat will try again.`;
  return 'An unexpected error stopped this scan; Pacebeat will try again.';
}

export function createScanService(deps: ScanServiceDeps) {
  const { repo, settings } = deps;

  async function runTask(userId: string, user: LibraryUserRow, task: ScanTask): Promise<StepResult> {
    switch (task.kind) {
      case 'discovery':
        return discoveryStep(deps, user);
      case 'liked_songs':
        return likedStep(deps, userId, task.source);
      case 'playlist':
        return playlistStep(deps, userId, task.source);
      case 'followed_artists':
        return followedStep(deps, userId, task.source);
      case 'artist_catalogs': {
        const r = await catalogStep(deps, userId, user.artistsStale);
        const s = task.source;
        if (r.idle) {
          // A rescan request made it due; done now (else the status page would show it scanning for good).
          if (s.state !== 'idle' || s.dueAt !== null)
            await repo.updateSource(userId, s.id, {
              state: 'idle',
              lastFinishedAt: new Date(),
              resumesAt: null,
              dueAt: null,
            });
        } else if (r.calls > 0) {
          await repo.updateSource(userId, s.id, {
            state: 'scanning',
            pagesRead: (s.state === 'idle' ? 0 : s.pagesRead) + r.calls,
            itemsRead: (s.state === 'idle' ? 0 : s.itemsRead) + r.tracks,
            error: null,
            failures: 0,
            resumesAt: null,
          });
        }
        return r;
      }
    }
  }

  /** Records a failed step on its source (or on discovery) with a growing pause; the scan goes on. */
  async function recordFailure(userId: string, task: ScanTask, err: unknown): Promise<void> {
    deps.log.warn({ userId, task: task.kind, err }, 'library scan step failed');
    const failures = task.kind === 'discovery' ? 1 : task.source.failures + 1;
    const pause = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** (failures - 1));
    const dueAt = new Date(Date.now() + pause);
    if (task.kind === 'discovery') return repo.updateUser(userId, { discoveryDueAt: dueAt });
    await repo.updateSource(userId, task.source.id, {
      failures,
      error: describe(err),
      dueAt: failures >= settings.maxFailures ? null : dueAt,
      ...(failures >= settings.maxFailures ? { state: 'failed' } : {}),
    });
  }

  /** When the earliest paused source may go on (a failure's pause), if any. */
  function nextWake(user: LibraryUserRow, sources: SourceRow[], now: number): Date | undefined {
    const times = [user.discoveryDueAt, ...sources.filter((s) => s.enabled).map((s) => s.dueAt)]
      .filter((d): d is Date => d !== null && d.getTime() > now)
      .map((d) => d.getTime());
    return times.length > 0 ? new Date(Math.min(...times)) : undefined;
  }

  /**
   * When the scan has nothing left: queue lookups for tracks whose tempo lookup never ran (a crash
   * between a page and its queueing) or was lost (a job cancelled with another user's disconnect).
   */
  async function sweepTempo(userId: string): Promise<{ tempoRequeued?: number }> {
    const ids = await repo.tracksWithoutTempo(userId, TEMPO_REQUEUE_MS, TEMPO_SWEEP_LIMIT);
    if (ids.length === 0) return {};
    await deps.queueTempo(userId, ids);
    return { tempoRequeued: ids.length };
  }

  return {
    planNext,

    /**
     * Whether nothing more of the user's library will be read soon: no step due (a rescan's time not come,
     * a source given up after its failures) and every catalog read and checked, or the next step put off by
     * Spotify for `NO_COMPANY_WAIT_MS` or more (the day's quota or the runner's share spent: the rest
     * comes tomorrow). What the playlists' writer asks before it stops holding songs back for other
     * artists' company (none is coming then: a whole-day bench:playlist-truth run ended with 66 fitting
     * songs held, the largest class left out, while the scan waited for the next day's quota).
     */
    async readDone(userId: string): Promise<boolean> {
      const user = await repo.getUser(userId);
      if (!user) return false;
      const now = Date.now();
      const task = planNext(user, await repo.listSources(userId), now, settings.maxFailures);
      if (!task) return true;
      const resumesAt = task.kind === 'discovery' ? null : task.source.resumesAt;
      if (resumesAt && resumesAt.getTime() - now >= NO_COMPANY_WAIT_MS) return true;
      // The catalogs step is always planned while catalogs are on; it is idle when no artist is left.
      if (task.kind !== 'artist_catalogs' || user.artistsStale) return false;
      const next = await repo.nextCatalogArtist(userId, settings.catalogGroups, settings.catalogRecheckMs);
      return next === undefined;
    },

    /**
     * Runs one unit of the user's scan: up to `callsPerUnit` Spotify calls. Queues the next unit when
     * work remains; throws SpotifyDeferredError (the job is queued again for when Spotify allows). When
     * `stopping` is aborted (a shutdown) the unit ends after its current step (each step saved its cursor)
     * and queues the next, which the next process runs.
     */
    async runUnit(userId: string, stopping?: AbortSignal): Promise<JobOutcome> {
      const account = await deps.accounts.get(userId);
      if (!account) return { status: 'skipped', detail: { reason: 'not connected' } };
      if (account.disabledReason !== null) return { status: 'skipped', detail: { reason: 'disabled' } };
      let calls = 0;
      let tracks = 0;
      let finished = false;
      try {
        while (calls < settings.callsPerUnit && !stopping?.aborted) {
          const user = await repo.getUser(userId);
          if (!user) return { status: 'skipped', detail: { reason: 'no library' } };
          const sources = await repo.listSources(userId);
          const now = Date.now();
          const task = planNext(user, sources, now, settings.maxFailures);
          const wakeAt = task ? undefined : nextWake(user, sources, now);
          if (!task) {
            if (wakeAt) await deps.wake(userId, wakeAt);
            finished = true;
            return {
              status: 'success',
              detail: { calls, tracks, idle: true, ...(await sweepTempo(userId)) },
            };
          }
          try {
            const r = await runTask(userId, user, task);
            calls += r.calls;
            tracks += r.tracks;
            if (r.idle) {
              finished = true;
              return {
                status: 'success',
                detail: { calls, tracks, idle: true, ...(await sweepTempo(userId)) },
              };
            }
          } catch (err) {
            if (err instanceof SpotifyDeferredError) {
              if (task.kind !== 'discovery') {
                await repo.updateSource(userId, task.source.id, { resumesAt: err.retryAt });
                // Put off until tomorrow: the writer's held songs need not wait for this pass (readDone).
                if (err.retryAt.getTime() - Date.now() >= NO_COMPANY_WAIT_MS) finished = true;
              }
              throw err;
            }
            if (err instanceof SpotifyAccountDisabledError) {
              if (task.kind !== 'discovery')
                await repo.updateSource(userId, task.source.id, { state: 'failed', error: err.message });
              return { status: 'skipped', detail: { reason: 'disabled', calls } };
            }
            if (err instanceof LibraryGoneError || err instanceof SpotifyNotConnectedError)
              return { status: 'skipped', detail: { reason: 'disconnected', calls } };
            await recordFailure(userId, task, err);
          }
        }
        await deps.wake(userId);
        return { status: 'success', detail: { calls, tracks, more: true } };
      } finally {
        // A pass's end counts too: its last steps may have marked catalogs read without a call (their
        // releases read for another runner), and the status page would show them scanning for good.
        if (calls > 0 || finished) await deps.onCountsChanged?.(userId);
        // A pass that ends (or is put off till tomorrow) wakes the writer too: songs it held for company
        // may go now (readDone).
        if (tracks > 0 || finished) await deps.onTracksAdded?.(userId);
      }
    },
  };
}
export type ScanService = ReturnType<typeof createScanService>;

/**
 * Runs a user's scan units one after another in this process until there is nothing to do (or Spotify
 * defers the work: then when it may go on), without the job queue: the tests and the scan benchmark.
 */
export async function runUntilIdle(
  scans: Pick<ScanService, 'runUnit'>,
  userId: string,
  maxUnits = Infinity,
): Promise<{ units: number; deferred?: Date }> {
  for (let units = 1; units <= maxUnits; units++) {
    try {
      const out = await scans.runUnit(userId);
      if (out.status !== 'success' || out.detail?.['idle']) return { units };
    } catch (err) {
      if (err instanceof SpotifyDeferredError) return { units, deferred: err.retryAt };
      throw err;
    }
  }
  throw new Error(`the scan of ${userId} did not finish in ${maxUnits} units`);
}
