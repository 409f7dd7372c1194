// The runner's edits of their targets against the simulated Spotify: a changed range places
// the new matches and keeps what is there; a rename renames the Spotify playlist; a deleted target keeps
// its playlist and is no longer written to; removal on request takes out only what Pacebeat added and
// no longer fits, is never undone while it does not fit, survives unclear answers and the daily quota.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SpotifyDeferredError } from '../spotify/errors.ts';
import { likedCandidates } from '../../test/playlists-harness.ts';
import {
  catalogTracksIn,
  seedTrueTempos,
  startPlaylistHarness,
  type PlaylistHarness,
  type Runner,
} from '../../test/playlists-harness.ts';
import { losingAnswers } from './network.test-helper.ts';
import { createTargetEditor } from './target-editor.service.ts';

let ph: PlaylistHarness;
let editor: ReturnType<typeof createTargetEditor>;
let triggered: string[];
beforeAll(async () => {
  ph = await startPlaylistHarness({ likedCount: 0 });
  triggered = [];
  editor = createTargetEditor({ repo: ph.repo, trigger: async (u) => void triggered.push(u) });
}, 120_000);
afterAll(() => ph.close());

/** The playlist with this id in the simulated account: its name and track ids. */
const playlist = (r: Runner, id: string) => {
  const pl = ph.h.sandbox.admin.user(r.spotifyUserId).playlists.find((p) => p.id === id);
  if (!pl) return undefined;
  return {
    name: pl.name,
    tracks: ph.h.sandbox.admin.playlistItems(id).filter((x): x is string => x !== null),
  };
};
const requests = (r: Runner, method: string, path: RegExp) =>
  ph.h.sandbox.admin
    .requests({ service: 'spotify-api', userId: r.spotifyUserId })
    .filter((x) => x.method === method && path.test(x.url.split('?')[0]!)).length;

/** A runner who likes 6 songs at 150–160 BPM and 6 at 163–170 BPM (true tempos in the cache), synced once. */
async function runner() {
  const r = await ph.runner();
  const low = catalogTracksIn(ph, 150, 160, 6);
  const high = catalogTracksIn(ph, 163, 170, 6);
  await seedTrueTempos(ph, [...low, ...high]);
  ph.h.sandbox.admin.like(r.spotifyUserId, [...low, ...high]);
  expect(await r.writer().sync(r.userId)).toMatchObject({ status: 'done' });
  const target = (await ph.repo.listTargets(r.userId)).find((t) => t.minBpm === 150)!;
  expect(target.playlistId).toBeTruthy();
  expect(new Set(playlist(r, target.playlistId!)!.tracks)).toEqual(new Set(low));
  return { r, low, high, target };
}

describe('editing a target', () => {
  it('a changed range places the new matches, keeps what is there, and renames the playlist', async () => {
    const { r, low, high, target } = await runner();
    const edited = await editor.edit(r.userId, target.id, { min_bpm: 150, max_bpm: 170 }, null);
    expect(edited.target).toBe('Pacebeat 150–170 BPM'); // a name that said the range follows it
    expect(triggered).toContain(r.userId);
    const before = playlist(r, target.playlistId!)!.tracks;
    await r.writer().sync(r.userId);
    const pl = playlist(r, target.playlistId!)!;
    expect(pl.name).toBe('Pacebeat 150–170 BPM');
    expect(pl.tracks.slice(0, before.length)).toEqual(before);
    expect(new Set(pl.tracks)).toEqual(new Set([...low, ...high]));
    expect(requests(r, 'PUT', /\/playlists\/[^/]+$/)).toBe(1);
    // Narrowed again: nothing is removed unless the runner asks.
    await editor.edit(r.userId, target.id, { min_bpm: 163, max_bpm: 170 }, null);
    await r.writer().sync(r.userId);
    expect(playlist(r, target.playlistId!)!.tracks).toHaveLength(12);
  });

  it('a rename renames the Spotify playlist once, with the name exactly as typed', async () => {
    const { r, target } = await runner();
    const name = 'Tempo <b>run</b> & "intervals" 5:30/km';
    await editor.edit(r.userId, target.id, { name }, null);
    await r.writer().sync(r.userId);
    await r.writer().sync(r.userId);
    expect(playlist(r, target.playlistId!)!.name).toBe(name);
    expect(requests(r, 'PUT', /\/playlists\/[^/]+$/)).toBe(1);
    expect((await ph.repo.getTarget(r.userId, target.id))!.spotifyName).toBe(name);
    // A name another live target has is refused.
    await expect(
      editor.edit(r.userId, target.id, { name: 'Pacebeat 170–180 BPM' }, null),
    ).rejects.toMatchObject({
      statusCode: 409,
    });
  });

  it('a target renamed while its creation is unclear is found by the name it was made with, then renamed', async () => {
    const net = losingAnswers({ method: 'POST', path: /\/me\/playlists$/, mode: 502 });
    const r = await ph.runner({ process: { fetch: net.fetch } });
    const songs = catalogTracksIn(ph, 150, 160, 4);
    await seedTrueTempos(ph, songs);
    ph.h.sandbox.admin.like(r.spotifyUserId, songs);
    await r.writer().sync(r.userId);
    expect(net.lost()).toBe(1);
    const t = (await ph.repo.listTargets(r.userId)).find((x) => x.state === 'creating')!;
    await editor.edit(r.userId, t.id, { name: 'Renamed mid-creation' }, null);
    await r.writer().sync(r.userId);
    const names = ph.h.sandbox.admin.user(r.spotifyUserId).playlists.map((p) => p.name);
    expect(names).toEqual(['Renamed mid-creation']);
    expect((await ph.repo.getTarget(r.userId, t.id))!.playlistId).toBe(
      ph.h.sandbox.admin.user(r.spotifyUserId).playlists[0]!.id,
    );
  });

  it('a deleted target keeps its playlist in Spotify and is no longer written to', async () => {
    const { r, low, target } = await runner();
    await editor.remove(r.userId, target.id);
    const more = catalogTracksIn(ph, 150, 160, 10).filter((id) => !low.includes(id));
    await seedTrueTempos(ph, more);
    ph.h.sandbox.admin.like(r.spotifyUserId, more);
    await r.writer().sync(r.userId);
    expect(new Set(playlist(r, target.playlistId!)!.tracks)).toEqual(new Set(low));
    expect((await ph.repo.listTargets(r.userId)).map((t) => t.id)).not.toContain(target.id);
    expect(await ph.repo.playlistIdsOf(r.userId)).toContain(target.playlistId);
    await expect(editor.remove(r.userId, target.id)).rejects.toMatchObject({ statusCode: 404 });
    // Connecting again does not bring the default targets back.
    expect(await ph.service.createDefaultTargets(r.userId)).toBe(0);
  });

  it('another user’s target is not found', async () => {
    const { target } = await runner();
    const other = await ph.runner();
    await expect(editor.edit(other.userId, target.id, { name: 'Mine' }, null)).rejects.toMatchObject({
      statusCode: 404,
    });
    await expect(editor.removeUnfitting(other.userId, target.id)).rejects.toMatchObject({ statusCode: 404 });
    expect(await ph.service.requestRemovals(other.userId, [{ targetId: target.id, recordingKey: 'x' }])).toBe(
      0,
    );
  });
});

