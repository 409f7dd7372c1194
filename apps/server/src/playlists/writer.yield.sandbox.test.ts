// What each of the writer's Spotify calls carries: once a runner has their first songs, an add waits for
// company as long as Spotify's rate is busy; the checks and reads around the adds are made once.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  catalogTracksIn,
  seedTrueTempos,
  startPlaylistHarness,
  type PlaylistHarness,
  type Runner,
} from '../../test/playlists-harness.ts';
import { SpotifyDeferredError } from '../spotify/errors.ts';
import { targetDescription } from './matching.ts';
import type { PlaylistWriterDeps } from './writer.ts';

let ph: PlaylistHarness;
beforeAll(async () => {
  ph = await startPlaylistHarness();
}, 120_000);
afterAll(() => ph.close());

const adds = (r: Runner) =>
  ph.h.sandbox.admin
    .requests({ service: 'spotify-api', userId: r.spotifyUserId })
    .filter((x) => x.method === 'POST' && /\/playlists\/\w+\/items$/.test(x.url.split('?')[0]!));

/** The runner's reads of their playlists (`GET /me/playlists`), as the simulated Spotify logged them. */
const looks = (r: Runner) =>
  ph.h.sandbox.admin
    .requests({ service: 'spotify-api', userId: r.spotifyUserId })
    .filter((x) => x.method === 'GET' && x.url.split('?')[0]!.endsWith('/me/playlists')).length;

const HOUR = 3600_000;

describe('an add once the runner has their first songs', () => {
  it('waits for company the longer the busier Spotify’s rate is: one call for many songs, or at once', async () => {
    const r = await ph.runner();
    const fitting = catalogTracksIn(ph, 160, 170, 90).slice(80);
    await seedTrueTempos(ph, fitting);
    // The first fill (firstFill 0: the runner "has" their first songs right after it).
    ph.h.sandbox.admin.like(r.spotifyUserId, fitting.slice(0, 2).toReversed());
    const settings = { firstFill: 0, maxWaitMs: HOUR };
    await r.writer({ settings }).sync(r.userId);
    // The playlist's songs of `fitting` (the runner's library has a few others of the range too).
    const list = () =>
      r
        .playlists()
        .get('Pacebeat 160–170 BPM')!
        .filter((id) => fitting.includes(id));
    expect(list().slice(0, 2)).toEqual(fitting.slice(0, 2));
    const firstFill = adds(r).length;

    // Tempos arriving one by one while the window is full: no add, one run an hour after the first.
    const busy = r.writer({ settings, rateInUse: async () => 1 });
    let followUp = 0;
    for (const id of fitting.slice(2, 6)) {
      ph.h.sandbox.admin.like(r.spotifyUserId, [id]);
      const res = await busy.sync(r.userId);
      expect(res).toMatchObject({ status: 'done', added: 0 });
      followUp = res.status === 'done' ? res.followUpAt!.getTime() : 0;
    }
    expect(adds(r).length).toBe(firstFill);
    expect(followUp).toBeGreaterThan(Date.now() + 0.9 * HOUR);
    // Half full: half the wait.
    const half = await r.writer({ settings, rateInUse: async () => 0.5 }).sync(r.userId);
    expect(half).toMatchObject({ status: 'done', added: 0 });
    const at = half.status === 'done' ? half.followUpAt!.getTime() : 0;
    expect(at).toBeGreaterThan(Date.now() + 0.4 * HOUR);
    expect(at).toBeLessThan(Date.now() + 0.55 * HOUR);

    // The rate idle: what waited goes in one call, and each new song at once.
    const idle = r.writer({ settings, rateInUse: async () => 0 });
    expect(await idle.sync(r.userId)).toMatchObject({ status: 'done', added: 4 });
    expect(adds(r).length).toBe(firstFill + 1);
    for (const id of fitting.slice(6, 8)) {
      ph.h.sandbox.admin.like(r.spotifyUserId, [id]);
      expect(await idle.sync(r.userId)).toMatchObject({ status: 'done', added: 1 });
    }
    expect(adds(r).length).toBe(firstFill + 3);
    // The waiting four in rank order (the newest liked first), then each song as it came.
    expect(list()).toEqual([
      ...fitting.slice(0, 2),
      ...fitting.slice(2, 6).toReversed(),
      ...fitting.slice(6, 8),
    ]);
  });
});

