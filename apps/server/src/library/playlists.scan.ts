// Playlists: discovery lists the user's playlists (`GET /me/playlists`, 50 per step) and keeps one
// source per playlist, readable when the user owns it or collaborates on it; a playlist missing from a
// whole pass is gone. The user's own (Pacebeat's too) are kept as a list for the writer (ownPlaylistsSeen). A playlist's tracks are read again only when its `snapshot_id` changed.
import { pacebeatRange } from '../playlists/matching.ts';
import { ownOf } from '../playlists/spotify-playlists.ts';
import { playlistTotal } from '../spotify/api.ts';
import { SpotifyApiError } from '../spotify/errors.ts';
import type { LibraryUserRow, PlaylistSourceInput, SourceRow } from './library.repository.ts';
import {
  PAGE,
  type PlaylistCursor,
  type ScanContext,
  type StepResult,
  pageProgress,
} from './scan-context.ts';
import { artistsOf, toLibraryTrack, type LibraryTrack } from './spotify-items.ts';

export async function discoveryStep(c: ScanContext, user: LibraryUserRow): Promise<StepResult> {
  const userId = user.userId;
  const starting = user.discoveryOffset === null;
  const offset = user.discoveryOffset ?? 0;
  const pass = starting ? user.discoveryPass + 1 : user.discoveryPass;
  const page = await c
    .api(
      user.discoveredAt === null
        ? { userId, purpose: 'scan:discovery-first', priority: 'first_pages', firstRead: true }
        : { userId, purpose: 'scan:discovery', priority: 'library_scan' },
    )
    .myPlaylists(offset, PAGE);
  const targets = (await c.targetPlaylistIds?.(userId)) ?? new Set<string>();
  const lists: PlaylistSourceInput[] = [];
  page.items.forEach((p, i) => {
    const ownerId = p.owner?.id ?? null;
    // Pacebeat's playlists are never sources: this connection's targets, and those an earlier connection
    // made (disconnecting erased their targets; they are known by the description Pacebeat writes).
    const pacebeats =
      ownerId === user.spotifyUserId &&
      pacebeatRange({ name: p.name ?? null, description: p.description ?? null });
    if (targets.has(p.id) || pacebeats) return;
    lists.push({
      sourceId: p.id,
      name: (p.name ?? '').slice(0, 500),
      ownerName: (p.owner?.display_name ?? ownerId ?? '').slice(0, 500) || null,
      readable: ownerId === user.spotifyUserId || p.collaborative === true,
      snapshot: p.snapshot_id ?? null,
      total: playlistTotal(p),
      position: offset + i,
    });
  });
  const end = page.next === null || page.pageSize === 0;
  await c.repo.inScan(userId, async (q) => {
    await q.upsertPlaylistSources(userId, pass, lists);
    if (end) await q.sweepPlaylistSources(userId, pass);
    // The writer's look for an earlier connection's playlists reads this list instead of Spotify.
    await q.gatherOwnPlaylists(userId, ownOf(page.items, user.spotifyUserId), { starting, end });
    await q.updateUser(userId, {
      discoveryPass: pass,
      discoveryOffset: end ? null : offset + page.pageSize,
      ...(end ? { discoveredAt: new Date(), discoveryDueAt: null } : {}),
      ...(starting && !end ? { discoveryDueAt: null } : {}),
    });
  });
  return { calls: 1, tracks: 0 };
}

/** Whether a playlist source has something to read: a running pass, or a snapshot not read yet. */
export const playlistNeedsRead = (s: SourceRow) =>
  s.cursor !== null || (s.readable && (s.readSnapshot === null || s.readSnapshot !== (s.snapshot ?? '')));

export async function playlistStep(c: ScanContext, userId: string, s: SourceRow): Promise<StepResult> {
  const starting = s.cursor === null;
  const cur: PlaylistCursor = starting
    ? { offset: 0, pass: s.pass + 1, snapshot: s.snapshot }
    : (s.cursor as unknown as PlaylistCursor);
  let page;
  try {
    page = await c
      // A playlist's first read (after a connect, or a new playlist) is not held by the runner's share.
      .api({ userId, purpose: 'scan:playlist', priority: 'library_scan', firstRead: cur.pass === 1 })
      .playlistTracks(s.sourceId, cur.offset, PAGE);
  } catch (err) {
    // Any 403 means "not yours to read" (Spotify's wording varies); 404: deleted since discovery.
    if (!(err instanceof SpotifyApiError) || (err.status !== 403 && err.status !== 404)) throw err;
    await c.repo.inScan(userId, (q) =>
      q.updateSource(
        userId,
        s.id,
        err.status === 403
          ? { readable: false, enabled: false, state: 'unreadable', cursor: null, error: null, dueAt: null }
          : {
              state: 'failed',
              cursor: null,
              error: 'Spotify says this playlist no longer exists.',
              readSnapshot: cur.snapshot ?? '',
              dueAt: null,
            },
      ),
    );
    return { calls: 1, tracks: 0 };
  }
  const tracks = page.tracks.map((t) => toLibraryTrack(t)).filter((t): t is LibraryTrack => t !== null);
  const end = page.next === null || page.pageSize === 0;
  await c.repo.inScan(userId, async (q) => {
    await q.upsertArtists(artistsOf(tracks));
    await q.upsertTracks(tracks);
    const added = await q.addSourceTracks(
      s.id,
      cur.pass,
      tracks.map((t, i) => ({ trackId: t.id, addedAt: null, position: cur.offset + i })),
    );
    if (added > 0) await q.markArtistsStale(userId);
    const progress = pageProgress(s, starting, tracks.length, page.total);
    if (!end) {
      await q.updateSource(userId, s.id, {
        ...progress,
        state: 'scanning',
        cursor: { ...cur, offset: cur.offset + page.pageSize } as unknown as Record<string, unknown>,
      });
      return;
    }
    if ((await q.sweepSourceTracks(s.id, cur.pass)) > 0) await q.markArtistsStale(userId);
    await q.updateSource(userId, s.id, {
      ...progress,
      state: 'idle',
      cursor: null,
      pass: cur.pass,
      readSnapshot: cur.snapshot ?? '',
      lastFinishedAt: new Date(),
      fullReadAt: new Date(),
    });
  });
  await c.queueTempo(
    userId,
    tracks.map((t) => t.id),
    { ownLibrary: true },
  );
  return { calls: 1, tracks: tracks.length };
}
