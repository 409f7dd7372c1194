// A target's Spotify playlist, created lazily with `POST /me/playlists` exactly once: the intent is
// recorded first (state `creating`); a creation that ended unclearly is settled later by looking for the
// playlist among the user's own before creating another; one made before (an earlier connection of the
// same Spotify account) is taken back instead of making a second (takeBackEarlier).
import { spotifyLink } from '@pacebeat/contract';
import { pacebeatRange, targetDescription, targetName } from './matching.ts';
import type { TargetRow } from './playlists.repository.ts';
import { surelyNotApplied, type OwnPlaylist } from './spotify-playlists.ts';
import type { SyncContext } from './sync-context.ts';
import { MAX_TARGETS } from './target-editor.service.ts';

const passes = new WeakMap<SyncContext, Promise<boolean>>();

/**
 * A runner who connects again (disconnecting erased Pacebeat's data; the playlists stayed in Spotify): the
 * playlists an earlier connection made, known by the description Pacebeat writes (or the default name;
 * matching.ts `pacebeatRange`) and held by no target of theirs, are taken back before any playlist is
 * made, so the runner gets one set, grown, not a second. Each goes to the pending target of its range, or
 * becomes a target of its own (a renamed or re-ranged one keeps its name and range; filters were erased).
 * Once any is taken back, this connection's untouched defaults that have no playlist are dropped: the
 * earlier set replaces them. Once per run, on the own playlists as the library's discovery listed them
 * (or as the run reads them, before it has). True when any was.
 */
export function takeBackEarlier(c: SyncContext): Promise<boolean> {
  let pass = passes.get(c);
  if (!pass) {
    pass = takeBack(c);
    passes.set(c, pass);
  }
  return pass;
}

async function takeBack(c: SyncContext): Promise<boolean> {
  const own = await c.ownPlaylistsBefore();
  const taken = await takeBackFrom(c, own);
  // This look covers every pending target without a playlist of its name (those with one are adopted when
  // their turn comes): their creations in the next `snapshotFreshMs` do not read the playlists again. A
  // runner's first run at connect looks, and so did each run that made their first playlists (bench:crowd
  // at 100 runners: 397 reads of the runner's playlists for 398 playlists made).
  const covered = (await c.repo.listTargets(c.userId)).filter(
    (x) => x.state === 'pending' && x.playlistId === null && !own.some((p) => p.name === x.name),
  );
  await c.repo.markFollowChecked(covered.map((x) => x.id));
  return taken;
}

async function takeBackFrom(c: SyncContext, own: OwnPlaylist[]): Promise<boolean> {
  const linked = await c.repo.playlistIdsOf(c.userId);
  const earlier = own.flatMap((p) => {
    const range = linked.has(p.id) ? null : pacebeatRange(p);
    return range ? [{ ...p, ...range }] : [];
  });
  if (earlier.length === 0) return false;
  const before = await c.repo.listTargets(c.userId);
  const taken = new Set<string>();
  for (const p of earlier) {
    const name = p.name.trim() || targetName(p.minBpm, p.maxBpm);
    const id = await c.repo.adoptEarlier(
      c.userId,
      { playlistId: p.id, publicUrl: p.publicUrl, name, minBpm: p.minBpm, maxBpm: p.maxBpm },
      MAX_TARGETS,
    );
    if (id) taken.add(id);
  }
  if (taken.size === 0) return false;
  const unused = before.filter(
    (t) =>
      !taken.has(t.id) &&
      t.state === 'pending' &&
      t.playlistId === null &&
      t.name === targetName(t.minBpm, t.maxBpm),
  );
  await c.repo.dropUnused(unused.map((t) => t.id));
  c.log.info(
    { taken: taken.size, dropped: unused.length },
    'took back the playlists of an earlier connection',
  );
  c.followUp(c.now()); // the targets taken back are written to in the next run
  return true;
}

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

/**
 * The target's playlist, created if it has none; null when it cannot be written to in this run. The
 * connection's first creations (`firstOfConnection`: no target has a playlist yet) look at the user's own
 * playlists first, to take back an earlier connection's or adopt one of the target's name (once: the
 * target's `followCheckedAt` says it was looked for); later ones do not read them again (that was a
 * `GET /me/playlists` for each playlist made in a later run: 4 a runner).
 */
export async function ensurePlaylist(
  c: SyncContext,
  target: TargetRow,
  o: { firstOfConnection: boolean },
): Promise<TargetRow | null> {
  if (target.state === 'active') return target;
  if (target.state !== 'pending') return null;
  let t = target;
  // Looked for in a recent run (the runner's first run at connect, or one Spotify deferred before its
  // creation went): not read again. In a storm every deferred run read the runner's playlists anew
  // (bench:crowd at 1,000 runners: 1,713 reads for 597 playlists made).
  const lookedForLately =
    t.followCheckedAt !== null && c.now() - t.followCheckedAt.getTime() < c.settings.snapshotFreshMs;
  if (o.firstOfConnection && !lookedForLately) {
    if (await takeBackEarlier(c)) {
      const now = (await c.repo.listTargets(c.userId)).find((x) => x.id === t.id);
      if (now?.state === 'active') return now; // it took back an earlier playlist of its range
      if (now?.state !== 'pending') return null; // dropped: the earlier set replaced it
      t = now;
    }
    const existing = (await c.ownPlaylistsBefore()).find((p) => p.name === t.name);
    if (existing) return adopt(c, t, existing);
  }

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
      publicUrl: spotifyLink(p.external_urls?.spotify),
      snapshotId: p.snapshot_id ?? null,
    };
    if (!(await c.repo.markActive(t.id, row))) return null;
    c.rememberOwn({
      id: p.id,
      name: t.name,
      description: targetDescription(t.minBpm, t.maxBpm),
      publicUrl: row.publicUrl,
      snapshotId: row.snapshotId,
    });
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
