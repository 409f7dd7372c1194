// A renamed target (or one with a new range) renames its Spotify playlist and rewrites its description:
// `PUT /playlists/{id}`, one call at the "playlist writes" priority. Setting details is idempotent, so an
// unclear end is simply tried again in a later run.
import { SpotifyApiError } from '../spotify/errors.ts';
import { targetDescription } from './matching.ts';
import type { TargetRow } from './playlists.repository.ts';
import { PlaylistGoneError, surelyNotApplied } from './spotify-playlists.ts';
import type { SyncContext } from './sync-context.ts';

/** Sends the target's name and description when an edit is not in Spotify yet. */
export async function syncDetails(c: SyncContext, t: TargetRow): Promise<void> {
  if (t.state !== 'active' || t.playlistId === null || t.detailsVersion <= t.detailsSyncedVersion) return;
  await c.guard();
  try {
    await c.api('sync:details').changePlaylistDetails(t.playlistId, {
      name: t.name,
      description: targetDescription(t.minBpm, t.maxBpm),
    });
    await c.repo.markDetailsSynced(t.id, t.detailsVersion, t.name);
    c.log.info({ target: t.id, playlist: t.playlistId }, 'renamed the target’s playlist');
  } catch (err) {
    if (err instanceof SpotifyApiError && err.status === 404) throw new PlaylistGoneError(t.playlistId);
    if (!surelyNotApplied(err)) {
      c.log.warn({ target: t.id, err: (err as Error).message }, 'renaming the playlist ended unclearly');
      c.followUp(c.now() + c.settings.settleMs);
      return;
    }
    if (err instanceof SpotifyApiError) {
      // Refused for good (e.g. no longer the owner): not tried again until the next edit.
      c.log.warn({ target: t.id, err: err.spotifyMessage }, 'Spotify refused the playlist’s new details');
      await c.repo.markDetailsSynced(t.id, t.detailsVersion, t.spotifyName ?? t.name);
      return;
    }
    throw err;
  }
}
