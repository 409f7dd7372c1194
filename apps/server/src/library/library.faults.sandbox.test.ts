// Scans that stop half-way and resume: a 429, the daily quota, a worker that dies between two pages,
// a user Spotify does not serve, a source switched off and on, a disconnect during a scan; and the
// extended-quota shapes. "No page read twice" is checked in the sandbox's request log.
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { libraryUsers } from '../db/library.schema.ts';
import { DISABLED_REASONS, SpotifyDeferredError } from '../spotify/errors.ts';
import { startLibraryHarness, type LibraryHarness, type LibraryProcess } from '../../test/library-harness.ts';

let h: LibraryHarness;
beforeAll(async () => {
  h = await startLibraryHarness({ seed: 10_505 });
});
afterAll(() => h.close());
beforeEach(() => {
  h.sandbox.admin.setConfig({ faults: [], extendedQuota: false, dailyQuota: false });
});

/** One page per unit, no catalogs: the tests step through Liked Songs page by page. */
const stepper = () => h.libraryProcess({ settings: { callsPerUnit: 1 } });
const likedPages = (spotifyUserId: string) =>
  h
    .apiRequests(spotifyUserId)
    .filter((r) => r.url.includes('/me/tracks'))
    .map((r) => r.url);
const dupes = (urls: string[]) => urls.filter((u, i) => urls.indexOf(u) !== i);
const noCatalogs = async (p: LibraryProcess, userId: string) => {
  for (const kind of ['artist_catalogs', 'followed_artists'] as const)
    await p.library.service.changeSource(
      userId,
      { kind, source_id: kind, enabled: false },
      { timeZone: null },
    );
};
const liked = async (p: LibraryProcess, userId: string) =>
  (await p.library.service.sources(userId, { timeZone: null })).sources.find(
    (s) => s.kind === 'liked_songs',
  )!;

describe('a scan that stops half-way', () => {
  it('on a 429 shows "waiting", then resumes where it stopped: no page read twice', async () => {
    const u = h.spotifyUser({ liked: 180, favouriteArtists: 4 });
    const p = stepper();
    const userId = await h.connect(p, u.id);
    await noCatalogs(p, userId);
    await p.library.scans.runUnit(userId); // discovery
    await p.library.scans.runUnit(userId); // Liked Songs page 1
    h.sandbox.admin.setConfig({
      faults: [
        {
          kind: 'status',
          status: 429,
          service: 'spotify-api',
          path: '/me/tracks',
          times: 1,
          retryAfterSeconds: 1,
        },
      ],
    });
    const err = await p.library.scans.runUnit(userId).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpotifyDeferredError);
    expect((err as SpotifyDeferredError).reason).toBe('rate');
    expect((await liked(p, userId)).progress.state).toBe('waiting');
    // The job is queued again for when Spotify allows (runJob); here a new process stands for that
    // later run (the 429 also taught this process's budget a lower rate, which would take 30 s).
    const later = stepper();
    const { deferred } = await h.drain(later, userId);
    expect(deferred).toBeUndefined();
    const pages = likedPages(u.id);
    expect(pages).toHaveLength(4);
    expect(dupes(pages)).toEqual([]);
    expect((await liked(later, userId)).stats.known_tracks).toBe(180);
  });

  it('on QUOTA_EXCEEDED waits for the quota, then the next day resumes with no page read twice', async () => {
    const u = h.spotifyUser({ liked: 230, favouriteArtists: 4 });
    const p = stepper();
    const userId = await h.connect(p, u.id);
    await noCatalogs(p, userId);
    const used = h.sandbox.admin.usage().dailyQuotaUsed;
    h.sandbox.admin.setConfig({
      dailyQuota: { windowSeconds: 86_400, maxRequests: used + 3, minRetryAfterSeconds: 13 * 3600 },
    });
    const { deferred } = await h.drain(p, userId);
    expect(deferred!.getTime() - Date.now()).toBeGreaterThan(12 * 3600_000);
    const waiting = await liked(p, userId);
    expect(waiting.progress).toMatchObject({ state: 'waiting', pages_read: 2 });
    expect(waiting.progress.resumes_at! * 1000).toBeGreaterThan(Date.now() + 12 * 3600_000);
    // A day later (the sandbox's clock; a new process stands for the waiting job's own time passing).
    h.sandbox.admin.advanceClock(86_400);
    const next = stepper();
    expect((await h.drain(next, userId)).deferred).toBeUndefined();
    const ok = h.sandbox.admin
      .requests({ service: 'spotify-api', userId: u.id })
      .filter((r) => r.url.includes('/me/tracks'));
    expect(ok.filter((r) => r.status === 429)).toHaveLength(1);
    const pages = ok.filter((r) => r.status === 200).map((r) => r.url);
    expect(pages).toHaveLength(5);
    expect(dupes(pages)).toEqual([]);
    expect((await liked(next, userId)).stats.known_tracks).toBe(230);
  });

  it('after a worker died between two pages, a new one continues at the next page', async () => {
    const u = h.spotifyUser({ liked: 160, owned: 1, ownedSize: [60, 70], favouriteArtists: 4 });
    const first = stepper();
    const userId = await h.connect(first, u.id);
    await noCatalogs(first, userId);
    for (let i = 0; i < 3; i++) await first.library.scans.runUnit(userId); // discovery, 2 pages
    // The process is gone: nothing of it is used again, only what is in PostgreSQL.
    const second = stepper();
    await h.drain(second, userId);
    const all = h
      .apiRequests(u.id)
      .map((r) => r.url)
      .filter((x) => !x.endsWith('/me'));
    expect(dupes(all)).toEqual([]);
    expect((await liked(second, userId)).stats.known_tracks).toBe(160);
  });
});

