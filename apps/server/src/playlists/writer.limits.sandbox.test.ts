// The playlist writer at Spotify's limits: a playlist at its most items is noticed at the first
// refusal, costs no more calls, and goes on in a new playlist; a write Spotify refuses for good (403) stops
// that target's writes after the first and says why until the runner edits the target.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { refusing } from './network.test-helper.ts';
import {
  catalogTracksIn,
  oneEachSong,
  seedTrueTempos,
  startPlaylistHarness,
  type PlaylistHarness,
  type Runner,
} from '../../test/playlists-harness.ts';
import { PLAYLIST_MAX_ITEMS } from './spotify-playlists.ts';
import { createTargetEditor } from './target-editor.service.ts';

let ph: PlaylistHarness;
beforeAll(async () => {
  ph = await startPlaylistHarness();
}, 120_000);
afterAll(() => ph.close());

const itemPosts = (r: Runner, playlistId: string) =>
  ph.h.sandbox.admin
    .requests({ service: 'spotify-api', userId: r.spotifyUserId })
    .filter((x) => x.method === 'POST' && x.url.split('?')[0]!.endsWith(`/playlists/${playlistId}/items`));

const shownName = async (r: Runner, targetId: string) =>
  (await ph.service.targets(r.userId, null)).find((t) => t.target_id === targetId)?.target;

describe('a full playlist', () => {
  it('is noticed at the first refusal, costs no more calls, and goes on in "… (2)"', async () => {
    const r = await ph.runner();
    const fitting = oneEachSong(ph, catalogTracksIn(ph, 180, 190, 80).slice(60));
    await seedTrueTempos(ph, fitting);
    ph.h.sandbox.admin.like(r.spotifyUserId, fitting.slice(0, 6).toReversed());
    const writer = r.writer();
    await writer.sync(r.userId);
    const target = (await ph.repo.listTargets(r.userId)).find((t) => t.minBpm === 180)!;
    const id = target.playlistId!;
    expect(ph.h.sandbox.admin.playlistItems(id).slice(0, 6)).toEqual(fitting.slice(0, 6));

    // The runner's own songs fill it to 5 short of Spotify's most (Pacebeat knows this snapshot).
    const w = ph.h.sandbox.world;
    const pl = w.playlist(id)!;
    const filler = w.trackG(fitting[0]!)!;
    const n = PLAYLIST_MAX_ITEMS - 5 - pl.entries.length;
    w.addItems(
      pl,
      Array.from({ length: n }, () => ({ g: filler, addedAt: Date.now(), addedBy: 0 })),
    );
    await ph.repo.setSnapshot(target.id, w.snapshotId(pl));

    ph.h.sandbox.admin.like(r.spotifyUserId, fitting.slice(6, 16).toReversed());
    const posts = itemPosts(r, id).length;
    await writer.sync(r.userId);
    expect(itemPosts(r, id).length - posts).toBe(1); // refused once; no halving down to single tracks
    expect(ph.h.sandbox.admin.playlistItems(id)).toHaveLength(PLAYLIST_MAX_ITEMS - 5);
    expect((await ph.repo.listTargets(r.userId)).find((t) => t.id === target.id)!.fullAt).not.toBeNull();
    expect(await shownName(r, target.id)).toBe(
      'Pacebeat 180–190 BPM (full: a Spotify playlist holds at most 10,000 songs; new ones go to the next)',
    );

    // The run that follows makes "… (2)" with the new matches, and none the full one holds.
    await writer.sync(r.userId);
    const next = (await ph.repo.listTargets(r.userId)).find((t) => t.continuesId === target.id)!;
    expect(next).toMatchObject({
      name: 'Pacebeat 180–190 BPM (2)',
      minBpm: 180,
      maxBpm: 190,
      state: 'active',
    });
    expect(ph.h.sandbox.admin.playlistItems(next.playlistId!)).toEqual(fitting.slice(6, 16));
    // Nothing more is tried on the full one.
    await writer.sync(r.userId);
    expect(itemPosts(r, id).length - posts).toBe(1);
  });
});

describe('a write Spotify refuses for good (403)', () => {
  it('stops that target’s writes after the first, says why, and tries again once the runner edits it', async () => {
    const message = "You cannot add tracks to a playlist you don't own.";
    const net = refusing({ method: 'POST', path: /\/playlists\/\w+\/items$/, message, times: 1 });
    const r = await ph.runner({ process: { fetch: net.fetch } });
    const fitting = oneEachSong(ph, catalogTracksIn(ph, 150, 160, 100).slice(80));
    await seedTrueTempos(ph, fitting);
    ph.h.sandbox.admin.like(r.spotifyUserId, fitting.slice(0, 5).toReversed());
    const writer = r.writer();
    await writer.sync(r.userId);
    expect(net.left()).toBe(0);
    const target = (await ph.repo.listTargets(r.userId)).find((t) => t.minBpm === 150)!;
    expect(target.writeRefusedAt).not.toBeNull();
    expect(await shownName(r, target.id)).toBe(
      `Pacebeat 150–160 BPM (Spotify refuses changes to it: “${message}” Edit the target to try again)`,
    );
    // Not tried again at the next runs, though it has matches waiting.
    ph.h.sandbox.admin.like(r.spotifyUserId, fitting.slice(5, 8).toReversed());
    const posts = itemPosts(r, target.playlistId!).length;
    await writer.sync(r.userId);
    await writer.sync(r.userId);
    expect(itemPosts(r, target.playlistId!).length).toBe(posts);
    expect(ph.h.sandbox.admin.playlistItems(target.playlistId!)).toEqual([]);

    // The runner edits the target: written to again.
    const editor = createTargetEditor({ repo: ph.repo, trigger: async () => undefined });
    await editor.edit(r.userId, target.id, { name: 'Easy runs' }, null);
    await writer.sync(r.userId);
    const items = ph.h.sandbox.admin.playlistItems(target.playlistId!);
    for (const id of fitting.slice(0, 8)) expect(items).toContain(id);
    expect(new Set(items).size).toBe(items.length);
    expect(await shownName(r, target.id)).toBe('Easy runs');
  });
});
