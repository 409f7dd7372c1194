// Scoring: for a user and target playlists with BPM ranges, how many placed tracks truly fit
// (precision) and how many fitting tracks of the user's library and artist catalogs were placed
// (recall). Tracks are compared by recording (ISRC), so a compilation copy of a placed song is not
// counted as missing.
import type { Ctx } from '../context.ts';
import { fitsRange } from '../world/tempo.ts';
import type { Playlist } from '../world/library.ts';

export interface ScoreTarget {
  playlistId: string;
  minBpm: number;
  maxBpm: number;
}

export interface ScoreRequest {
  userId: string;
  targets: ScoreTarget[];
  /** Relative tolerance on the range edges (0.04 = 4 %); default 0. */
  tolerance?: number;
  /** Which sources make up the library (all default to true). */
  sources?: {
    likedSongs?: boolean;
    playlists?: boolean;
    followedArtists?: boolean;
    artistCatalogs?: boolean;
  };
  /** How many missing track ids to list per target (default 20). */
  sampleSize?: number;
}

export interface TargetScore {
  playlistId: string;
  name: string;
  minBpm: number;
  maxBpm: number;
  placed: number;
  placedFitting: number;
  precision: number | null;
  libraryFitting: number;
  missing: number;
  recall: number | null;
  wronglyPlaced: string[];
  missingSample: string[];
}

export function score(
  ctx: Ctx,
  req: ScoreRequest,
): { userId: string; libraryTracks: number; targets: TargetScore[] } {
  const w = ctx.world;
  const cat = w.catalog;
  const user = w.user(req.userId);
  if (!user) throw new Error(`unknown user ${req.userId}`);
  const targets = req.targets.map((t) => {
    const pl = w.playlist(t.playlistId);
    if (!pl) throw new Error(`unknown playlist ${t.playlistId}`);
    return { ...t, pl };
  });
  const targetSet = new Set(targets.map((t) => t.pl.p));
  const src = {
    likedSongs: true,
    playlists: true,
    followedArtists: true,
    artistCatalogs: true,
    ...req.sources,
  };

  const library = new Set<number>();
  if (src.likedSongs) for (const l of user.liked) library.add(l.g);
  if (src.playlists) {
    for (const p of user.playlists) {
      const pl = w.playlists[p] as Playlist;
      if (targetSet.has(p) || !w.canEdit(user, pl)) continue;
      for (const e of pl.entries) if (e.g !== undefined) library.add(e.g);
    }
  }
  const artists = new Set<number>();
  if (src.followedArtists) for (const i of user.followedArtists) artists.add(i);
  if (src.artistCatalogs) for (const g of library) for (const i of cat.track(g).artists) artists.add(i);
  for (const i of artists) for (const g of cat.creditedTracks(i)) library.add(g);

  const byRecording = new Map<number, number>();
  for (const g of library) {
    const rec = cat.recordingOf(g);
    if (!byRecording.has(rec)) byRecording.set(rec, g);
  }
  const tol = req.tolerance ?? 0;
  const sample = req.sampleSize ?? 20;

  return {
    userId: user.id,
    libraryTracks: byRecording.size,
    targets: targets.map(({ playlistId, minBpm, maxBpm, pl }) => {
      const fits = (g: number) => fitsRange(cat.tempoOf(g).bpm, minBpm, maxBpm, tol);
      const placedRecs = new Set<number>();
      let placedFitting = 0;
      const wrong: string[] = [];
      for (const e of pl.entries) {
        if (e.g === undefined) continue;
        const rec = cat.recordingOf(e.g);
        if (placedRecs.has(rec)) continue;
        placedRecs.add(rec);
        if (fits(e.g)) placedFitting++;
        else if (wrong.length < sample) wrong.push(w.trackId(e.g));
      }
      let libraryFitting = 0;
      let found = 0;
      const missing: string[] = [];
      for (const [rec, g] of byRecording) {
        if (!fits(g)) continue;
        libraryFitting++;
        if (placedRecs.has(rec)) found++;
        else if (missing.length < sample) missing.push(w.trackId(g));
      }
      return {
        playlistId,
        name: pl.name,
        minBpm,
        maxBpm,
        placed: placedRecs.size,
        placedFitting,
        precision: placedRecs.size ? placedFitting / placedRecs.size : null,
        libraryFitting,
        missing: libraryFitting - found,
        recall: libraryFitting ? found / libraryFitting : null,
        wronglyPlaced: wrong,
        missingSample: missing,
      };
    }),
  };
}
