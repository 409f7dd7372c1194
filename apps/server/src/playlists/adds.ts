// Appending new matches to a target's playlist, ≤ 100 per call. An add is not idempotent, so each batch
// is recorded (pending) before the call; a clear refusal releases it, a success confirms it, and an
// unclear end leaves it pending until reconcile.ts has read the playlist back.
import { randomUUID } from 'node:crypto';
import { SpotifyApiError } from '../spotify/errors.ts';
import type { PlannedTrack } from './matching.ts';
import type { TargetRow } from './playlists.repository.ts';
import { PLAYLIST_MAX_ITEMS, playlistHead, surelyNotApplied } from './spotify-playlists.ts';
import type { SyncContext } from './sync-context.ts';

/** URIs per `POST /playlists/{id}/items`. */
export const ADD_BATCH = 100;

/**
 * What became of a batch: `added` tracks; `stop` when this playlist takes no more adds in this run
 * (`full`: nor in later runs; its continuation takes the new matches).
 */
export interface BatchOutcome {
  added: number;
  stop: 'unclear' | 'gone' | 'full' | null;
}

type Track = Pick<PlannedTrack, 'trackId' | 'recordingKey' | 'bpm'>;

export async function addBatch(c: SyncContext, t: TargetRow, tracks: Track[]): Promise<BatchOutcome> {
  await c.guard();
  const batchId = randomUUID();
  const rows = await c.repo.recordPending(t.id, batchId, tracks);
  if (rows.length === 0) return { added: 0, stop: null };
  const uris = rows.map((r) => `spotify:track:${r.trackId}`);
  try {
    const res = await c.api('sync:add').addTracks(t.playlistId!, uris);
    await c.repo.confirmBatch(t.id, batchId);
    await c.repo.setSnapshot(t.id, res.snapshot_id);
    t.snapshotId = res.snapshot_id;
    t.snapshotAt = new Date(c.now());
    return { added: rows.length, stop: null };
  } catch (err) {
    if (!surelyNotApplied(err)) {
      c.log.warn({ target: t.id, batchId, err: (err as Error).message }, 'a playlist add ended unclearly');
      c.followUp(c.now() + c.settings.settleMs);
      return { added: 0, stop: 'unclear' };
    }
    await c.repo.releaseBatch(t.id, batchId);
    if (err instanceof SpotifyApiError && err.status === 404) {
      await c.repo.markDeleted(t.id);
      return { added: 0, stop: 'gone' };
    }
    if (err instanceof SpotifyApiError && (err.status === 400 || err.status === 403)) {
      // A full playlist: Spotify's answer has been a 400, a 403 or a 500 over the years, so its size says.
      if (await isFull(c, t, rows.length)) {
        await c.repo.markFull(t.id);
        c.log.info({ target: t.id, playlist: t.playlistId }, 'the playlist is full: no more adds to it');
        return { added: 0, stop: 'full' };
      }
      if (err.status === 403) throw err; // refused for good: the writer stops writing to it (onTarget)
      return refused(c, t, rows, err);
    }
    throw err;
  }
}

/** Whether `n` more items would not fit in the playlist (one call: its item count). */
async function isFull(c: SyncContext, t: TargetRow, n: number): Promise<boolean> {
  const head = await playlistHead(c.api('sync:check'), t.playlistId!);
  return head.total + n > PLAYLIST_MAX_ITEMS;
}

/**
 * Spotify refused the batch as a whole (400): halves are tried until the track it refuses is alone,
 * which is then kept as `rejected` (never tried again), so one bad track cannot hold back the others.
 */
async function refused(
  c: SyncContext,
  t: TargetRow,
  rows: Array<{ recordingKey: string; trackId: string; bpm: number | null }>,
  err: SpotifyApiError,
): Promise<BatchOutcome> {
  const tracks = rows.map((r) => ({ recordingKey: r.recordingKey, trackId: r.trackId, bpm: r.bpm ?? 0 }));
  if (tracks.length === 1) {
    await c.repo.recordPending(t.id, randomUUID(), tracks);
    await c.repo.setStates(t.id, [tracks[0]!.recordingKey], 'rejected');
    c.log.warn(
      { target: t.id, track: tracks[0]!.trackId, err: err.spotifyMessage },
      'Spotify refused a track',
    );
    return { added: 0, stop: null };
  }
  const half = Math.ceil(tracks.length / 2);
  const first = await addBatch(c, t, tracks.slice(0, half));
  if (first.stop) return first;
  const second = await addBatch(c, t, tracks.slice(half));
  return { added: first.added + second.added, stop: second.stop };
}
