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
    const fitRecordings = new Set(fit.map((g) => cat.recordingOf(g)));
    expect(t.libraryFitting).toBe(fitRecordings.size);
    expect(t.missing).toBe(fitRecordings.size - 1);
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
});
