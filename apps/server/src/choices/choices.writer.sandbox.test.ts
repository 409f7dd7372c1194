// The runner's choices through the real playlist writer against the simulated Spotify: a corrected tempo
// places the track in the target it now fits (and, without a removal asked for, leaves it where it was);
// an excluded artist's songs are never added; restoring lets the writer place them.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createChoicesRepository } from './choices.repository.ts';
import { createChoicesService } from './choices.service.ts';
import { createTrackListsRepository } from './track-lists.repository.ts';
import type { MatchCandidate } from '../playlists/candidates.ts';
import { songOf } from '../playlists/matching.ts';
import { createPlaylistsService } from '../playlists/playlists.service.ts';
import { likedCandidates, startPlaylistHarness, type PlaylistHarness } from '../../test/playlists-harness.ts';

let ph: PlaylistHarness;
let choices: ReturnType<typeof createChoicesService>;
let playlists: ReturnType<typeof createPlaylistsService>;
let repo: ReturnType<typeof createChoicesRepository>;
beforeAll(async () => {
  ph = await startPlaylistHarness();
  repo = createChoicesRepository(ph.h.db.db);
  choices = createChoicesService({
    repo,
    lists: createTrackListsRepository(ph.h.db.db),
    removeFromTargets: async () => 0,
    triggerSync: async () => undefined,
  });
  // The port main.ts gives the choices service (its calls of it: choices.service.test.ts).
  playlists = createPlaylistsService({ repo: ph.repo });
}, 120_000);
afterAll(() => ph.close());

describe('the writer with the runner’s choices', () => {
  it('a corrected tempo is placed in the target it now fits, at once', async () => {
    const r = await ph.runner();
    const writer = r.writer({ runnerChoices: choices.runnerChoices, settings: { maxWaitMs: 3_600_000 } });
    expect(await writer.sync(r.userId)).toMatchObject({ status: 'done' });
    const targets = await ph.repo.listTargets(r.userId);
    const t170 = targets.find((t) => t.minBpm === 170)!;
    const t150 = targets.find((t) => t.minBpm === 150)!;
    const placed = await ph.repo.tracksOf(t170.id, ['added']);
    expect(placed.length).toBeGreaterThan(0);
    const moved = placed.find((p) => !(p.bpm! * 2 >= 150 && p.bpm! * 2 < 160))!;

    // 155 BPM: fits 150–160 only. The batch wait is an hour: the correction must not wait for it.
    await repo.setCorrection(r.userId, moved.recordingKey, 155);
    expect(await writer.sync(r.userId)).toMatchObject({ status: 'done', added: 1 });
    const lists = r.playlists();
    expect(lists.get(t150.name)).toContain(moved.trackId);
    expect(
      (await ph.repo.tracksOf(t150.id)).find((x) => x.recordingKey === moved.recordingKey),
    ).toMatchObject({ state: 'added', bpm: 155 });
    // No removal was asked for: it stays where Pacebeat put it.
    expect(lists.get(t170.name)).toContain(moved.trackId);
  });

  it('an excluded artist’s songs are never added; restored, they are', async () => {
    const r = await ph.runner();
    const liked = likedCandidates(ph.h.sandbox, r.spotifyUserId);
    const tempos = await ph.tempo.repo.getByKeys(liked.map((c) => c.recordingKey));
    const fits = (key: string) => {
      const t = tempos.get(key);
      return Boolean(
        t?.bpm && t.confidence >= 0.76 && [t.bpm, t.bpm * 2, t.bpm / 2].some((b) => b >= 150 && b < 190),
      );
    };
    // The artist of the best-ranked song that would be placed.
    const artist = liked.find((c) => fits(c.recordingKey))!.artistIds[0]!;
    const ofArtist = new Set(liked.filter((c) => c.artistIds.includes(artist)).map((c) => c.trackId));
    await repo.addExclusion(r.userId, 'artist', artist, { label: 'x', detail: '' });
    const writer = r.writer({ runnerChoices: choices.runnerChoices });
    await writer.sync(r.userId);
    const all = () => [...r.playlists().values()].flat();
    expect(all().length).toBeGreaterThan(0);
    expect(all().filter((id) => ofArtist.has(id))).toEqual([]);

    await choices.restore(r.userId, 'artist', artist);
    await writer.sync(r.userId);
    // Every song of theirs with a trusted tempo that fits a target is now placed.
    const placedSongs = await ph.repo.placedSongs((await ph.repo.listTargets(r.userId)).map((t) => t.id));
    const placedAnywhere = (c: MatchCandidate) => [...placedSongs.values()].some((s) => s.has(songOf(c)));
    const fitting = liked.filter((c) => ofArtist.has(c.trackId) && fits(c.recordingKey));
    expect(fitting.length).toBeGreaterThan(0);
    for (const c of fitting) expect(placedAnywhere(c), c.trackId).toBe(true);
  });

  it('removal asked with a correction or an exclusion takes out of Spotify only what Pacebeat added', async () => {
    const r = await ph.runner();
    const writer = r.writer({ runnerChoices: choices.runnerChoices, settings: { maxWaitMs: 3_600_000 } });
    expect(await writer.sync(r.userId)).toMatchObject({ status: 'done' });
    const targets = await ph.repo.listTargets(r.userId);
    const t170 = targets.find((t) => t.minBpm === 170)!;
    const t150 = targets.find((t) => t.minBpm === 150)!;
    const placed = await ph.repo.tracksOf(t170.id, ['added']);
    const moved = placed.find((p) => !(p.bpm! * 2 >= 150 && p.bpm! * 2 < 160))!;

    // Corrected to 155 with "remove from the old targets": out of 170–180, into 150–160.
    await repo.setCorrection(r.userId, moved.recordingKey, 155);
    await playlists.requestRemovals(r.userId, [{ targetId: t170.id, recordingKey: moved.recordingKey }]);
    await writer.sync(r.userId);
    let lists = r.playlists();
    expect(lists.get(t150.name)).toContain(moved.trackId);
    expect(lists.get(t170.name)).not.toContain(moved.trackId);
    // Not added back to 170–180 while the correction holds.
    await writer.sync(r.userId);
    expect(r.playlists().get(t170.name)).not.toContain(moved.trackId);

    // An excluded artist with removal: none of their songs stays in any playlist Pacebeat wrote.
    // (A song placed in any target: the waltzes this world's sources label 3/4 are in none.)
    const added = await Promise.all(targets.map((t) => ph.repo.tracksOf(t.id, ['added'])));
    const other = added.flat().find((p) => p.recordingKey !== moved.recordingKey)!;
    const liked = likedCandidates(ph.h.sandbox, r.spotifyUserId);
    const artist = liked.find((c) => c.trackId === other.trackId)!.artistIds[0]!;
    const ofArtist = new Set(liked.filter((c) => c.artistIds.includes(artist)).map((c) => c.trackId));
    await repo.addExclusion(r.userId, 'artist', artist, { label: 'x', detail: '' });
    const pairs = [...(await ph.repo.placedSongs(targets.map((t) => t.id))).entries()].flatMap(
      ([targetId, songs]) =>
        liked
          .filter((c) => ofArtist.has(c.trackId) && songs.has(songOf(c)))
          .map((c) => ({ targetId, recordingKey: c.recordingKey })),
    );
    expect(pairs.length).toBeGreaterThan(0);
    await playlists.requestRemovals(r.userId, pairs);
    await writer.sync(r.userId);
    lists = r.playlists();
    expect([...lists.values()].flat().filter((id) => ofArtist.has(id))).toEqual([]);
    expect([...lists.values()].flat().length).toBeGreaterThan(0);
  });
});
