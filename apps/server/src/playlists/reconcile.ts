// Reading a target's playlist back: to settle a batch whose add ended unclearly (time-out, reset, 5xx,
// crash), to learn what the user removed or added themselves, and to notice a deleted playlist.
import type { TargetRow, TargetTrackRow } from './playlists.repository.ts';
import { playlistHead, readAllTracks, readTail } from './spotify-playlists.ts';
import { SpotifyCapabilityMissingError } from '../spotify/errors.ts';
import type { SyncContext } from './sync-context.ts';

type Head = Awaited<ReturnType<typeof playlistHead>>;

const byBatch = (rows: TargetTrackRow[]) => {
  const out = new Map<string, TargetTrackRow[]>();
  for (const r of rows) {
    const list = out.get(r.batchId ?? '') ?? [];
    list.push(r);
    out.set(r.batchId ?? '', list);
  }
  for (const list of out.values()) list.sort((a, b) => a.seq - b.seq);
  return out;
};

/** When a batch recorded at `recordedAt` may be checked (a late answer has landed by then). */
const settledAt = (c: SyncContext, rows: TargetTrackRow[]) =>
  Math.max(...rows.map((r) => r.recordedAt.getTime())) + c.settings.settleMs;

/**
 * Reads the whole playlist and brings the target's rows in line with it: a batch is applied as a whole
 * or not at all, so a settled pending batch with any track in the playlist landed (its missing tracks
 * were removed since), and one with none did not (released, to be added again). Tracks Pacebeat added
 * that are gone were removed by the user (never added again); recordings found that the target did not
 * know are kept as `present` (never added a second time).
 */
export async function reconcile(c: SyncContext, t: TargetRow, head?: Head): Promise<void> {
  const api = c.api('sync:verify');
  const h = head ?? (await playlistHead(api, t.playlistId!));
  const tracks = await readAllTracks(api, t.playlistId!, h);
  const keys = new Set(tracks.map((x) => x.recordingKey));
  const ids = new Set(tracks.map((x) => x.trackId));
  // A row is in the playlist by its track id or its recording key: a row placed as `spotify:<id>` before
  // Pacebeat learned the track's ISRC reads back as `isrc:<ISRC>` (song-identity.ts).
  const there = (r: TargetTrackRow) => ids.has(r.trackId) || keys.has(r.recordingKey);
  const rows = await c.repo.tracksOf(t.id);
  for (const [batchId, batch] of byBatch(rows.filter((r) => r.state === 'pending'))) {
    const at = settledAt(c, batch);
    if (c.now() < at) {
      c.followUp(at);
      continue;
    }
    if (batch.some((r) => ids.has(r.trackId))) {
      await c.repo.confirmBatch(t.id, batchId);
      const missing = batch.filter((r) => !there(r)).map((r) => r.recordingKey);
      await c.repo.setStates(t.id, missing, 'removed');
      c.log.info({ target: t.id, batchId, missing: missing.length }, 'an unclear add had landed');
    } else {
      await c.repo.releaseBatch(t.id, batchId);
      c.log.info({ target: t.id, batchId }, 'an unclear add had not landed: it will be made again');
    }
  }
  await settleRemoving(c, t, rows, there);
  const gone = rows.filter((r) => r.state === 'added' && !there(r));
  await c.repo.setStates(
    t.id,
    gone.map((r) => r.recordingKey),
    'removed',
  );
  const back = rows.filter((r) => r.state === 'removed' && there(r));
  await c.repo.setStates(
    t.id,
    back.map((r) => r.recordingKey),
    'added',
  );
  // Pacebeat removed it on request and the user put it back themselves: theirs now.
  const readded = rows.filter((r) => r.state === 'unplaced' && there(r));
  await c.repo.setStates(
    t.id,
    readded.map((r) => r.recordingKey),
    'present',
  );
  const knownKeys = new Set(rows.map((r) => r.recordingKey));
  const knownIds = new Set(rows.map((r) => r.trackId));
  const unseen = new Map(
    tracks
      .filter((x) => !knownKeys.has(x.recordingKey) && !knownIds.has(x.trackId))
      .map((x) => [x.recordingKey, x]),
  );
  // A playlist taken back from an earlier connection (nothing known of it yet): the songs in it that
  // Pacebeat would place there are its own again (counted, fixable, excludable); the rest are the runner's.
  const found = [...unseen.values()];
  const adopting = rows.length === 0 && t.snapshotId === null && c.fitting !== undefined;
  const fits = adopting ? await c.fitting!(t, found) : new Map<string, number>();
  const adopted = found.filter((x) => fits.has(x.recordingKey));
  await c.repo.recordAdopted(
    t.id,
    adopted.map((x) => ({ ...x, bpm: fits.get(x.recordingKey)! })),
  );
  await c.repo.recordPresent(
    t.id,
    found
      .filter((x) => !fits.has(x.recordingKey))
      .map((x) => ({ recordingKey: x.recordingKey, trackId: x.trackId })),
  );
  if (adopting)
    c.log.info({ target: t.id, adopted: adopted.length, found: found.length }, 'a taken-back playlist read');
  await c.repo.setSnapshot(t.id, h.snapshotId);
  if (gone.length > 0) c.log.info({ target: t.id, removed: gone.length }, 'the user removed tracks');
}