describe('removal on request', () => {
  /** The runner narrows 150–160 to 155–160 and asks for what no longer fits to be removed. */
  async function narrowed() {
    const s = await runner();
    const keyOf = new Map(
      likedCandidates(ph.h.sandbox, s.r.spotifyUserId).map((c) => [c.trackId, c.recordingKey]),
    );
    const tempos = await ph.tempo.repo.getByKeys(s.low.map((id) => keyOf.get(id)!));
    const fits = (id: string) => {
      const bpm = tempos.get(keyOf.get(id)!)!.bpm!;
      return [bpm, bpm * 2, bpm / 2].some((b) => b >= 155 && b < 160);
    };
    // The runner's own song in the playlist (not Pacebeat's): never removed.
    const own = catalogTracksIn(ph, 100, 101, 1);
    ph.h.sandbox.admin.addToPlaylist(s.target.playlistId!, own, s.r.spotifyUserId);
    await editor.edit(s.r.userId, s.target.id, { min_bpm: 155, max_bpm: 160 }, null);
    return { ...s, own, keep: s.low.filter(fits), out: s.low.filter((id) => !fits(id)) };
  }

  it('removes only what Pacebeat added that no longer fits, and never adds it again while it does not', async () => {
    const { r, target, own, keep, out } = await narrowed();
    expect(out.length).toBeGreaterThan(0);
    expect(await editor.removeUnfitting(r.userId, target.id)).toBe(keep.length + out.length);
    // The removal reads the playlist first: the runner's own song is found, and kept as theirs.
    const result = await r.writer({ settings: { snapshotFreshMs: 0 } }).sync(r.userId);
    expect(result).toMatchObject({ status: 'done', removed: out.length });
    const mine = await ph.repo.tracksOf(target.id, ['present']);
    expect(mine.map((x) => x.trackId)).toEqual(own);
    expect(
      await ph.service.requestRemovals(r.userId, [
        { targetId: target.id, recordingKey: mine[0]!.recordingKey },
      ]),
    ).toBe(0);
    expect(new Set(playlist(r, target.playlistId!)!.tracks)).toEqual(new Set([...keep, ...own]));
    const rows = await ph.repo.tracksOf(target.id);
    expect(rows.filter((x) => x.state === 'unplaced')).toHaveLength(out.length);
    expect(rows.filter((x) => x.removeRequestedAt !== null)).toEqual([]);
    await r.writer().sync(r.userId);
    expect(new Set(playlist(r, target.playlistId!)!.tracks)).toEqual(new Set([...keep, ...own]));
    // The runner widens the range again: the songs fit again and are placed again, once.
    await editor.edit(r.userId, target.id, { min_bpm: 150, max_bpm: 160 }, null);
    await r.writer().sync(r.userId);
    const back = playlist(r, target.playlistId!)!.tracks;
    expect(new Set(back)).toEqual(new Set([...keep, ...own, ...out]));
    expect(back).toHaveLength(keep.length + own.length + out.length);
  });

  it('a song being added when its removal is asked for is removed once its add is confirmed', async () => {
    const { r, target } = await runner();
    const [song] = catalogTracksIn(ph, 100, 101, 1);
    const key =
      likedCandidates(ph.h.sandbox, r.spotifyUserId).find((c) => c.trackId === song)?.recordingKey ??
      `spotify:${song}`;
    // An add recorded before its call (a crash could leave it so): the request waits for its outcome.
    const batch = '00000000-0000-4000-8000-000000000001';
    await ph.repo.recordPending(target.id, batch, [{ recordingKey: key, trackId: song!, bpm: 100 }]);
    expect(await ph.service.requestRemovals(r.userId, [{ targetId: target.id, recordingKey: key }])).toBe(1);
    expect(await ph.repo.removalRequests(target.id)).toEqual([]);
    ph.h.sandbox.admin.addToPlaylist(target.playlistId!, [song!], r.spotifyUserId); // the add had landed
    await ph.repo.confirmBatch(target.id, batch);
    expect((await ph.repo.removalRequests(target.id)).map((x) => x.recordingKey)).toEqual([key]);
    await r.writer().sync(r.userId);
    expect(playlist(r, target.playlistId!)!.tracks).not.toContain(song);
    expect((await ph.repo.tracksOf(target.id, ['unplaced'])).map((x) => x.recordingKey)).toEqual([key]);
  });

  it('a removal whose answer was lost is checked by reading the playlist back', async () => {
    const { r, target, keep, out } = await narrowed();
    await editor.removeUnfitting(r.userId, target.id);
    const net = losingAnswers({ method: 'DELETE', path: /\/items$/, mode: 502, times: 50 });
    const lossy = ph.h.process({ fetch: net.fetch });
    const first = await r.writer({ api: lossy.api, accounts: lossy.accounts }).sync(r.userId);
    expect(net.lost()).toBeGreaterThan(0);
    expect(first.status === 'done' && first.followUpAt).toBeInstanceOf(Date);
    expect((await ph.repo.tracksOf(target.id, ['removing'])).length).toBe(out.length);
    await r.writer().sync(r.userId);
    expect(await ph.repo.tracksOf(target.id, ['removing'])).toEqual([]);
    expect((await ph.repo.tracksOf(target.id, ['unplaced'])).length).toBe(out.length);
    expect(new Set(playlist(r, target.playlistId!)!.tracks)).toEqual(
      new Set([...keep, ...catalogTracksIn(ph, 100, 101, 1)]),
    );
  });

  it('the daily quota stops a removal; the next day it goes on where it stopped', async () => {
    const { r, target, out } = await narrowed();
    await r.writer().sync(r.userId);
    await editor.removeUnfitting(r.userId, target.id);
    ph.h.sandbox.admin.setConfig({
      dailyQuota: { windowSeconds: 86_400, maxRequests: 0, minRetryAfterSeconds: 13 * 3600 },
    });
    const today = ph.h.process();
    let err: unknown;
    try {
      await r.writer({ api: today.api, accounts: today.accounts }).sync(r.userId);
    } catch (e) {
      err = e;
    } finally {
      ph.h.sandbox.admin.setConfig({ dailyQuota: false });
    }
    expect(err).toBeInstanceOf(SpotifyDeferredError);
    expect(await ph.repo.tracksOf(target.id, ['removing'])).toEqual([]);
    expect((await ph.repo.removalRequests(target.id)).length).toBeGreaterThan(0);
    const tomorrow = ph.h.process();
    await r.writer({ api: tomorrow.api, accounts: tomorrow.accounts }).sync(r.userId);
    expect((await ph.repo.tracksOf(target.id, ['unplaced'])).length).toBe(out.length);
  });
});

describe('filters', () => {
  it('no explicit tracks: an explicit song is not placed, the others are', async () => {
    const r = await ph.runner();
    const songs = catalogTracksIn(ph, 170, 180, 6);
    await seedTrueTempos(ph, songs);
    ph.h.sandbox.admin.like(r.spotifyUserId, songs);
    const explicit = new Set(songs.slice(0, 2));
    const target = (await ph.repo.listTargets(r.userId)).find((t) => t.minBpm === 170)!;
    await editor.edit(r.userId, target.id, { filters: { no_explicit: true } }, null);
    const listMatchCandidates = async () =>
      likedCandidates(ph.h.sandbox, r.spotifyUserId).map((c) => ({
        ...c,
        explicit: explicit.has(c.trackId),
      }));
    await r.writer({ listMatchCandidates }).sync(r.userId);
    const placed = playlist(r, (await ph.repo.getTarget(r.userId, target.id))!.playlistId!)!.tracks;
    expect(new Set(placed)).toEqual(new Set(songs.filter((id) => !explicit.has(id))));
  });
});
