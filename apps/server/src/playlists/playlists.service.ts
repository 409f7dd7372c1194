// A user's targets: the defaults made on connect, what the status page shows, and forgetting them on
// disconnect. Writing to Spotify is the writer's (writer.ts), run by the playlist-sync job.
import type { Target } from '@pacebeat/contract';
import { formatLocalTime } from '../http/format-time.ts';
import { DEFAULT_TARGETS, targetName } from './matching.ts';
import type { PlaylistsRepository, TargetRow } from './playlists.repository.ts';

export interface PlaylistsServiceDeps {
  repo: Pick<PlaylistsRepository, 'createTargets' | 'listTargets' | 'statsOf' | 'deleteUserData'>;
  now?: () => number;
}

const WEEK_MS = 7 * 86_400_000;

/** The name shown for a target; a playlist the user deleted says so (Pacebeat no longer writes to it). */
const shownName = (t: TargetRow) =>
  t.state === 'deleted' ? `${t.name} (deleted in Spotify: no longer updated)` : t.name;

export function createPlaylistsService(deps: PlaylistsServiceDeps) {
  const now = deps.now ?? Date.now;
  return {
    /** The four default targets (150–190 BPM in steps of 10); idempotent, so safe on every connect. */
    async createDefaultTargets(userId: string): Promise<number> {
      return deps.repo.createTargets(
        userId,
        DEFAULT_TARGETS.map((t, position) => ({ ...t, name: targetName(t.minBpm, t.maxBpm), position })),
      );
    },

    /** GET /api/spotify/targets: the spec's fields, times in the reader's time zone. Reads only. */
    async targets(userId: string, timeZone: string | null): Promise<Target[]> {
      const rows = await deps.repo.listTargets(userId);
      const stats = await deps.repo.statsOf(
        rows.map((t) => t.id),
        new Date(now() - WEEK_MS),
      );
      return rows.map((t) => {
        const s = stats.get(t.id) ?? { tracksAdded: 0, tracksAdded7Days: 0 };
        const finished = t.lastJobFinishedAt;
        return {
          target_id: t.id,
          target: shownName(t),
          public_url: t.publicUrl,
          timestamp_last_job_finished: finished ? Math.floor(finished.getTime() / 1000) : null,
          timestamp_last_job_finished_str: finished ? formatLocalTime(finished, timeZone) : null,
          bpms: { min: t.minBpm, max: t.maxBpm },
          stats: { tracks_added: s.tracksAdded, tracks_added_7days: s.tracksAdded7Days },
        };
      });
    },

    /** Disconnect: everything Pacebeat keeps about the user's targets goes; the playlists stay in Spotify. */
    async forgetUser(userId: string): Promise<void> {
      await deps.repo.deleteUserData(userId);
    },
  };
}

export type PlaylistsService = ReturnType<typeof createPlaylistsService>;