describe('the check that the runner still has their playlists', () => {
  it('until the first 50, a check covers the small adds of the next minutes', async () => {
    const r = await ph.runner();
    const fitting = catalogTracksIn(ph, 150, 160, 80).slice(70);
    await seedTrueTempos(ph, fitting);
    const writer = r.writer({ settings: { firstFill: 50, firstFillWaitMs: 0, fillMin: 1 } });
    await writer.sync(r.userId); // the first fill: the pool's songs
    const contains = () =>
      ph.h.sandbox.admin
        .requests({ service: 'spotify-api', userId: r.spotifyUserId })
        .filter((x) => x.url.includes('/me/library/contains')).length;
    const before = adds(r).length;
    for (const id of fitting.slice(0, 3)) {
      ph.h.sandbox.admin.like(r.spotifyUserId, [id]);
      expect(await writer.sync(r.userId)).toMatchObject({ status: 'done', added: 1 });
    }
    expect(adds(r).length).toBe(before + 3);
    expect(contains()).toBe(0); // made a minute ago: the creation was the check
    // Past `snapshotFreshMs` (60 s here): checked again before the next add.
    const later = r.writer({
      settings: { firstFill: 50, firstFillWaitMs: 0, fillMin: 1 },
      now: () => Date.now() + 2 * 60_000,
    });
    ph.h.sandbox.admin.like(r.spotifyUserId, [fitting[3]!]);
    expect(await later.sync(r.userId)).toMatchObject({ status: 'done', added: 1 });
    expect(contains()).toBe(1);
  });
});

describe('a first fill that Spotify defers', () => {
  it('does not read the runner’s playlists again when it goes on', async () => {
    const r = await ph.runner();
    // The rate is full when the first creation is due, after the look at the runner's playlists.
    const busy: PlaylistWriterDeps['api'] = (ctx) => ({
      ...r.p.api(ctx),
      createPlaylist: async () => {
        throw new SpotifyDeferredError('rate', new Date(Date.now() + 1_000));
      },
    });
    await expect(r.writer({ api: busy }).sync(r.userId)).rejects.toBeInstanceOf(SpotifyDeferredError);
    expect(looks(r)).toBe(1);
    expect(await r.writer().sync(r.userId)).toMatchObject({ status: 'done', created: 4 });
    expect(looks(r)).toBe(1);
    expect([...r.playlists().values()].flat().length).toBeGreaterThan(0);
  });
});

describe('a runner’s first run, before their first songs', () => {
  it('looks at their playlists once: the first fill after it does not look again', async () => {
    const r = await ph.runner();
    // At connect no tempo is known yet: the run only looks for an earlier connection's playlists.
    const none = await r.writer({ listMatchCandidates: async () => [] }).sync(r.userId);
    expect(none).toMatchObject({ status: 'done', created: 0 });
    expect(looks(r)).toBe(1);
    // The first songs a minute later: the four playlists are made without a second look.
    expect(await r.writer().sync(r.userId)).toMatchObject({ status: 'done', created: 4 });
    expect(looks(r)).toBe(1);
  });
});

