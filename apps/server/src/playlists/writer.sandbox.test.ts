// The playlist writer against the simulated Spotify (in-process) on the real test PostgreSQL, with tempos
// from the real resolver (liked songs) or, for volume, the world's true tempos written to the cache.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fitsRange, ROUND_SLACK } from './matching.ts';
import {
  catalogTracksIn,
  seedTrueTempos,
  startPlaylistHarness,
  type PlaylistHarness,
  type Runner,
} from '../../test/playlists-harness.ts';

let ph: PlaylistHarness;
beforeAll(async () => {
  ph = await startPlaylistHarness();
}, 120_000);
afterAll(() => ph.close());

const requests = (r: Runner, method: string, path: RegExp) =>
  ph.h.sandbox.admin
    .requests({ service: 'spotify-api', userId: r.spotifyUserId })
    .filter((x) => x.method === method && path.test(x.url.split('?')[0]!));

/** Recordings (the world's ISRC owner) of a playlist's tracks: a duplicate song shows twice. */
const recordingsOf = (ids: string[]) =>
  ids.map((id) => ph.h.sandbox.world.catalog.recordingOf(ph.h.sandbox.world.trackG(id)!));
const expectNoDuplicateSongs = (r: Runner) => {
  for (const [name, ids] of r.playlists()) expect(new Set(recordingsOf(ids)).size, name).toBe(ids.length);
};

/** The user removes tracks in their Spotify app (the Web API, with their own token). */
async function removeAsUser(r: Runner, playlistId: string, trackIds: string[]) {
  const { access_token } = ph.h.sandbox.admin.connect({ userId: r.spotifyUserId });
  const res = await fetch(`${ph.h.sandbox.baseUrls.spotifyApi}/playlists/${playlistId}/items`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ items: trackIds.map((id) => ({ uri: `spotify:track:${id}` })) }),
  });
  expect(res.status).toBe(200);
}

