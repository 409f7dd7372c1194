// The playlist writer and the user's own actions: deleting (unfollowing) a target playlist, restoring
// it, and disconnecting Spotify in the middle of a write.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { songOf } from './matching.ts';
import { SongSet } from './song-identity.ts';
import { createTargetEditor } from './target-editor.service.ts';
import {
  catalogCandidate,
  catalogTracksIn,
  seedTrueTempos,
  startPlaylistHarness,
  type PlaylistHarness,
  type Runner,
} from '../../test/playlists-harness.ts';

/** The runner's own playlists in the simulated world: name → track ids in order. */
const ownPlaylists = (r: Runner) =>
  new Map(
    ph.h.sandbox.admin
      .user(r.spotifyUserId)
      .playlists.map((pl) => [
        pl.name,
        ph.h.sandbox.admin.playlistItems(pl.id).filter((x): x is string => x !== null),
      ]),
  );

let ph: PlaylistHarness;
beforeAll(async () => {
  ph = await startPlaylistHarness();
}, 120_000);
afterAll(() => ph.close());

const POST_ITEMS = /\/playlists\/\w+\/items$/;
const postsTo = (r: Runner, path: RegExp) =>
  ph.h.sandbox.admin
    .requests({ service: 'spotify-api', userId: r.spotifyUserId })
    .filter((x) => x.method === 'POST' && path.test(x.url.split('?')[0]!));

/**
 * The user deletes a playlist in their Spotify app: `DELETE /playlists/{id}/followers` with their token.
 * Until the simulated world has that endpoint, the same change is made to the world directly:
 * the playlist leaves the user's library and still exists (as on Spotify, where the owner can restore it).
 */
async function deleteAsUser(r: Runner, playlistId: string) {
  const { access_token } = ph.h.sandbox.admin.connect({ userId: r.spotifyUserId });
  const res = await fetch(`${ph.h.sandbox.baseUrls.spotifyApi}/playlists/${playlistId}/followers`, {
    method: 'DELETE',
    headers: { authorization: `Bearer ${access_token}` },
  });
  await res.text();
  if (res.ok) return;
  const w = ph.h.sandbox.world;
  const user = w.user(r.spotifyUserId)!;
  const pl = w.playlist(playlistId)!;
  user.playlists = user.playlists.filter((p) => p !== pl.p);
  pl.followers = Math.max(0, pl.followers - 1);
}