describe('a user Spotify no longer serves', () => {
  it('stops the scan and shows the disabled alert; no unit calls Spotify again', async () => {
    const u = h.spotifyUser({ liked: 120, favouriteArtists: 3 });
    const p = stepper();
    const userId = await h.connect(p, u.id);
    await p.library.scans.runUnit(userId);
    h.sandbox.admin.setRegistered(u.id, false);
    const out = await p.library.scans.runUnit(userId);
    expect(out).toMatchObject({ status: 'skipped', detail: { reason: 'disabled' } });
    const status = await p.spotify.connect.status(userId);
    expect(status.disabled_services).toEqual([
      { service: 'spotify', reason: DISABLED_REASONS.notRegistered },
    ]);
    expect((await liked(p, userId)).progress.state).toBe('failed');
    const calls = h.sandbox.admin.requests({ service: 'spotify-api', userId: u.id }).length;
    expect(await p.library.scans.runUnit(userId)).toMatchObject({ status: 'skipped' });
    expect(await p.library.service.requestDueRescans()).toBeDefined();
    expect(h.sandbox.admin.requests({ service: 'spotify-api', userId: u.id })).toHaveLength(calls);
  });
});

describe('switching a source', () => {
  it('off stops its scan and takes its tracks out of matching; on continues where it stopped', async () => {
    const u = h.spotifyUser({ liked: 200, favouriteArtists: 4 });
    const p = stepper();
    const userId = await h.connect(p, u.id);
    await noCatalogs(p, userId);
    for (let i = 0; i < 3; i++) await p.library.scans.runUnit(userId); // discovery, 2 pages
    const change = (enabled: boolean) =>
      p.library.service.changeSource(
        userId,
        { kind: 'liked_songs', source_id: 'liked_songs', enabled },
        { timeZone: null },
      );
    expect((await change(false)).enabled).toBe(false);
    await h.drain(p, userId);
    expect(likedPages(u.id)).toHaveLength(2);
    expect(await p.library.listMatchCandidates(userId)).toEqual([]);
    await change(true);
    await h.drain(p, userId);
    const pages = likedPages(u.id);
    expect(pages[2]).toContain('offset=100');
    expect(pages).toHaveLength(4);
    expect(dupes(pages)).toEqual([]);
    expect((await p.library.listMatchCandidates(userId)).filter((c) => c.fromLikedSongs)).toHaveLength(200);
  });
});

describe('disconnect during a scan', () => {
  it('deletes the library; the page in flight writes nothing and no unit runs again', async () => {
    const u = h.spotifyUser({ liked: 150, owned: 1, favouriteArtists: 3 });
    const p = stepper();
    const userId = await h.connect(p, u.id);
    await p.library.scans.runUnit(userId); // discovery
    h.sandbox.admin.setConfig({
      faults: [{ kind: 'slow', delayMs: 600, service: 'spotify-api', path: '/me/tracks', times: 1 }],
    });
    const inFlight = p.library.scans.runUnit(userId);
    await new Promise((r) => setTimeout(r, 200));
    await p.spotify.connect.disconnect(userId);
    expect(await inFlight).toMatchObject({ status: 'skipped' });
    expect(await h.db.db.select().from(libraryUsers).where(eq(libraryUsers.userId, userId))).toEqual([]);
    expect((await p.library.service.sources(userId, { timeZone: null })).sources).toEqual([]);
    expect(await p.library.listMatchCandidates(userId)).toEqual([]);
    const calls = h.sandbox.admin.requests({ service: 'spotify-api', userId: u.id }).length;
    expect(await p.library.scans.runUnit(userId)).toMatchObject({ status: 'skipped' });
    expect(h.sandbox.admin.requests({ service: 'spotify-api', userId: u.id })).toHaveLength(calls);
  });
});

describe('extended-quota shapes', () => {
  it('reads the same library from the old field names (tracks, track)', async () => {
    h.sandbox.admin.setConfig({ extendedQuota: true });
    const u = h.spotifyUser({ liked: 60, owned: 2, localFiles: true, favouriteArtists: 3 });
    const p = h.libraryProcess();
    const userId = await h.connect(p, u.id);
    await noCatalogs(p, userId);
    await h.drain(p, userId);
    const sources = (await p.library.service.sources(userId, { timeZone: null })).sources;
    expect(sources.find((s) => s.kind === 'liked_songs')!.stats.known_tracks).toBe(60);
    for (const pl of u.playlists) {
      const tracks = new Set(h.sandbox.admin.playlistItems(pl.id).filter((x): x is string => x !== null));
      expect(sources.find((s) => s.source_id === pl.id)!.stats.known_tracks).toBe(tracks.size);
    }
  });
});
