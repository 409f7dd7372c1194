// A target's Spotify playlist, created lazily with `POST /me/playlists` exactly once: the intent is
// recorded first (state `creating`); a creation that ended unclearly is settled later by looking for the
// playlist among the user's own before creating another; one made before (an earlier connection of the
// same Spotify account) is found by its name and adopted instead of making a second.
import { targetDescription } from './matching.ts';
import type { TargetRow } from './playlists.repository.ts';
import { surelyNotApplied, type OwnPlaylist } from './spotify-playlists.ts';
import type { SyncContext } from './sync-context.ts';

/** Takes over an existing playlist: its contents are read before anything is added (snapshot unknown). */
async function adopt(c: SyncContext, t: TargetRow, p: OwnPlaylist): Promise<TargetRow | null> {
  const ok = await c.repo.markActive(t.id, { playlistId: p.id, publicUrl: p.publicUrl, snapshotId: null });
  if (!ok) return null;
  c.log.info({ target: t.id, playlist: p.id }, 'found the target’s playlist in the user’s library');
  return {
    ...t,
    state: 'active',
    playlistId: p.id,
    publicUrl: p.publicUrl,
    snapshotId: null,
    snapshotAt: null,
  };
}

/**
 * A target left `creating` by an earlier run (an unclear answer, or a crash): once a late answer would
 * have landed, the playlist is looked for; found, it is the target's; not found, the target is pending
 * again and may be created anew.
 */
export async function settleCreation(c: SyncContext, t: TargetRow): Promise<TargetRow> {
  const at = (t.creatingSince?.getTime() ?? 0) + c.settings.settleMs;
  if (c.now() < at) {
    c.followUp(at);
    return t;
  }
  // Looked for by the name it was created with (the runner may have renamed the target since).
  const sent = t.spotifyName ?? t.name;
  const found = (await c.ownPlaylists()).find((p) => p.name === sent);
  if (found) return (await adopt(c, t, found)) ?? t;
  await c.repo.markNotCreated(t.id);
  c.log.info({ target: t.id }, 'an unclear playlist creation had not happened: it may be made again');
  return { ...t, state: 'pending', creatingSince: null };
}

/** The target's playlist, created if it has none; null when it cannot be written to in this run. */
export async function ensurePlaylist(c: SyncContext, t: TargetRow): Promise<TargetRow | null> {
  if (t.state === 'active') return t;
  if (t.state !== 'pending') return null;
  const existing = (await c.ownPlaylists()).find((p) => p.name === t.name);
  if (existing) return adopt(c, t, existing);

  await c.guard();
  if (!(await c.repo.markCreating(t.id))) return null;
  try {
    const p = await c.api('sync:create').createPlaylist({
      name: t.name,
      description: targetDescription(t.minBpm, t.maxBpm),
      public: false,
    });
    const row = {
      playlistId: p.id,
      publicUrl: p.external_urls?.spotify ?? null,
      snapshotId: p.snapshot_id ?? null,
    };
    if (!(await c.repo.markActive(t.id, row))) return null;
    c.rememberOwn({ id: p.id, name: t.name, publicUrl: row.publicUrl, snapshotId: row.snapshotId });
    c.log.info({ target: t.id, playlist: p.id }, 'created the target’s playlist');
    return { ...t, ...row, state: 'active', snapshotAt: new Date(c.now()), creatingSince: null };
  } catch (err) {
    if (surelyNotApplied(err)) {
      await c.repo.markNotCreated(t.id);
      throw err;
    }
    // It may exist now (or soon): looked for once a late answer would have landed, never created blindly.
    c.log.warn({ target: t.id, err: (err as Error).message }, 'playlist creation ended unclearly');
    c.followUp(c.now() + c.settings.settleMs);
    return null;
  }
}