describe('a playlist the user deleted', () => {
  it('is noticed before the next add (one call), however recently it was last checked', async () => {
    const r = await ph.runner();
    const fitting = catalogTracksIn(ph, 180, 190, 60).slice(40);
    await seedTrueTempos(ph, fitting);
    ph.h.sandbox.admin.like(r.spotifyUserId, fitting.slice(0, 5).toReversed());
    const writer = r.writer(); // the periodic check: every 6 hours
    await writer.sync(r.userId);
    const target = (await ph.repo.listTargets(r.userId)).find((t) => t.minBpm === 180)!;
    const id = target.playlistId!;
    const before = ph.h.sandbox.admin.playlistItems(id);
    // Deleted as a development-mode app's user does it today (their Spotify app unfollows it).
    const { access_token } = ph.h.sandbox.admin.connect({ userId: r.spotifyUserId });
    const res = await fetch(
      `${ph.h.sandbox.baseUrls.spotifyApi}/me/library?uris=${encodeURIComponent(`spotify:playlist:${id}`)}`,
      { method: 'DELETE', headers: { authorization: `Bearer ${access_token}` } },
    );
    expect(res.ok).toBe(true);
    ph.h.sandbox.admin.like(r.spotifyUserId, fitting.slice(5, 8).toReversed());
    const calls = () =>
      ph.h.sandbox.admin.requests({ service: 'spotify-api', userId: r.spotifyUserId }).length;
    const n = calls();
    await writer.sync(r.userId);
    expect(ph.h.sandbox.admin.playlistItems(id)).toEqual(before); // Spotify would have taken the adds
    expect((await ph.repo.listTargets(r.userId)).find((t) => t.id === target.id)!.state).toBe('deleted');
    expect(calls() - n).toBe(1); // GET /me/library/contains, and nothing else
  });

  it('when Spotify refuses the check (403), the adds go on without it, and it is not asked again', async () => {
    const r = await ph.runner();
    const fitting = catalogTracksIn(ph, 180, 190, 80).slice(60);
    await seedTrueTempos(ph, fitting);
    ph.h.sandbox.admin.like(r.spotifyUserId, fitting.slice(0, 5).toReversed());
    const writer = r.writer();
    await writer.sync(r.userId);
    const target = (await ph.repo.listTargets(r.userId)).find((t) => t.minBpm === 180)!;
    const contains = () =>
      ph.h.sandbox.admin
        .requests({ service: 'spotify-api', userId: r.spotifyUserId })
        .filter((x) => x.url.startsWith('/me/library/contains') || x.url.includes('/me/library/contains'));
    ph.h.sandbox.admin.setConfig({
      faults: [{ kind: 'status', service: 'spotify-api', path: '/me/library/contains', status: 403 }],
    });
    try {
      ph.h.sandbox.admin.like(r.spotifyUserId, fitting.slice(5, 8).toReversed());
      const items = () => ph.h.sandbox.admin.playlistItems(target.playlistId!);
      const before = items().length;
      expect(await writer.sync(r.userId)).toMatchObject({ status: 'done' });
      expect(items().slice(before)).toEqual(fitting.slice(5, 8));
      const asked = contains().length;
      ph.h.sandbox.admin.like(r.spotifyUserId, fitting.slice(8, 10).toReversed());
      expect(await writer.sync(r.userId)).toMatchObject({ status: 'done' });
      expect(items().slice(before + 3)).toEqual(fitting.slice(8, 10));
      expect(contains().length).toBe(asked); // remembered: not asked again
    } finally {
      ph.h.sandbox.admin.setConfig({ faults: [] });
    }
  });

  it('is no longer written to, shows as deleted, and is written to again once the user restores it', async () => {
    const r = await ph.runner();
    const fitting = catalogTracksIn(ph, 180, 190, 40).slice(20);
    await seedTrueTempos(ph, fitting);
    ph.h.sandbox.admin.like(r.spotifyUserId, fitting.slice(0, 5).toReversed());
    await r.writer().sync(r.userId);
    const target = (await ph.repo.listTargets(r.userId)).find((t) => t.minBpm === 180)!;
    const id = target.playlistId!;
    const before = ph.h.sandbox.admin.playlistItems(id);
    expect(before.slice(0, 5)).toEqual(fitting.slice(0, 5));

    await deleteAsUser(r, id);
    ph.h.sandbox.admin.like(r.spotifyUserId, fitting.slice(5, 8).toReversed());
    // Checked now and then (here: every run): gone from the user's playlists, so left alone.
    const writer = r.writer({ settings: { followCheckMs: 0 } });
    await writer.sync(r.userId);
    expect(ph.h.sandbox.admin.playlistItems(id)).toEqual(before);
    expect((await ph.repo.listTargets(r.userId)).find((t) => t.id === target.id)).toMatchObject({
      state: 'deleted',
      playlistId: id,
    });
    const shown = (await ph.service.targets(r.userId, 'Europe/Paris')).find(
      (t) => t.target_id === target.id,
    )!;
    expect(shown.target).toBe('Pacebeat 180–190 BPM (deleted in Spotify: no longer updated)');
    expect(shown.public_url).toBe(target.publicUrl); // opening it lets the user restore it
    // Not made again either: one playlist of that name ever.
    expect(postsTo(r, /\/me\/playlists$/).length).toBe(r.playlists().size + 1);

    // The user restores it (follows it again): Pacebeat reads it and adds what is new, nothing twice.
    ph.h.sandbox.admin.followPlaylist(r.spotifyUserId, id);
    await writer.sync(r.userId);
    const after = ph.h.sandbox.admin.playlistItems(id);
    expect(after.slice(0, before.length)).toEqual(before);
    expect(after.slice(before.length)).toEqual(fitting.slice(5, 8));
    expect((await ph.repo.listTargets(r.userId)).find((t) => t.id === target.id)!.state).toBe('active');
  });

  it('a playlist Spotify answers 404 for is marked deleted at the first write, and not made again', async () => {
    const r = await ph.runner();
    const fitting = catalogTracksIn(ph, 150, 160, 30).slice(20);
    await seedTrueTempos(ph, fitting);
    ph.h.sandbox.admin.like(r.spotifyUserId, fitting.slice(0, 3));
    await r.writer().sync(r.userId);
    const target = (await ph.repo.listTargets(r.userId)).find((t) => t.minBpm === 150)!;
    // Gone for good on Spotify's side (404 for every call on it).
    const gone: typeof fetch = async (input, init) =>
      String(input).includes(`/playlists/${target.playlistId}`)
        ? new Response(JSON.stringify({ error: { status: 404, message: 'Resource not found' } }), {
            status: 404,
          })
        : fetch(input, init);
    ph.h.sandbox.admin.like(r.spotifyUserId, fitting.slice(3, 6));
    const other = ph.h.process({ fetch: gone });
    const result = await r.writer({ api: other.api, accounts: other.accounts }).sync(r.userId);
    expect(result).toMatchObject({ status: 'done', added: 0 });
    expect((await ph.repo.listTargets(r.userId)).find((t) => t.id === target.id)!.state).toBe('deleted');
    expect(await ph.repo.tracksOf(target.id, ['pending'])).toEqual([]);
  });
});

