// Library scans against the simulated Spotify (in-process sandbox) on the real test PostgreSQL: each
// source kind, both API shapes, odd items, and what the status page shows. The world's seed is this
// file's own, so its ids (and shared catalog rows) are not another test file's.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { targetDescription } from '../playlists/matching.ts';
import { TEMPO_PRIORITY } from '../tempo/tempo.jobs.ts';
import { catalogQueries } from './catalog.repository.ts';
import { TEMPO_REQUEUE_MS } from './scan-context.ts';
import { NO_COMPANY_WAIT_MS } from './scan.service.ts';
import { startLibraryHarness, type LibraryHarness, type LibraryProcess } from '../../test/library-harness.ts';

let h: LibraryHarness;
let p: LibraryProcess;
beforeAll(async () => {
  h = await startLibraryHarness({ seed: 10_101 });
  p = h.libraryProcess();
});
afterAll(() => h.close());
beforeEach(() => {
  h.sandbox.admin.setConfig({ faults: [], extendedQuota: false, dailyQuota: false });
});

const sourcesOf = async (userId: string) =>
  (await p.library.service.sources(userId, { timeZone: null })).sources;

describe('a library scan', () => {
  it('lists every source on connect, reads them all, and queues tempo lookups Liked Songs first', async () => {
    const userId = await h.connect(p, 'ana.runs');
    const before = await sourcesOf(userId);
    expect(before.map((s) => s.kind)).toEqual(['liked_songs', 'followed_artists', 'artist_catalogs']);
    expect(before[0]!.stats).toEqual({});
    expect(before[0]!.progress.state).toBe('scanning');

    await h.drain(p, userId);
    const sources = await sourcesOf(userId);
    const ana = h.sandbox.admin.user('ana.runs');
    const playlists = sources.filter((s) => s.kind === 'playlist');
    expect(playlists.map((s) => s.source_id).sort()).toEqual(ana.playlists.map((x) => x.id).sort());
    // Owned and collaborative playlists are enabled; the editorial one Ana only follows is not.
    for (const pl of ana.playlists) {
      const s = playlists.find((x) => x.source_id === pl.id)!;
      const readable = pl.owner === 'ana.runs' || pl.collaborative;
      expect(s.enabled, pl.name).toBe(readable);
      expect(s.can_enable).toBe(readable);
      if (!readable) {
        expect(s.progress.state).toBe('unreadable');
        expect(s.front_tooltip).toContain('only playlists you own or collaborate on');
      }
    }
    const liked = sources.find((s) => s.kind === 'liked_songs')!;
    expect(liked.stats.known_tracks).toBe(ana.likedSongs);
    expect(liked.timestamp_last_job_finished).toBeGreaterThan(Date.now() / 1000 - 60);
    expect(liked.timestamp_last_job_finished_str).toMatch(/\d{4}/);
    expect(liked.progress.state).toBe('idle');

    // Tempo lookups: every liked song, for this user, before any playlist-only track.
    const mine = h.tempoQueued.filter((q) => q.userId === userId).map((q) => q.track.spotifyId);
    const likedSet = h.likedIds('ana.runs');
    expect(mine.slice(0, likedSet.length).sort()).toEqual([...likedSet].sort());
    expect(new Set(mine).size).toBe(mine.length); // queued once each
  });

  it('looks up a new library’s first Liked Songs page, then its next 3, before every other runner’s own tracks', async () => {
    const u = h.spotifyUser({ liked: 230, favouriteArtists: 2 });
    const userId = await h.connect(p, u.id);
    await h.drain(p, userId);
    // The first 50 liked (newest first), the next 150 (both read at the interactive priority), the other
    // 30 liked, the rest. (A track another test's runner had queued is not queued again: the catalog is
    // shared.)
    const liked = h.likedIds(u.id);
    const firstPage = new Set(liked.slice(0, 50));
    const first = new Set(liked.slice(50, 200));
    const later = new Set(liked.slice(200));
    const mine = h.tempoQueued.filter((q) => q.userId === userId);
    const of = (set: (id: string) => boolean) =>
      new Set(mine.filter((q) => set(q.track.spotifyId)).map((q) => q.priority));
    expect(of((id) => firstPage.has(id))).toEqual(new Set([TEMPO_PRIORITY.firstPage]));
    expect(of((id) => first.has(id))).toEqual(new Set([TEMPO_PRIORITY.firstPages]));
    expect(of((id) => later.has(id))).toEqual(new Set([TEMPO_PRIORITY.ownLibrary]));
    // Their artists' catalogs: before the catalogs of runners past their first 50 (none placed here yet),
    // while fewer than 300 of their catalog tracks (queued as such, not their 230 liked songs) wait for a
    // lookup (none is answered here); beyond, as those, never back (how many are new to the file's shared
    // catalog decides whether 300 is reached here: library.catalog-eq.sandbox.test.ts has the switch).
    const catalog = mine.filter((q) => !firstPage.has(q.track.spotifyId) && !first.has(q.track.spotifyId));
    const catalogOnly = catalog.filter((q) => !later.has(q.track.spotifyId));
    const firstOnes = catalogOnly.filter((q) => q.priority === TEMPO_PRIORITY.firstCatalog);
    expect(firstOnes.length).toBeGreaterThan(0);
    expect(catalogOnly.slice(0, firstOnes.length)).toEqual(firstOnes);
    expect(
      catalogOnly.every(
        (q) => q.priority === TEMPO_PRIORITY.firstCatalog || q.priority === TEMPO_PRIORITY.catalog,
      ),
    ).toBe(true);
  });

  it('queues a newcomer’s liked songs again at their priority when another runner queued them lower', async () => {
    // Friends share songs: Bo likes songs of Ann's playlist, which Ann's scan queued at her own library's
    // priority, behind every runner's first pages. Left there, Bo's first playlists would wait for them.
    const ann = h.spotifyUser({ liked: 5, owned: 1, ownedSize: [20, 20], favouriteArtists: 1 });
    const annId = await h.connect(p, ann.id);
    await h.drain(p, annId);
    const annsOwn = h.tempoQueued
      .filter((q) => q.userId === annId && q.priority === TEMPO_PRIORITY.ownLibrary)
      .map((q) => q.track.spotifyId);
    // (Fewer than the playlist holds: tracks the file's earlier runners queued are not queued again.)
    expect(annsOwn.length).toBeGreaterThanOrEqual(3);
    const bo = h.spotifyUser({ liked: 0 });
    h.sandbox.admin.like(bo.id, annsOwn);
    const boId = await h.connect(p, bo.id);
    await h.drain(p, boId);
    const again = h.tempoQueued.filter((q) => q.userId === boId && annsOwn.includes(q.track.spotifyId));
    expect(new Set(again.map((q) => q.track.spotifyId))).toEqual(new Set(annsOwn));
    expect(new Set(again.map((q) => q.priority))).toEqual(new Set([TEMPO_PRIORITY.firstPage]));
    // Queued at that priority once: asked again at it (or lower) within the day, they are not queued again.
    const catalog = catalogQueries(h.db.db);
    expect(await catalog.tracksNeedingTempo(annsOwn, TEMPO_REQUEUE_MS, TEMPO_PRIORITY.firstPages)).toEqual(
      [],
    );
    expect(await catalog.tracksNeedingTempo(annsOwn, TEMPO_REQUEUE_MS, TEMPO_PRIORITY.ownLibrary)).toEqual(
      [],
    );
  });

  it('reads a playlist with local files, a removed track and a duplicate, skipping what is not a track', async () => {
    const owner = h.spotifyUser({
      liked: 5,
      owned: 1,
      ownedSize: [8, 8],
      localFiles: true,
      favouriteArtists: 3,
    });
    const userId = await h.connect(p, owner.id);
    await h.drain(p, userId);
    const pl = owner.playlists[0]!;
    const items = h.sandbox.admin.playlistItems(pl.id);
    expect(items.filter((x) => x === null).length).toBe(3); // two local files and a removed track
    const tracks = new Set(items.filter((x): x is string => x !== null));
    const source = (await sourcesOf(userId)).find((s) => s.source_id === pl.id)!;
    expect(source.stats.known_tracks).toBe(tracks.size);
    expect(source.progress.state).toBe('idle');
    const candidates = await p.library.listMatchCandidates(userId);
    for (const id of tracks) expect(candidates.some((c) => c.trackId === id)).toBe(true);
  });

  it('queues again, when the scan is idle, tempo lookups that were lost', async () => {
    const u = h.spotifyUser({ liked: 20, favouriteArtists: 2 });
    const userId = await h.connect(p, u.id);
    await h.drain(p, userId);
    const ids = h.likedIds(u.id);
    // As if the jobs had been cancelled two days ago (another user's disconnect) or never sent (a crash).
    await h.db.db.execute(
      sql`update library_tracks set tempo_queued_at = now() - interval '2 days' where id in ${ids}`,
    );
    const before = h.tempoQueued.length;
    const out = await p.library.scans.runUnit(userId);
    expect(out.detail?.['tempoRequeued']).toBeGreaterThanOrEqual(ids.length);
    const again = new Set(h.tempoQueued.slice(before).map((q) => q.track.spotifyId));
    for (const id of ids) expect(again.has(id)).toBe(true);
    // Queued again now: the next idle unit leaves them alone.
    const next = await p.library.scans.runUnit(userId);
    expect(next.detail?.['tempoRequeued'] ?? 0).toBe(0);
  });

  it('queues again, once, the lookups whose answer has a retry time that has passed (unknown, or not yet checked)', async () => {
    const u = h.spotifyUser({ liked: 12, favouriteArtists: 2 });
    const userId = await h.connect(p, u.id);
    await h.drain(p, userId);
    const ids = h.likedIds(u.id);
    const [due, later, settled] = [ids.slice(0, 4), ids.slice(4, 8), ids.slice(8)];
    // Answers cached after the lookups were queued: a tempo nobody could check yet (retry time passed),
    // an unknown to retry tomorrow, and settled tempos (no retry time).
    const answer = (tracks: string[], retry: ReturnType<typeof sql> | null) =>
      h.db.db.execute(sql`
        insert into tempo_recordings (key, bpm, source, confidence, retry_at, resolved_at)
        select recording_key, 170, 'reccobeats', 0.7, ${retry ?? sql`null`}, now() - interval '7 hours'
        from library_tracks where id in ${tracks}
        on conflict (key) do update set retry_at = excluded.retry_at, resolved_at = excluded.resolved_at`);
    await h.db.db.execute(
      sql`update library_tracks set tempo_queued_at = now() - interval '8 hours' where id in ${ids}`,
    );
    await answer(due, sql`now() - interval '1 hour'`);
    await answer(later, sql`now() + interval '1 day'`);
    await answer(settled, null);
    const before = h.tempoQueued.length;
    await p.library.scans.runUnit(userId);
    const again = h.tempoQueued.slice(before).map((q) => q.track.spotifyId);
    expect(again.filter((id) => ids.includes(id)).sort()).toEqual([...due].sort());
    // Queued since the retry time: the next idle unit leaves them alone.
    const next = h.tempoQueued.length;
    await p.library.scans.runUnit(userId);
    expect(h.tempoQueued.slice(next).filter((q) => ids.includes(q.track.spotifyId))).toEqual([]);
  });

  it('counts the artist catalogs by release: "so far" while listings are read, then of every release listed', async () => {
    const u = h.spotifyUser({ liked: 12, favouriteArtists: 3 });
    const userId = await h.connect(p, u.id);
    const catalogs = async () => (await sourcesOf(userId)).find((s) => s.kind === 'artist_catalogs')!;
    // Releases linked to the artists of the user's liked songs, and how many of them are wholly read.
    const inDb = async () => {
      const r = await h.db.db.execute<{ listed: number; read: number }>(sql`
        select count(distinct r.id)::int as listed, count(distinct r.id) filter (where r.read_at is not null)::int as read
        from library_source_tracks st
        join library_sources s on s.id = st.source_ref and s.user_id = ${userId}
        join library_tracks t on t.id = st.track_id
        cross join lateral unnest(t.artist_ids) as x(artist_id)
        join library_artist_releases ar on ar.artist_id = x.artist_id
        join library_releases r on r.id = ar.release_id`);
      return r.rows[0]!;
    };
    // Part way: some releases read, not every catalog whole.
    let partial = false;
    for (let i = 0; i < 200 && !partial; i++) {
      await p.library.scans.runUnit(userId);
      const { progress } = await catalogs();
      const db = await inDb();
      if (progress.state !== 'scanning' || db.read === 0) continue;
      partial = true;
      expect(progress.items_read).toBe(db.read);
      if (progress.items_total !== null) expect(progress.items_total).toBe(db.listed);
    }
    expect(partial).toBe(true);

    await h.drain(p, userId);
    const done = await catalogs();
    const db = await inDb();
    expect(db.listed).toBeGreaterThan(3);
    expect(done.progress).toMatchObject({ state: 'idle', items_read: db.listed, items_total: db.listed });
    expect(done.front_tooltip).toMatch(/: (\d+) of \1 catalogs read so far/);
  });

  it('recounts at a pass’s end that made no call: the last catalog’s releases were read for another runner', async () => {
    const u = h.spotifyUser({ liked: 12, favouriteArtists: 2 });
    const userId = await h.connect(p, u.id);
    await h.drain(p, userId);
    const state = async () =>
      (await sourcesOf(userId)).find((s) => s.kind === 'artist_catalogs')!.progress.state;
    expect(await state()).toBe('idle');
    // One of their artists with every release read (for someone else) but its catalog not marked read yet.
    const { rows } = await h.db.db.execute<{ id: string }>(sql`
      update library_artists set catalog_read_at = null
      where id = (select artist_id from library_user_artists where user_id = ${userId} limit 1)
      returning id`);
    expect(rows).toHaveLength(1);
    await p.library.service.countsChanged(userId);
    expect(await state()).toBe('scanning');
    // The pass marks it read without a Spotify call, and the status page shows the catalogs done.
    const out = await p.library.scans.runUnit(userId);
    expect(out.detail).toMatchObject({ calls: 0, idle: true });
    expect(await state()).toBe('idle');
  });

  it('the schedule gives a library to a connected user who has none, and rescans the others', async () => {
    const u = h.spotifyUser({ liked: 10, favouriteArtists: 2 });
    const userId = await h.connect(p, u.id);
    await p.library.service.gone(userId); // as if connected before libraries existed
    const out = await p.library.service.requestDueRescans();
    expect(out.created).toBeGreaterThanOrEqual(1);
    await h.drain(p, userId);
    expect((await sourcesOf(userId))[0]!.stats.known_tracks).toBe(10);
    // Just asked: not due again before LIBRARY_RESCAN_HOURS.
    await p.library.service.requestDueRescans();
    expect((await p.library.service.requestDueRescans()).created).toBe(0);
  });

  it("never lists Pacebeat's own target playlists as sources, and tells when tracks were added", async () => {
    const u = h.spotifyUser({ liked: 5, owned: 2, favouriteArtists: 2 });
    const target = h.sandbox.admin.createPlaylist(u.id, { name: 'Pacebeat 170–180 BPM' });
    // Made by an earlier connection (its target erased on disconnect), renamed by the runner since, and
    // one left with its default name and description.
    const renamed = h.sandbox.admin.createPlaylist(u.id, {
      name: 'Tempo runs 175',
      description: targetDescription(170, 180),
    });
    const earlier = h.sandbox.admin.createPlaylist(u.id, { name: 'Pacebeat 150–160 BPM' });
    // Someone else's playlist of that name is theirs to share: a source like any other.
    const friend = h.spotifyUser({ liked: 1 });
    const shared = h.sandbox.admin.createPlaylist(friend.id, {
      name: 'Pacebeat 160–170 BPM',
      collaborators: [u.id],
    });
    const q = h.libraryProcess({ targetPlaylistIds: async () => new Set([target.id]) });
    const userId = await h.connect(q, u.id, { catalogs: false });
    await h.drain(q, userId);
    const ids = (await q.library.service.sources(userId, { timeZone: null })).sources.map((s) => s.source_id);
    expect(ids).not.toContain(target.id);
    expect(ids).not.toContain(renamed.id);
    expect(ids).not.toContain(earlier.id);
    expect(ids).toContain(shared.id);
    for (const pl of u.playlists) expect(ids).toContain(pl.id);
    expect(h.tracksAdded).toContain(userId);
  });

  it('keeps the runner’s own playlists, Pacebeat’s too, for the writer once discovery has read them whole', async () => {
    // 52 of their own: two pages of `GET /me/playlists`, gathered into one list.
    const u = h.spotifyUser({ liked: 2, owned: 52 });
    const earlier = h.sandbox.admin.createPlaylist(u.id, {
      name: 'Tempo runs 175',
      description: targetDescription(170, 180),
    });
    const friend = h.spotifyUser({ liked: 1 });
    const shared = h.sandbox.admin.createPlaylist(friend.id, { name: 'Mix', collaborators: [u.id] });
    const userId = await h.connect(p, u.id, { catalogs: false });
    expect(await p.library.ownPlaylistsSeen(userId)).toBeNull(); // not read yet
    await h.drain(p, userId);
    const seen = (await p.library.ownPlaylistsSeen(userId))!;
    expect(seen.map((x) => x.id).sort()).toEqual([...u.playlists.map((x) => x.id), earlier.id].sort());
    expect(seen.map((x) => x.id)).not.toContain(shared.id);
    expect(seen.find((x) => x.id === earlier.id)).toMatchObject({
      name: 'Tempo runs 175',
      description: targetDescription(170, 180),
    });
    // A connect again: read anew for this connection before the writer takes it.
    const tokens = h.sandbox.admin.connect({ userId: u.id });
    await p.spotify.connect.connect(userId, { ...tokens, refresh_token: tokens.refresh_token! });
    expect(await p.library.ownPlaylistsSeen(userId)).toBeNull();
    await h.drain(p, userId);
    expect((await p.library.ownPlaylistsSeen(userId))?.length).toBe(seen.length);
  });

  it('says when the library is read: not before its scan or while an artist’s catalog is unread, yes after', async () => {
    const u = h.spotifyUser({ liked: 20, favouriteArtists: 2 });
    const userId = await h.connect(p, u.id);
    expect(await p.library.scans.readDone(userId)).toBe(false);
    await h.drain(p, userId);
    expect(await p.library.scans.readDone(userId)).toBe(true);
    // An artist's catalog to read again (a new release's listing): not read until it is.
    await h.db.db.execute(
      sql`update library_artists set catalog_read_at = null
          where id = (select artist_id from library_user_artists where user_id = ${userId} limit 1)`,
    );
    expect(await p.library.scans.readDone(userId)).toBe(false);
    await h.drain(p, userId);
    expect(await p.library.scans.readDone(userId)).toBe(true);
    expect(await p.library.scans.readDone('00000000-0000-4000-8000-000000000000')).toBe(false);
  });

  it('says no more is read soon when Spotify put the next step off for hours, not for a rate limit’s seconds', async () => {
    const u = h.spotifyUser({ liked: 20, favouriteArtists: 2 });
    const userId = await h.connect(p, u.id);
    await h.drain(p, userId);
    // A rescan of Liked Songs due, and what a SpotifyDeferredError leaves on the step's source
    // (scan.service.ts): when it may go on.
    const putOff = (ms: number) =>
      h.db.db.execute(
        sql`update library_sources set due_at = now() - interval '1 second',
              resumes_at = now() + ${`${ms} milliseconds`}::interval
            where user_id = ${userId} and kind = 'liked_songs'`,
      );
    await putOff(30_000);
    expect(await p.library.scans.readDone(userId)).toBe(false);
    // The day's quota or the runner's share: the rest comes tomorrow.
    await putOff(NO_COMPANY_WAIT_MS + 60_000);
    expect(await p.library.scans.readDone(userId)).toBe(true);
  });
});