/** Removals whose call ended unclearly, once settled: still in the playlist → added (asked again), else unplaced. */
async function settleRemoving(
  c: SyncContext,
  t: TargetRow,
  rows: TargetTrackRow[],
  there: (r: TargetTrackRow) => boolean,
) {
  const removing = rows.filter((r) => r.state === 'removing');
  if (removing.length === 0) return;
  const at = Math.max(...removing.map((r) => r.removedAt?.getTime() ?? 0)) + c.settings.settleMs;
  if (c.now() < at) return c.followUp(at);
  const still = removing.filter(there).map((r) => r.recordingKey);
  await c.repo.setStates(t.id, still, 'added');
  await c.repo.setStates(
    t.id,
    removing.filter((r) => !there(r)).map((r) => r.recordingKey),
    'unplaced',
  );
}

/**
 * Settles the pending batch an earlier run left (an unclear add, or a crash after recording it).
 * Returns false while it cannot be settled yet (too recent): no new add to this playlist until it is.
 */
export async function settlePending(c: SyncContext, t: TargetRow): Promise<boolean> {
  const pending = await c.repo.tracksOf(t.id, ['pending']);
  if (pending.length === 0) return true;
  const at = settledAt(c, pending);
  if (c.now() < at) {
    c.followUp(at);
    return false;
  }
  const api = c.api('sync:verify');
  const head = await playlistHead(api, t.playlistId!);
  const batches = byBatch(pending);
  // Unchanged since our last write: nothing landed (every change makes a new snapshot).
  if (head.snapshotId !== null && head.snapshotId === t.snapshotId) {
    for (const batchId of batches.keys()) await c.repo.releaseBatch(t.id, batchId);
    return true;
  }
  // The common case: the batch sits at the end of the playlist, exactly as sent.
  const [only] = [...batches.entries()];
  if (batches.size === 1 && only) {
    const [batchId, batch] = only;
    const tail = await readTail(api, t.playlistId!, head.total, batch.length);
    if (tail && tail.length === batch.length && tail.every((id, i) => id === batch[i]!.trackId)) {
      await c.repo.confirmBatch(t.id, batchId);
      await c.repo.setSnapshot(t.id, head.snapshotId);
      return true;
    }
  }
  await reconcile(c, t, head);
  return (await c.repo.tracksOf(t.id, ['pending'])).length === 0;
}

/** Before adding: a snapshot we have not confirmed lately is checked, and the playlist read if it changed. */
export async function ensureFresh(c: SyncContext, t: TargetRow): Promise<void> {
  const fresh = t.snapshotAt !== null && c.now() - t.snapshotAt.getTime() < c.settings.snapshotFreshMs;
  if (t.snapshotId !== null && fresh) return;
  const head = await playlistHead(c.api('sync:check'), t.playlistId!);
  if (t.snapshotId !== null && head.snapshotId === t.snapshotId)
    await c.repo.setSnapshot(t.id, head.snapshotId);
  else await reconcile(c, t, head);
}

/** URIs per `GET /me/library/contains`. */
const CONTAINS_MAX = 40;

/**
 * Playlists the user deleted or restored. Spotify keeps taking writes to a playlist its owner deleted
 * (unfollowed), so before a run adds to a playlist it asks whether the user still has it (`adding`), and
 * now and then (settings.followCheckMs) it asks for every playlist, deleted ones too: one
 * `GET /me/library/contains` per 40 playlists (`always`: each of `targets`). A deleted one is no longer
 * written to; a restored one is written to again (read first). Returns the targets checked, and those
 * found deleted.
 */
export async function checkFollowed(
  c: SyncContext,
  targets: TargetRow[],
  o: { always?: boolean } = {},
): Promise<{ checked: Set<string>; deleted: Set<string> }> {
  const due = targets.filter(
    (t) =>
      (t.state === 'active' || t.state === 'deleted') &&
      t.playlistId !== null &&
      (o.always ||
        t.followCheckedAt === null ||
        c.now() - t.followCheckedAt.getTime() >= c.settings.followCheckMs),
  );
  const gone = new Set<string>();
  const checked = new Set(due.map((t) => t.id));
  if (due.length === 0) return { checked, deleted: gone };
  for (let i = 0; i < due.length; i += CONTAINS_MAX) {
    const part = due.slice(i, i + CONTAINS_MAX);
    let has: boolean[];
    try {
      has = await c.api('sync:check').libraryContains(part.map((t) => `spotify:playlist:${t.playlistId}`));
    } catch (err) {
      // Spotify refuses this app the check (remembered: not asked again): the adds go on without it, and a
      // deleted playlist is then learned only when Spotify answers 404 for it.
      if (!(err instanceof SpotifyCapabilityMissingError)) throw err;
      c.log.warn(
        { err: err.message },
        'Spotify refuses GET /me/library/contains: deleted playlists go unnoticed',
      );
      return { checked, deleted: gone };
    }
    for (const [j, t] of part.entries()) {
      const followed = has[j] === true;
      if (t.state === 'active' && !followed) {
        await c.repo.markDeleted(t.id);
        gone.add(t.id);
        c.log.info({ target: t.id, playlist: t.playlistId }, 'the user deleted the playlist: no more writes');
      } else if (t.state === 'deleted' && followed) {
        // Restored: read it again (snapshot unknown) before the next add.
        await c.repo.markActive(t.id, {
          playlistId: t.playlistId!,
          publicUrl: t.publicUrl,
          snapshotId: null,
        });
        c.log.info({ target: t.id, playlist: t.playlistId }, 'the user restored the playlist: writing again');
      }
    }
  }
  await c.repo.markFollowChecked(due.map((t) => t.id));
  return { checked, deleted: gone };
}
