// Liked Songs, newest first, one page of 50 per step. The first pass reads every page (its first pages
// at the interactive priority: a user who just connected is waiting for their first playlists); later
// passes stop at the first page that holds nothing new. When Spotify's total and ours disagree
// (songs unliked), a full pass, at most once per `fullReadEveryMs`, drops what is gone.
import type { SourceRow } from './library.repository.ts';
import { artistsOf, toLibraryTrack, type LibraryTrack } from './spotify-items.ts';
import { PAGE, type LikedCursor, type ScanContext, type StepResult, pageProgress } from './scan-context.ts';

export async function likedStep(c: ScanContext, userId: string, s: SourceRow): Promise<StepResult> {
  const now = Date.now();
  const starting = s.cursor === null;
  const fullDue = s.fullReadAt === null;
  const cur: LikedCursor = starting
    ? { mode: fullDue ? 'full' : 'new', offset: 0, pass: fullDue ? s.pass + 1 : s.pass }
    : (s.cursor as unknown as LikedCursor);
  const firstEver = cur.mode === 'full' && cur.pass === 1 && cur.offset < c.settings.interactivePages * PAGE;
  // The first full pass since the runner connected (again) is not held by their share of the day.
  const firstRead = cur.mode === 'full' && cur.pass === 1;
  const page = await c
    .api(
      firstEver
        ? { userId, purpose: 'scan:liked-first', priority: 'first_pages', firstRead }
        : { userId, purpose: 'scan:liked', priority: 'library_scan', firstRead },
    )
    .savedTracks(cur.offset, PAGE);

  const entries: Array<{ track: LibraryTrack; addedAt: Date | null }> = [];
  for (const item of page.items) {
    const track = toLibraryTrack(item.track);
    if (!track) continue;
    const added = item.added_at ? new Date(item.added_at) : null;
    entries.push({ track, addedAt: added && !Number.isNaN(added.getTime()) ? added : null });
  }
  const tracks = entries.map((e) => e.track);
  const end = page.next === null || page.pageSize === 0;

  await c.repo.inScan(userId, async (q) => {
    await q.upsertArtists(artistsOf(tracks));
    await q.upsertTracks(tracks);
    const added = await q.addSourceTracks(
      s.id,
      cur.pass,
      entries.map((e, i) => ({ trackId: e.track.id, addedAt: e.addedAt, position: cur.offset + i })),
    );
    if (added > 0) await q.markArtistsStale(userId);
    const progress = {
      ...pageProgress(
        s,
        starting,
        tracks.length,
        page.total,
        cur.mode === 'full' ? Math.ceil(page.total / PAGE) : null,
      ),
      state: 'scanning' as const,
    };
    if (!end && !(cur.mode === 'new' && added === 0)) {
      await q.updateSource(userId, s.id, {
        ...progress,
        cursor: { ...cur, offset: cur.offset + page.pageSize } as unknown as Record<string, unknown>,
      });
      return;
    }
    // The pass ends here.
    if (cur.mode === 'full' && (await q.sweepSourceTracks(s.id, cur.pass)) > 0)
      await q.markArtistsStale(userId);
    const held = await q.countSourceTracks(s.id);
    const fullReadAt = cur.mode === 'full' ? new Date() : s.fullReadAt;
    // We hold more than Spotify lists: songs were unliked. Read everything again to drop them, but not
    // more often than the setting (fewer held than listed is odd items: local files, unplayable ones).
    const stale =
      cur.mode === 'new' &&
      held > page.total &&
      (s.fullReadAt === null || now - s.fullReadAt.getTime() >= c.settings.fullReadEveryMs);
    await q.updateSource(userId, s.id, {
      ...progress,
      cursor: null,
      pass: cur.pass,
      state: 'idle',
      lastFinishedAt: new Date(),
      fullReadAt: stale ? null : fullReadAt,
      ...(stale ? { dueAt: new Date() } : {}),
    });
  });
  await c.queueTempo(
    userId,
    tracks.map((t) => t.id),
    { ownLibrary: true, firstPages: firstEver, firstPage: firstEver && cur.offset === 0 },
  );
  return { calls: 1, tracks: tracks.length };
}
