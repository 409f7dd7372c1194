// A song's identity under the writer: what Pacebeat learns about a track after placing it (its
// ISRC, which changes its recording key from `spotify:<id>` to `isrc:<ISRC>`; another track id of the same
// recording) never places it a second time. Seen on main at 9c45752: a second runner's catalog tracks were
// placed under `spotify:<id>`, then again under `isrc:<ISRC>` once their Liked Songs scan learned the ISRC.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { placeable, spanOf } from './matching.ts';
import {
  catalogCandidate,
  catalogTracksIn,
  seedTrueTempos,
  startPlaylistHarness,
  type PlaylistHarness,
} from '../../test/playlists-harness.ts';

let ph: PlaylistHarness;
beforeAll(async () => {
  ph = await startPlaylistHarness();
}, 120_000);
afterAll(() => ph.close());

describe('a song’s identity under the writer', () => {
  it('a track placed before its ISRC was known is not placed again once it is', async () => {
    const ids = catalogTracksIn(ph, 170, 180, 12);
    await seedTrueTempos(ph, ids, { byTrackId: true });
    await seedTrueTempos(ph, ids);
    const r = await ph.runner();
    let isrcKnown = false;
    const writer = r.writer({
      listMatchCandidates: async () => ids.map((id, rank) => catalogCandidate(ph, id, rank, isrcKnown)),
    });
    const first = await writer.sync(r.userId);
    expect(first).toMatchObject({ status: 'done', added: 12 });

    // A scan of another source (a Liked Songs page with full track objects) learns every ISRC.
    isrcKnown = true;
    const second = await writer.sync(r.userId);
    expect(second).toMatchObject({ status: 'done', added: 0 });
    const [list] = [...r.playlists().values()];
    expect(list).toHaveLength(12);
    expect(new Set(list).size).toBe(12);

    // Reading the playlist back (its items carry the ISRC) finds every placed row there: none is taken
    // for removed by the user, and none is recorded a second time as the user's own.
    const [t] = (await ph.repo.listTargets(r.userId)).filter((x) => x.state === 'active');
    await ph.repo.setSnapshot(t!.id, 'stale');
    expect(await writer.sync(r.userId)).toMatchObject({ status: 'done', added: 0 });
    const rows = await ph.repo.tracksOf(t!.id);
    expect(rows.map((x) => x.state)).toEqual(Array(12).fill('added'));
  });

  it('another track id of a placed recording (a compilation copy) is not placed', async () => {
    const w = ph.h.sandbox.world;
    // Catalog tracks whose recording has a copy under another track id.
    const pairs: Array<[string, string]> = [];
    for (let i = 1; pairs.length < 3 && i < w.catalog.artists.length; i++)
      for (const g of w.catalog.creditedTracks(i)) {
        const rec = w.catalog.recordingOf(g);
        if (rec === g || !placeable(spanOf(w.trackFacts(g).bpm, false), 160, 170)) continue;
        pairs.push([w.trackId(rec), w.trackId(g)]);
        if (pairs.length === 3) break;
      }
    expect(pairs.length).toBeGreaterThan(0);
    const ids = pairs.flat();
    await seedTrueTempos(
      ph,
      pairs.map(([orig]) => orig),
    ); // one cache row per recording
    const r = await ph.runner();
    const writer = r.writer({
      listMatchCandidates: async () => ids.map((id, rank) => catalogCandidate(ph, id, rank, true)),
    });
    // The original first; its copy (same ISRC) later, in another run.
    const one = r.writer({
      listMatchCandidates: async () => pairs.map(([orig], rank) => catalogCandidate(ph, orig, rank, true)),
    });
    expect(await one.sync(r.userId)).toMatchObject({ status: 'done', added: pairs.length });
    expect(await writer.sync(r.userId)).toMatchObject({ status: 'done', added: 0 });
    const [list] = [...r.playlists().values()];
    expect(list).toHaveLength(pairs.length);
  });
});
