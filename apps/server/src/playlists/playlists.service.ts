// A user's targets: the defaults made on connect, what the status page shows, and forgetting them on
// disconnect. Writing to Spotify is the writer's (writer.ts), run by the playlist-sync job.
import { spotifyLink, type FirstFill, type Target } from '@pacebeat/contract';
import type { LiveCache } from '../cache/live-cache.ts';
import { createPresentedMemo } from '../cache/presented.ts';
import { formatLocalTime } from '../http/format-time.ts';
import { DEFAULT_TARGETS, targetName } from './matching.ts';
import type { PlaylistsRepository, TargetRow, TargetStats } from './playlists.repository.ts';
import { DEFAULT_WRITER_SETTINGS } from './sync-context.ts';

export interface PlaylistsServiceDeps {
  repo: Pick<
    PlaylistsRepository,
    'createTargets' | 'listTargetsWithStats' | 'deleteUserData' | 'hasAnyTarget' | 'requestRemovals'
  >;
  /** Asks for a writer run for the user soon (the playlist-sync job). */
  trigger?: (userId: string) => Promise<unknown>;
  /** A user's targets and stats, invalidated across processes (tag `targets:<userId>`). */
  cache?: LiveCache<TargetsWithStats>;
  now?: () => number;
  /** The matches a first fill waits for (the writer's `firstFill` setting). */
  firstFillNeeded?: number;
}

export type TargetsWithStats = Awaited<ReturnType<PlaylistsRepository['listTargetsWithStats']>>;

const WEEK_MS = 7 * 86_400_000;

/**
 * The name shown for a target, with why Pacebeat no longer writes to its playlist: the user deleted it,
 * it is full (its continuation "… (2)" takes the new songs), or Spotify refuses writes to it (until the
 * runner edits the target).
 */
const shownName = (t: TargetRow) => {
  if (t.state === 'deleted') return `${t.name} (deleted in Spotify: no longer updated)`;
  if (t.fullAt !== null)
    return `${t.name} (full: a Spotify playlist holds at most 10,000 songs; new ones go to the next)`;
  if (t.writeRefusedAt !== null)
    return `${t.name} (Spotify refuses changes to it: “${t.writeRefusal ?? 'Forbidden'}” Edit the target to try again)`;
  return t.name;
};

/** A target as the API shows it: the spec's fields, and (beyond them) its filters. */
export function presentTarget(t: TargetRow, s: TargetStats | undefined, timeZone: string | null): Target {
  const finished = t.lastJobFinishedAt;
  const stats = s ?? { tracksAdded: 0, tracksAdded7Days: 0 };
  return {
    target_id: t.id,
    target: shownName(t),
    public_url: spotifyLink(t.publicUrl),
    timestamp_last_job_finished: finished ? Math.floor(finished.getTime() / 1000) : null,
    timestamp_last_job_finished_str: finished ? formatLocalTime(finished, timeZone) : null,
    bpms: { min: t.minBpm, max: t.maxBpm },
    stats: { tracks_added: stats.tracksAdded, tracks_added_7days: stats.tracksAdded7Days },
    filters: {
      no_explicit: t.noExplicit,
      min_duration_s: t.minDurationMs === null ? null : Math.round(t.minDurationMs / 1000),
      max_duration_s: t.maxDurationMs === null ? null : Math.round(t.maxDurationMs / 1000),
      liked_only: t.likedOnly,
      meters_included: t.metersIncluded,
    },
  };
}

/**
 * How far the first fill is: the matches the writer planned, while no target has a playlist yet
 * (and the writer has planned at least once); null otherwise.
 */
export function presentFirstFill(rows: TargetsWithStats, needed: number): FirstFill | null {
  if (rows.length === 0 || rows.some((r) => r.target.playlistId !== null)) return null;
  const counted = rows.filter((r) => r.target.firstFillMatches !== null);
  if (counted.length === 0) return null;
  return { matches: counted.reduce((n, r) => n + r.target.firstFillMatches!, 0), needed };
}

export function createPlaylistsService(deps: PlaylistsServiceDeps) {
  const now = deps.now ?? Date.now;
  const needed = deps.firstFillNeeded ?? DEFAULT_WRITER_SETTINGS.firstFill;
  // Made once per cached rows and time zone (the cache's rows are the same object until a change drops them).
  const presented = createPresentedMemo(([rows]: readonly [TargetsWithStats], timeZone: string | null) => ({
    targets: rows.map((r) => presentTarget(r.target, r.stats, timeZone)),
    first_fill: presentFirstFill(rows, needed),
  }));
  async function targetsReply(
    userId: string,
    timeZone: string | null,
  ): Promise<{ targets: Target[]; first_fill: FirstFill | null }> {
    const read = () => deps.repo.listTargetsWithStats(userId, new Date(now() - WEEK_MS));
    const rows = deps.cache ? await deps.cache.get(userId, read, () => [`targets:${userId}`]) : await read();
    return presented([rows], timeZone);
  }

  return {
    /**
     * The four default targets (150–190 BPM in steps of 10), for a user who never had targets: idempotent,
     * so safe on every connect, and a runner's own edits and deletions are not undone by connecting again.
     */
    async createDefaultTargets(userId: string): Promise<number> {
      if (await deps.repo.hasAnyTarget(userId)) return 0;
      return deps.repo.createTargets(
        userId,
        DEFAULT_TARGETS.map((t, position) => ({ ...t, name: targetName(t.minBpm, t.maxBpm), position })),
      );
    },

    /** GET /api/spotify/targets: the spec's fields, times in the reader's time zone, and how far the
     *  first fill is. Reads only; the same object while the cached rows last. */
    targetsReply,

    /** The targets alone (see targetsReply). */
    async targets(userId: string, timeZone: string | null): Promise<Target[]> {
      return (await targetsReply(userId, timeZone)).targets;
    },

    /** Ask the writer to remove from these targets' playlists the recordings Pacebeat added (state 'added'
     *  or 'pending'); never the user's own ('present'). Queues the user's playlist-sync job; idempotent. */
    async requestRemovals(
      userId: string,
      removals: Array<{ targetId: string; recordingKey: string }>,
    ): Promise<number> {
      const marked = await deps.repo.requestRemovals(userId, removals);
      if (marked > 0) await deps.trigger?.(userId);
      return marked;
    },

    /** Disconnect: everything Pacebeat keeps about the user's targets goes; the playlists stay in Spotify. */
    async forgetUser(userId: string): Promise<void> {
      await deps.repo.deleteUserData(userId);
    },
  };
}

export type PlaylistsService = ReturnType<typeof createPlaylistsService>;
