// Removing from a target's playlist, on the runner's request, what Pacebeat added and what no longer fits
// (`DELETE /playlists/{id}/items`, ≤ 100 per call). Each batch is recorded (`removing`) before the call;
// a success makes it `unplaced`, a clear refusal puts it back (`added`, still asked for), and an unclear
// end is settled by reading the playlist back. The user's own tracks (`present`) are never asked for.
import { randomUUID } from 'node:crypto';
import { SpotifyApiError } from '../spotify/errors.ts';
import type { TargetRow } from './playlists.repository.ts';
import { ensureFresh, reconcile } from './reconcile.ts';
import { playlistHead, surelyNotApplied } from './spotify-playlists.ts';
import type { SyncContext } from './sync-context.ts';
import type { SongSet } from './song-identity.ts';

/** URIs per `DELETE /playlists/{id}/items`. */
export const REMOVE_BATCH = 100;

/**
 * Settles removals an earlier run left unclear (a time-out, a 5xx, a crash after recording them). Returns
 * false while they cannot be settled yet (too recent): the playlist is then left alone in this run.
 */
export async function settleRemovals(c: SyncContext, t: TargetRow): Promise<boolean> {
  const rows = await c.repo.tracksOf(t.id, ['removing']);
  if (rows.length === 0) return true;
  const at = Math.max(...rows.map((r) => r.removedAt?.getTime() ?? 0)) + c.settings.settleMs;
  if (c.now() < at) {
    c.followUp(at);
    return false;
  }
  const head = await playlistHead(c.api('sync:verify'), t.playlistId!);
  // Unchanged since our last write: nothing was removed.
  if (head.snapshotId !== null && head.snapshotId === t.snapshotId) {
    for (const batchId of new Set(rows.map((r) => r.batchId ?? '')))
      await c.repo.releaseRemoval(t.id, batchId);
    return true;
  }
  await reconcile(c, t, head);
  return (await c.repo.tracksOf(t.id, ['removing'])).length === 0;
}

/**
 * Carries out the removals asked for on this target: those whose recording fits the target after all
 * (`fitting`: the same rule as adding) are dropped, the others removed. Returns how many were removed.
 * Spotify asking to wait (429, the daily quota) ends the run; the requests stay for the next one.
 */
export async function removeRequested(c: SyncContext, t: TargetRow, fitting: SongSet): Promise<number> {
  const asked = await c.repo.removalRequests(t.id);
  if (asked.length === 0) return 0;
  await c.repo.cancelRemovals(
    t.id,
    asked.filter((r) => fitting.hasTrack(r)).map((r) => r.recordingKey),
  );
  const todo = asked.filter((r) => !fitting.hasTrack(r)).map((r) => r.recordingKey);
  if (todo.length === 0) return 0;
  // What the user removed themselves is theirs to keep out (`removed`), not Pacebeat's to remove.
  await ensureFresh(c, t);
  let removed = 0;
  for (let i = 0; i < todo.length; i += REMOVE_BATCH) {
    await c.guard();
    const batchId = randomUUID();
    const rows = await c.repo.markRemoving(t.id, batchId, todo.slice(i, i + REMOVE_BATCH));
    if (rows.length === 0) continue;
    try {
      const res = await c.api('sync:remove').removeTracks(
        t.playlistId!,
        rows.map((r) => `spotify:track:${r.trackId}`),
      );
      removed += await c.repo.finishRemoval(t.id, batchId);
      await c.repo.setSnapshot(t.id, res.snapshot_id);
      t.snapshotId = res.snapshot_id;
      t.snapshotAt = new Date(c.now());
    } catch (err) {
      if (!surelyNotApplied(err)) {
        c.log.warn(
          { target: t.id, batchId, err: (err as Error).message },
          'a playlist removal ended unclearly',
        );
        c.followUp(c.now() + c.settings.settleMs);
        return removed;
      }
      await c.repo.releaseRemoval(t.id, batchId);
      if (err instanceof SpotifyApiError && err.status === 404) {
        await c.repo.markDeleted(t.id);
        return removed;
      }
      if (err instanceof SpotifyApiError && err.status === 400) {
        // Refused as it stands: not asked again (the rows stay Pacebeat's, in the playlist).
        await c.repo.cancelRemovals(
          t.id,
          rows.map((r) => r.recordingKey),
        );
        c.log.warn({ target: t.id, err: err.spotifyMessage }, 'Spotify refused a removal');
        continue;
      }
      throw err;
    }
  }
  if (removed > 0) c.log.info({ target: t.id, removed }, 'removed tracks on the runner’s request');
  return removed;
}