describe('the playlist writer', () => {
  it('creates a playlist per target with matches, once, and places each fitting liked song once', async () => {
    const r = await ph.runner();
    const writer = r.writer();
    const result = await writer.sync(r.userId);
    expect(result).toMatchObject({ status: 'done', followUpAt: null });

    const targets = await ph.repo.listTargets(r.userId);
    const lists = r.playlists();
    let placed = 0;
    for (const t of targets) {
      const rows = await ph.repo.tracksOf(t.id);
      if (rows.length === 0) {
        expect(t.state, t.name).toBe('pending'); // created lazily: no match, no playlist
        expect(lists.has(t.name)).toBe(false);
        continue;
      }
      expect(t.state).toBe('active');
      expect(t.publicUrl).toMatch(/^https:\/\/open\.spotify\.com\/playlist\//);
      const ids = lists.get(t.name)!;
      expect(ids).toEqual(rows.map((x) => x.trackId)); // in the order recorded
      for (const row of rows) {
        expect(row.state).toBe('added');
        // In the range, or a hair under its round min (ROUND_SLACK: most such songs are at the min).
        expect(fitsRange(row.bpm!, t.minBpm * (1 - ROUND_SLACK), t.maxBpm)).toBe(true);
      }
      placed += rows.length;
    }
    expect(placed).toBeGreaterThanOrEqual(5);
    expect(result.status === 'done' && result.added).toBe(placed);
    expectNoDuplicateSongs(r);

    // In rank order: the newest liked song first.
    const ranks = new Map(ph.pool.toReversed().map((id, i) => [id, i]));
    for (const ids of lists.values()) {
      const order = ids.map((id) => ranks.get(id)!);
      expect(order).toEqual([...order].sort((a, b) => a - b));
    }
    // Private, with a description that says what it is.
    for (const pl of ph.h.sandbox.admin.user(r.spotifyUserId).playlists.filter((p) => lists.has(p.name))) {
      expect(pl.public).toBe(false);
      expect(ph.h.sandbox.world.playlist(pl.id)!.description).toMatch(/Pacebeat adds new ones/);
    }
    // One look at the user's playlists (before creating), one creation per playlist, one add each.
    expect(requests(r, 'GET', /\/me\/playlists$/)).toHaveLength(1);
    expect(requests(r, 'POST', /\/me\/playlists$/)).toHaveLength(lists.size);
    expect(requests(r, 'POST', /\/items$/)).toHaveLength(lists.size);

    // A second run has nothing to do, and calls Spotify for nothing.
    const before = ph.h.sandbox.admin.requests({ service: 'spotify-api', userId: r.spotifyUserId }).length;
    expect(await writer.sync(r.userId)).toMatchObject({ status: 'done', created: 0, added: 0 });
    expect(ph.h.sandbox.admin.requests({ service: 'spotify-api', userId: r.spotifyUserId }).length).toBe(
      before,
    );
    expect((await ph.repo.listTargets(r.userId)).every((t) => t.lastJobFinishedAt !== null)).toBe(true);
  });

  it('waits for a first fill of 50 matches, then shows them with one add per playlist', async () => {
    const r = await ph.runner();
    // A long wait: the pool's tempos may have been cached minutes ago by another test file.
    const writer = r.writer({
      settings: { firstFill: 50, maxWaitMs: 3_600_000, firstFillWaitMs: 3_600_000 },
    });
    const first = await writer.sync(r.userId);
    expect(first).toMatchObject({ status: 'done', added: 0 });
    expect(first.status === 'done' && first.followUpAt!.getTime()).toBeGreaterThan(Date.now());
    expect(requests(r, 'POST', /\/items$/)).toEqual([]);
    // The status page says how far it is: the matches planned so far, out of the 50.
    const waiting = await ph.service.targetsReply(r.userId, 'UTC');
    expect(waiting.first_fill).toEqual({ matches: expect.any(Number), needed: 50 });
    expect(waiting.first_fill!.matches).toBeGreaterThan(0);
    expect(waiting.first_fill!.matches).toBeLessThan(50);

    // Enough on their own: few of the pool's songs have a checked tempo without the audio.
    const more = [
      ...catalogTracksIn(ph, 150, 160, 70).slice(40),
      ...catalogTracksIn(ph, 180, 190, 70).slice(40),
    ];
    await seedTrueTempos(ph, more);
    ph.h.sandbox.admin.like(r.spotifyUserId, more);
    const second = await writer.sync(r.userId);
    expect(second).toMatchObject({ status: 'done', followUpAt: null });
    const lists = r.playlists();
    expect([...lists.values()].flat().length).toBeGreaterThanOrEqual(50);
    expect(requests(r, 'POST', /\/items$/)).toHaveLength(lists.size);
    // Once a playlist exists there is nothing to wait for: no first-fill line.
    await writer.sync(r.userId);
    expect((await ph.service.targetsReply(r.userId, 'UTC')).first_fill).toBeNull();
  });

  it('adds 100 per call in rank order, and only what is new on the next run', async () => {
    const r = await ph.runner();
    const fitting = catalogTracksIn(ph, 170, 180, 260);
    await seedTrueTempos(ph, fitting);
    ph.h.sandbox.admin.like(r.spotifyUserId, fitting.slice(0, 230).toReversed()); // newest liked first: fitting[0]
    await r.writer().sync(r.userId);
    const adds = requests(r, 'POST', /\/items$/);
    const list = r.playlists().get('Pacebeat 170–180 BPM')!;
    expect(list.slice(0, 230)).toEqual(fitting.slice(0, 230));
    const sizes = (await ph.repo.tracksOf((await ph.repo.listTargets(r.userId))[2]!.id)).length;
    expect(sizes).toBe(list.length);
    // 230 fitting tracks (plus the pool's few) in calls of at most 100.
    expect(adds.length).toBe(r.playlists().size - 1 + Math.ceil(list.length / 100));

    ph.h.sandbox.admin.like(r.spotifyUserId, fitting.slice(230).toReversed());
    await r.writer().sync(r.userId);
    expect(r.playlists().get('Pacebeat 170–180 BPM')!.slice(-30)).toEqual(fitting.slice(230));
    expectNoDuplicateSongs(r);
  });

  it('never adds again a track the user removed, and never doubles one the user added themselves', async () => {
    const r = await ph.runner();
    const fitting = catalogTracksIn(ph, 160, 170, 40).slice(20);
    await seedTrueTempos(ph, fitting);
    ph.h.sandbox.admin.like(r.spotifyUserId, fitting.slice(0, 10).toReversed());
    await r.writer().sync(r.userId);
    const target = (await ph.repo.listTargets(r.userId)).find((t) => t.minBpm === 160)!;
    const before = r.playlists().get(target.name)!;
    expect(before.slice(0, 10)).toEqual(fitting.slice(0, 10));

    // The user removes two of Pacebeat's tracks and adds a fitting song of their own.
    await removeAsUser(r, target.playlistId!, [fitting[0]!, fitting[3]!]);
    ph.h.sandbox.admin.addToPlaylist(target.playlistId!, [fitting[12]!], r.spotifyUserId);
    // Then they like more fitting songs (among them the one they added) and Pacebeat runs again.
    ph.h.sandbox.admin.like(r.spotifyUserId, fitting.slice(10, 14).toReversed());
    await r.writer({ settings: { snapshotFreshMs: 0 } }).sync(r.userId);

    const after = r.playlists().get(target.name)!;
    expect(after).not.toContain(fitting[0]);
    expect(after).not.toContain(fitting[3]);
    expect(after.filter((id) => id === fitting[12])).toHaveLength(1);
    expect(after.slice(-3)).toEqual([fitting[10], fitting[11], fitting[13]]);
    expectNoDuplicateSongs(r);
    const states = new Map((await ph.repo.tracksOf(target.id)).map((x) => [x.trackId, x.state]));
    expect(states.get(fitting[0]!)).toBe('removed');
    expect(states.get(fitting[3]!)).toBe('removed');
    expect(states.get(fitting[12]!)).toBe('present');
    // "Tracks added": what Pacebeat added that the playlist holds now: 13 of the fitting songs
    // less the two the user removed, and the pool's own matches; the removed ones no longer count.
    const added = 11 + before.filter((id) => !fitting.includes(id)).length;
    expect(added).toBe(
      after.filter((id) => id !== fitting[12]).length, // the playlist, less the user's own song
    );
    const [shown] = (await ph.service.targets(r.userId, 'UTC')).filter((x) => x.target === target.name);
    expect(shown!.stats).toEqual({ tracks_added: added, tracks_added_7days: added });

    // Even if the user removes it again later and Pacebeat reads the playlist again, it stays out.
    await r.writer({ settings: { snapshotFreshMs: 0 } }).sync(r.userId);
    expect(r.playlists().get(target.name)).toEqual(after);
  });
});
