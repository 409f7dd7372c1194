// Followed artists, by Spotify's cursor (`after`), 50 per step. A rescan reads the first page and stops
// when nothing changed (no artist new to us and Spotify's total equals ours); otherwise, and at least
// once per `fullReadEveryMs`, it reads every page and then drops artists no longer followed.
import type { SourceRow } from './library.repository.ts';
import {
  PAGE,
  type FollowedCursor,
  type ScanContext,
  type StepResult,
  pageProgress,
} from './scan-context.ts';

export async function followedStep(c: ScanContext, userId: string, s: SourceRow): Promise<StepResult> {
  const starting = s.cursor === null;
  const fresh = s.fullReadAt !== null && Date.now() - s.fullReadAt.getTime() < c.settings.fullReadEveryMs;
  const cur: FollowedCursor = starting
    ? { mode: fresh ? 'check' : 'full', after: null, pass: s.pass + 1, position: 0 }
    : (s.cursor as unknown as FollowedCursor);
  // The first read since the runner connected is not held by their share of the day. Its first pages go
  // with the first pages of Liked Songs (`first_pages`): the followed artists are whose catalogs make most
  // of a new runner's first 50, and no catalog is read before them (scan.service.ts planNext). At
  // `library_scan` they waited behind every runner's first writes: bench:crowd at 1,000 runners read 22 to
  // 119 runners' followed artists in 41 minutes, and as many runners reached 50 as were read.
  const first = cur.pass === 1 && cur.position < c.settings.interactivePages * PAGE;
  const page = await c
    .api(
      first
        ? { userId, purpose: 'scan:followed-first', priority: 'first_pages', firstRead: true }
        : { userId, purpose: 'scan:followed', priority: 'library_scan', firstRead: cur.pass === 1 },
    )
    .followedArtists(cur.after ?? undefined, PAGE);
  const artists = page.items.map((a) => ({ id: a.id, name: (a.name ?? '').slice(0, 500) }));
  const end = page.next === null || page.after === null || page.pageSize === 0;

  await c.repo.inScan(userId, async (q) => {
    await q.upsertArtists(artists);
    const added = await q.addSourceArtists(
      s.id,
      cur.pass,
      artists.map((a, i) => ({ artistId: a.id, position: cur.position + i })),
    );
    if (added > 0) await q.markArtistsStale(userId);
    const progress = pageProgress(s, starting, artists.length, page.total);
    const unchanged =
      cur.mode === 'check' && added === 0 && (await q.countSourceArtists(s.id)) === page.total;
    if (unchanged || end) {
      const full = cur.mode === 'full' || !unchanged;
      if (full && (await q.sweepSourceArtists(s.id, cur.pass)) > 0) await q.markArtistsStale(userId);
      await q.updateSource(userId, s.id, {
        ...progress,
        state: 'idle',
        cursor: null,
        pass: cur.pass,
        lastFinishedAt: new Date(),
        ...(full ? { fullReadAt: new Date() } : {}),
      });
      return;
    }
    const next: FollowedCursor = {
      mode: 'full',
      after: page.after,
      pass: cur.pass,
      position: cur.position + page.pageSize,
    };
    await q.updateSource(userId, s.id, {
      ...progress,
      state: 'scanning',
      cursor: next as unknown as Record<string, unknown>,
    });
  });
  return { calls: 1, tracks: 0 };
}