describe('the look at a runner’s playlists after a connect', () => {
  // The library's discovery reads `GET /me/playlists` first of all its steps; the writer takes its list.
  const withLibrary = (r: Runner, o: Partial<PlaylistWriterDeps> = {}) =>
    r.writer({ ownPlaylistsSeen: (userId) => r.library.ownPlaylistsSeen(userId), ...o });

  it('is the library’s discovery’s: the writer reads no list of its own', async () => {
    const r = await ph.runner();
    // The run at connect, before discovery has read the list: no look, nothing to write yet.
    const none = await withLibrary(r, { listMatchCandidates: async () => [] }).sync(r.userId);
    expect(none).toMatchObject({ status: 'done', created: 0 });
    expect(looks(r)).toBe(0);
    await r.library.scans.runUnit(r.userId); // discovery, then the Liked Songs' first pages
    expect(looks(r)).toBe(1);
    // The first fill: four playlists made, on the list discovery read.
    expect(await withLibrary(r).sync(r.userId)).toMatchObject({ status: 'done', created: 4 });
    expect(looks(r)).toBe(1);
    expect([...r.playlists().values()].flat().length).toBeGreaterThan(0);
  });

  it('takes back an earlier connection’s playlist from that list, before the first new match', async () => {
    const r = await ph.runner();
    const earlier = ph.h.sandbox.admin.createPlaylist(r.spotifyUserId, {
      name: 'Tempo 150',
      description: targetDescription(150, 160),
    });
    await r.library.scans.runUnit(r.userId);
    const run = await withLibrary(r, { listMatchCandidates: async () => [] }).sync(r.userId);
    expect(run).toMatchObject({ status: 'done', created: 0 });
    const taken = (await ph.repo.listTargets(r.userId)).find((t) => t.playlistId === earlier.id);
    expect(taken).toMatchObject({ state: 'active', name: 'Tempo 150', minBpm: 150, maxBpm: 160 });
    expect(looks(r)).toBe(1); // discovery's
  });

  it('is Spotify’s when a playlist must be made before discovery has read the list', async () => {
    const r = await ph.runner();
    expect(await withLibrary(r).sync(r.userId)).toMatchObject({ status: 'done', created: 4 });
    expect(looks(r)).toBe(1);
  });
});

describe('the priority of a runner’s writes', () => {
  it('is a new runner’s first pages until their first 50 songs, then the playlist writes', async () => {
    const r = await ph.runner();
    const calls: Array<{ purpose: string; priority: string }> = [];
    const api: PlaylistWriterDeps['api'] = (ctx) => {
      const inner = r.p.api(ctx);
      return new Proxy(inner, {
        get: (target, key, receiver) => {
          const v = Reflect.get(target, key, receiver) as unknown;
          if (typeof v !== 'function') return v;
          return (...args: unknown[]) => {
            calls.push({ purpose: ctx.purpose, priority: ctx.priority });
            return (v as (...a: unknown[]) => unknown).apply(target, args);
          };
        },
      });
    };
    // The first fill (its look, creations and adds) and the adds after it until 50 are placed.
    const filling = await r.writer({ api, settings: { firstFill: 50, firstFillWaitMs: 0 } }).sync(r.userId);
    expect(filling).toMatchObject({ status: 'done', created: 4 });
    expect(calls.length).toBeGreaterThan(4);
    expect(new Set(calls.map((x) => x.priority))).toEqual(new Set(['first_pages']));
    // A runner with their first songs (firstFill 1 here): a new song goes as a playlist write.
    calls.length = 0;
    const fitting = catalogTracksIn(ph, 160, 170, 1);
    await seedTrueTempos(ph, fitting);
    ph.h.sandbox.admin.like(r.spotifyUserId, fitting);
    expect(await r.writer({ api, settings: { firstFill: 1 } }).sync(r.userId)).toMatchObject({
      status: 'done',
      added: 1,
    });
    expect(calls.some((x) => x.purpose === 'sync:add')).toBe(true);
    expect(new Set(calls.map((x) => x.priority))).toEqual(new Set(['playlist_write']));
  });
});

describe('a playlist made after the first fill', () => {
  it('is made without reading the user’s playlists again', async () => {
    const r = await ph.runner();
    await r.writer().sync(r.userId); // the first fill: one look at the user's playlists
    expect(looks(r)).toBe(1);
    // A new pace whose first songs come later.
    await ph.repo.createTargets(r.userId, [
      { minBpm: 130, maxBpm: 140, name: 'Pacebeat 130–140 BPM', position: 9 },
    ]);
    const fitting = catalogTracksIn(ph, 130, 140, 3);
    await seedTrueTempos(ph, fitting);
    ph.h.sandbox.admin.like(r.spotifyUserId, fitting);
    expect(await r.writer().sync(r.userId)).toMatchObject({ status: 'done', created: 1 });
    expect(r.playlists().get('Pacebeat 130–140 BPM')).toEqual(expect.arrayContaining(fitting));
    expect(looks(r)).toBe(1);
  });
});
