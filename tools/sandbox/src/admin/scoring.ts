// Scoring: for a user and target playlists with BPM ranges, how many placed songs truly fit
// (precision), how many fitting songs of the user's library and artist catalogs were placed (recall),
// and how many placed tracks repeat a song already placed (duplicates). Tracks are compared by song
// as a runner hears it (Catalog.heardSongOf): a compilation copy, a remaster or a single's version of
// a placed song is not missing, and placing it too is a duplicate.
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
  /** How many missing, wrongly placed and duplicate track ids to list per target (default 20). */
  sampleSize?: number;
}

export interface TargetScore {
  playlistId: string;
  name: string;
  minBpm: number;
  maxBpm: number;
  /** Songs placed (each once, however many of its tracks). */
  placed: number;
  placedFitting: number;
  precision: number | null;
  /** Placed tracks of a song placed before them in the playlist: the same recording or another version. */
  duplicates: number;
  /** Songs of the library (with a version) that fit the range. */
  libraryFitting: number;
  missing: number;
  recall: number | null;
  wronglyPlaced: string[];
  /** Track ids of the duplicates (at most sampleSize). */
  duplicateSample: string[];
  missingSample: string[];
}

export function score(
  ctx: Ctx,
  req: ScoreRequest,
): { userId: string; libraryTracks: number; librarySongs: number; targets: TargetScore[] } {
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

  const recordings = new Set<number>();
  /** Song (heardSongOf) → the library's tracks of it. */
  const bySong = new Map<number, number[]>();
  for (const g of library) {
    recordings.add(cat.recordingOf(g));
    const song = cat.heardSongOf(g);
    const list = bySong.get(song);
    if (list) list.push(g);
    else bySong.set(song, [g]);
  }
  const tol = req.tolerance ?? 0;
  const sample = req.sampleSize ?? 20;

  return {
    userId: user.id,
    libraryTracks: recordings.size,
    librarySongs: bySong.size,
    targets: targets.map(({ playlistId, minBpm, maxBpm, pl }) => {
      const fits = (g: number) => fitsRange(cat.tempoOf(g).bpm, minBpm, maxBpm, tol);
      const placedSongs = new Set<number>();
      let placedFitting = 0;
      let duplicates = 0;
      const wrong: string[] = [];
      const twice: string[] = [];
      for (const e of pl.entries) {
        if (e.g === undefined) continue;
        const song = cat.heardSongOf(e.g);
        if (placedSongs.has(song)) {
          duplicates++;
          if (twice.length < sample) twice.push(w.trackId(e.g));
          continue;
        }
        placedSongs.add(song);
        if (fits(e.g)) placedFitting++;
        else if (wrong.length < sample) wrong.push(w.trackId(e.g));
      }
      let libraryFitting = 0;
      let found = 0;
      const missing: string[] = [];
      for (const [song, gs] of bySong) {
        const fitting = gs.find(fits);
        if (fitting === undefined) continue;
        libraryFitting++;
        if (placedSongs.has(song)) found++;
        else if (missing.length < sample) missing.push(w.trackId(fitting));
      }
      return {
        playlistId,
        name: pl.name,
        minBpm,
        maxBpm,
        placed: placedSongs.size,
        placedFitting,
        precision: placedSongs.size ? placedFitting / placedSongs.size : null,
        duplicates,
        libraryFitting,
        missing: libraryFitting - found,
        recall: libraryFitting ? found / libraryFitting : null,
        wronglyPlaced: wrong,
        duplicateSample: twice,
        missingSample: missing,
      };
    }),
  };
}