describe('disconnecting during a write', () => {
  it('stops the writer before its next write and leaves nothing of the user’s targets behind', async () => {
    const r = await ph.runner();
    const fitting = [...catalogTracksIn(ph, 150, 160, 8), ...catalogTracksIn(ph, 170, 180, 8)];
    await seedTrueTempos(ph, fitting);
    ph.h.sandbox.admin.like(r.spotifyUserId, fitting);
    ph.h.sandbox.admin.setFaults([
      { kind: 'slow', delayMs: 800, service: 'spotify-api', method: 'POST', path: '/items', times: 1 },
    ]);
    try {
      const run = r.writer().sync(r.userId);
      for (let i = 0; i < 100 && ph.h.sandbox.admin.faults()[0]!.matched === 0; i++)
        await new Promise((res) => setTimeout(res, 20));
      expect(ph.h.sandbox.admin.faults()[0]!.matched).toBe(1); // an add is in flight
      await r.p.connect.disconnect(r.userId);
      const disconnectedAt = Date.now();
      expect(await run).toEqual({ status: 'stopped' });
      // The add in flight lands (Spotify applied it); nothing was sent after the disconnect.
      const late = postsTo(r, POST_ITEMS).filter((x) => x.at > disconnectedAt + 850);
      expect(late).toEqual([]);
      expect(postsTo(r, POST_ITEMS)).toHaveLength(1);
    } finally {
      ph.h.sandbox.admin.setFaults([]);
    }
    expect(await ph.repo.listTargets(r.userId)).toEqual([]);
    expect(await ph.repo.acquireLease(r.userId, 'check', 1)).toBe(true); // no writer holds it
    await ph.repo.releaseLease(r.userId, 'check'); // (a run within the lease's millisecond was 'busy')
    // The playlists stay in the user's Spotify account.
    expect(r.playlists().size).toBeGreaterThan(0);
    // A new run finds no connection and writes nothing.
    expect(await r.writer().sync(r.userId)).toEqual({ status: 'not-connected' });
  });
});

