// Scoring: precision of target playlists and recall over the user's library and artist catalogs.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../index.ts';
import { fitsRange } from '../world/tempo.ts';

describe('scoring', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ size: 'tiny', seed: 17 });
  });
  afterAll(() => sb.close());

  it('counts placed tracks that truly fit (tempo, double or half) and fitting library tracks that are missing', () => {
    const cat = sb.world.catalog;
    const dana = sb.world.user('dana')!;
    const liked = dana.liked.map((l) => l.g);
    const fit = liked.filter((g) => fitsRange(cat.tempoOf(g).bpm, 160, 170));
    const unfit = liked.filter((g) => !fitsRange(cat.tempoOf(g).bpm, 160, 170));
    expect(fit.length).toBeGreaterThan(0);
    const placed = [fit[0] as number, unfit[0] as number];
    const pl = sb.admin.createPlaylist('dana', {
      name: 'Pacebeat 160-170',
      trackIds: placed.map((g) => sb.world.trackId(g)),
    });
    const onlyLiked = sb.admin.score({
      userId: 'dana',
      targets: [{ playlistId: pl.id, minBpm: 160, maxBpm: 170 }],
      sources: { followedArtists: false, artistCatalogs: false },
    });
    const t = onlyLiked.targets[0]!;
    expect(t.placed).toBe(2);
    expect(t.placedFitting).toBe(1);
    expect(t.precision).toBe(0.5);
    const fitSongs = new Set(fit.map((g) => cat.heardSongOf(g)));
    expect(t.libraryFitting).toBe(fitSongs.size);
    expect(t.missing).toBe(fitSongs.size - 1);
    expect(t.duplicates).toBe(0);
    expect(t.wronglyPlaced).toEqual([sb.world.trackId(unfit[0] as number)]);
    const withCatalogs = sb.admin.score({
      userId: 'dana',
      targets: [{ playlistId: pl.id, minBpm: 160, maxBpm: 170 }],
    });
    expect(withCatalogs.libraryTracks).toBeGreaterThan(onlyLiked.libraryTracks);
    expect(withCatalogs.targets[0]!.libraryFitting).toBeGreaterThan(t.libraryFitting);
    const tolerant = sb.admin.score({
      userId: 'dana',
      tolerance: 0.04,
      targets: [{ playlistId: pl.id, minBpm: 160, maxBpm: 170 }],
    });
    expect(tolerant.targets[0]!.libraryFitting).toBeGreaterThanOrEqual(
      withCatalogs.targets[0]!.libraryFitting,
    );
  });

  it('compares by song: another version of a placed song is not missing, placing it too is a duplicate', () => {
    const cat = sb.world.catalog;
    const [single, version] = [...cat.versions][0]!;
    const album = version.of;
    const bpm = cat.tempoOf(album).bpm;
    sb.admin.likeAt('chloe', [sb.world.trackId(single), sb.world.trackId(album)]);
    const target = { minBpm: Math.floor(bpm) - 1, maxBpm: Math.floor(bpm) + 2 };
    const score = (trackIds: string[]) => {
      const pl = sb.admin.createPlaylist('chloe', { name: 'Pacebeat', trackIds });
      const s = sb.admin.score({
        userId: 'chloe',
        targets: [{ playlistId: pl.id, ...target }],
        sources: { followedArtists: false, artistCatalogs: false },
      });
      return { libraryTracks: s.libraryTracks, librarySongs: s.librarySongs, ...s.targets[0]! };
    };
    const once = score([sb.world.trackId(single)]);
    expect(once).toMatchObject({ libraryTracks: 2, librarySongs: 1, placed: 1, placedFitting: 1 });
    expect(once).toMatchObject({ libraryFitting: 1, missing: 0, duplicates: 0, recall: 1 });
    const ids = [single, album, single].map((g) => sb.world.trackId(g));
    const twice = score(ids);
    expect(twice).toMatchObject({ placed: 1, placedFitting: 1, precision: 1, duplicates: 2, recall: 1 });
    expect(twice.duplicateSample).toEqual(ids.slice(1));
  });
});