describe('connecting again', () => {
  it('finds the playlists of the earlier connection and grows them, instead of making a second set', async () => {
    const r = await ph.runner();
    const fitting = catalogTracksIn(ph, 160, 170, 70).slice(60);
    await seedTrueTempos(ph, fitting);
    ph.h.sandbox.admin.like(r.spotifyUserId, fitting.slice(0, 5).toReversed());
    await r.writer().sync(r.userId);
    const before = r.playlists();

    await r.p.connect.disconnect(r.userId);
    expect(r.playlists()).toEqual(before); // the playlists stay in Spotify
    const tokens = ph.h.sandbox.admin.connect({ userId: r.spotifyUserId });
    await r.p.connect.connect(r.userId, { ...tokens, refresh_token: tokens.refresh_token! });
    ph.h.sandbox.admin.like(r.spotifyUserId, fitting.slice(5, 8).toReversed());
    await r.writer().sync(r.userId);

    const after = r.playlists();
    expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
    expect(
      ph.h.sandbox.admin.user(r.spotifyUserId).playlists.filter((p) => p.name.startsWith('Pacebeat ')),
    ).toHaveLength(before.size);
    const name = 'Pacebeat 160–170 BPM';
    expect(after.get(name)!.slice(0, before.get(name)!.length)).toEqual(before.get(name));
    expect(after.get(name)!.slice(before.get(name)!.length)).toEqual(fitting.slice(5, 8));
    for (const [n, ids] of after) if (n !== name) expect(ids).toEqual(before.get(n));
  });
  it('after a reconnect, takes back the earlier playlists at once, and the songs it had placed are its own again', async () => {
    const r = await ph.runner();
    const fast = catalogTracksIn(ph, 171, 179, 8);
    const slow = catalogTracksIn(ph, 140, 146, 2); // fits no default pace
    await seedTrueTempos(ph, [...fast, ...slow], { byTrackId: true });
    let shown: string[] = fast;
    const writer = () =>
      r.writer({
        listMatchCandidates: async () => shown.map((id, rank) => catalogCandidate(ph, id, rank, false)),
      });
    await writer().sync(r.userId);
    const before = ownPlaylists(r);
    const name = [...before.keys()].find((n) => n.startsWith('Pacebeat 170'))!;
    const placedBefore = before.get(name)!;
    expect(placedBefore.length).toBeGreaterThan(0);
    const t170 = (await ph.repo.listTargets(r.userId)).find((t) => t.minBpm === 170)!;
    // The runner puts two songs of their own into it, which fit no pace of theirs.
    const playlistId = t170.playlistId!;
    const { access_token } = ph.h.sandbox.admin.connect({ userId: r.spotifyUserId });
    const res = await fetch(`${ph.h.sandbox.baseUrls.spotifyApi}/playlists/${playlistId}/items`, {
      method: 'POST',
      headers: { authorization: `Bearer ${access_token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ uris: slow.map((id) => `spotify:track:${id}`) }),
    });
    expect(res.status, await res.text()).toBe(201);

    await r.p.connect.disconnect(r.userId);
    const tokens = ph.h.sandbox.admin.connect({ userId: r.spotifyUserId });
    await r.p.connect.connect(r.userId, { ...tokens, refresh_token: tokens.refresh_token! });
    // The first run after the reconnect, before any new match: the playlists are taken back and read.
    shown = [];
    await writer().sync(r.userId);
    const live = await ph.repo.listTargets(r.userId);
    const taken = live.find((t) => t.playlistId === playlistId)!;
    expect(taken.state).toBe('active');
    const rows = await ph.repo.tracksOf(taken.id);
    const byState = (s: string) =>
      rows
        .filter((x) => x.state === s)
        .map((x) => x.trackId)
        .sort();
    // Placed again, counted, fixable: every song Pacebeat had placed. The runner's own stay theirs unless
    // their cached tempo fits (the tempo cache is shared with other test files running at the same time,
    // which may have cached another tempo for the same catalog track).
    expect(byState('added')).toEqual(expect.arrayContaining(placedBefore));
    expect([...byState('added'), ...byState('present')].sort()).toEqual([...placedBefore, ...slow].sort());
    const stats = await ph.repo.statsOf([taken.id], new Date(Date.now() - 7 * 86_400_000));
    expect(stats.get(taken.id)?.tracksAdded).toBe(byState('added').length);
    // Nothing was added in Spotify by taking it back.
    expect(ownPlaylists(r).get(name)).toEqual([...placedBefore, ...slow]);
  });

  it('takes back a renamed and a re-ranged playlist, drops the unused defaults, and places no song twice', async () => {
    const r = await ph.runner();
    const editor = createTargetEditor({ repo: ph.repo, trigger: async () => undefined });
    const slow = catalogTracksIn(ph, 160, 167, 14);
    const fast = catalogTracksIn(ph, 170, 180, 14);
    await seedTrueTempos(ph, [...slow, ...fast], { byTrackId: true });
    await seedTrueTempos(ph, [...slow, ...fast]);
    // Catalog tracks, as the artist catalogs list them: no ISRC, keyed by track id until a scan learns it.
    let shown = 8;
    let isrcKnown = false;
    const writer = () =>
      r.writer({
        listMatchCandidates: async () =>
          [...slow.slice(0, shown), ...fast.slice(0, shown)].map((id, rank) =>
            catalogCandidate(ph, id, rank, isrcKnown),
          ),
      });
    await writer().sync(r.userId);
    const targets = await ph.repo.listTargets(r.userId);
    const t160 = targets.find((t) => t.minBpm === 160)!;
    const t170 = targets.find((t) => t.minBpm === 170)!;
    expect([t160.state, t170.state]).toEqual(['active', 'active']);
    // The runner renames one, and narrows and renames the other; the writer sends both to Spotify.
    await editor.edit(r.userId, t170.id, { name: 'Tempo runs 175' }, null);
    await editor.edit(r.userId, t160.id, { name: '160–167', max_bpm: 167 }, null);
    await writer().sync(r.userId);
    const before = ownPlaylists(r);
    expect([...before.keys()].sort()).toEqual(['160–167', 'Tempo runs 175']);

    await r.p.connect.disconnect(r.userId);
    const tokens = ph.h.sandbox.admin.connect({ userId: r.spotifyUserId });
    await r.p.connect.connect(r.userId, { ...tokens, refresh_token: tokens.refresh_token! });
    expect(await ph.repo.listTargets(r.userId)).toHaveLength(4); // the defaults, until the first write
    shown = 14;
    isrcKnown = true; // and this time the scan knows every ISRC
    await writer().sync(r.userId);
    await writer().sync(r.userId); // the targets taken back are written to in the run that follows

    const after = ownPlaylists(r);
    expect([...after.keys()].sort()).toEqual(['160–167', 'Tempo runs 175']); // one set, no second
    const live = await ph.repo.listTargets(r.userId);
    expect(live.map((t) => [t.name, t.minBpm, t.maxBpm]).sort()).toEqual([
      ['160–167', 160, 167],
      ['Tempo runs 175', 170, 180],
    ]);
    for (const [name, ids] of after) {
      expect(new Set(ids).size, name).toBe(ids.length); // no track twice
      expect(ids.slice(0, before.get(name)!.length)).toEqual(before.get(name)); // grown, not rewritten
      // Every song of its range (one per song: song-identity.ts).
      const range = name === '160–167' ? slow : fast;
      const songs = new SongSet();
      for (const [rank, id] of range.entries()) {
        const song = songOf(catalogCandidate(ph, id, rank, true));
        if (!songs.has(song)) songs.add(song);
      }
      expect(ids.length, name).toBe(songs.size);
    }
    // And no Pacebeat playlist is read as one of the runner's own songs' sources.
    expect(postsTo(r, POST_ITEMS).length).toBeGreaterThan(0);
  });
});
