// Scoring from outside, at the end of a simulated day: what each runner's Pacebeat playlists hold in the
// simulated Spotify (its own state, the truth), against the world's true tempos and song identities, the
// runner's own changes, the status page's counts, and the library the product scanned.
import type { Sandbox } from '@pacebeat/sandbox';
import type { CachedTempo } from '@pacebeat/server/src/tempo/tempo.repository.ts';
import { recallCounts, type Unplaced } from '../shared/recall.ts';
import type { StatusTarget } from './app-client.ts';
import { fits, type Truth } from './world.ts';

export interface RunnerLife {
  /** The simulated Spotify user. */
  spotifyUser: string;
  connected: boolean;
  /** The status page says Spotify must be connected again (Spotify refused the app's grant). */
  disabled: boolean;
  /** The status page's targets at its last read. */
  targets: StatusTarget[];
  /** Track ids the runner removed in Spotify, by playlist. */
  removed: Map<string, string[]>;
  /** Track ids the runner added in Spotify, by playlist. */
  ownAdded: Map<string, string[]>;
}

/** What is placed, and how it is wrong: counted per playlist, summed per runner and per day. */
export interface PlacementCounts {
  placed: number;
  /** Entries beyond one per song, and of those: the same track id, the same recording (ISRC), the same song. */
  duplicates: number;
  sameId: number;
  sameRecording: number;
  sameSong: number;
  /** Songs the runner removed that are in the playlist again. */
  readds: number;
  /** Placed entries whose true tempo fits the playlist's range; and wrong ones at 3:2 or 2:3. */
  right: number;
  threeTwo: number;
}

export interface PlaylistScore extends PlacementCounts {
  playlistId: string;
  name: string;
  min: number;
  max: number;
  /** A live target of the status page links to it. */
  target: boolean;
  /** The runner still follows it (false: deleted in Spotify). */
  followed: boolean;
  /** Every entry; `placed` leaves out the runner's own additions. */
  entries: number;
  /** The status page's "tracks added" for it (a live target's), else null. */
  statusAdded: number | null;
  /** Artist spread: the longest run of songs in a row sharing an artist, and the shortest its songs allow. */
  artistRun?: number;
  bestArtistRun?: number;
  /** Distinct main artists among its first 20 songs, and the most its songs allow. */
  first20Artists?: number;
  bestFirst20Artists?: number;
  /** Distinct artists in it. */
  artists?: number;
}

/**
 * The spread measures of a playlist in order (each song as its artists). The same as the product's
 * `playlists/spread.ts` measures, kept here so `--commit` can measure an older product that has none.
 */
export function spreadOf(songs: number[][]) {
  let longest = 0;
  let runs = new Map<number, number>();
  const count = new Map<number, number>();
  for (const artists of songs) {
    runs = new Map(artists.map((a) => [a, (runs.get(a) ?? 0) + 1]));
    longest = Math.max(longest, ...runs.values());
    for (const a of new Set(artists)) count.set(a, (count.get(a) ?? 0) + 1);
  }
  // An artist of c songs among n needs c − 1 songs of others between: runs of ceil(c / (n − c + 1)).
  let best = songs.length > 0 ? 1 : 0;
  for (const c of count.values()) best = Math.max(best, Math.ceil(c / (songs.length - c + 1)));
  const main = (list: number[][]) => new Set(list.map((a) => a[0]));
  return {
    artistRun: longest,
    bestArtistRun: best,
    first20Artists: main(songs.slice(0, 20)).size,
    bestFirst20Artists: Math.min(20, main(songs).size),
    artists: count.size,
  };
}

export interface RunnerScore extends PlacementCounts {
  runner: string;
  connected: boolean;
  disabled: boolean;
  playlists: PlaylistScore[];
  /** Pacebeat playlists the runner follows in Spotify, and live targets. */
  followedPacebeat: number;
  liveTargets: number;
  /** Web API calls of the day made with this runner's token (set by the benchmark). */
  calls?: number;
  /** Songs of the scanned library (match candidates) that fit a live target, and those placed. */
  scannedSongs: number;
  fittingScanned: number;
  placedScanned: number;
  /** The sandbox's recall over the whole library (recordings; liked, playlists, followed and their artists' catalogs). */
  libraryFitting: number;
  libraryPlaced: number;
  /**
   * Of the fitting scanned songs, those whose tempo lookup is done (a tempo-cache row), those of them
   * placed, and why the rest were not (`bench/shared/recall.ts`, by class). Absent in older runs' rows.
   */
  lookedUpFitting?: number;
  placedLookedUp?: number;
  recallClasses?: Record<string, number>;
}

const PACEBEAT_NAME = /^Pacebeat (\d+(?:\.\d+)?)–(\d+(?:\.\d+)?) BPM/;

/** Every playlist the runner owns that Pacebeat made (by its name), followed or deleted. */
export function pacebeatPlaylists(sb: Sandbox, spotifyUser: string) {
  const w = sb.world;
  const u = w.user(spotifyUser)!;
  const followed = new Set(u.playlists);
  return w.playlists
    .filter((p) => p && p.owner === u.index && PACEBEAT_NAME.test(p.name))
    .map((p) => ({ id: w.playlistId(p.p), name: p.name, followed: followed.has(p.p) }));
}

export function scoreRunner(
  sb: Sandbox,
  truth: Truth,
  life: RunnerLife,
  scanned: string[] | null,
  /** The product's tempo-cache row of a scanned track (by its track id), when its lookup is done. */
  tempoOf?: (trackId: string) => CachedTempo | undefined,
): RunnerScore {
  const byPlaylist = new Map(life.targets.filter((t) => t.playlistId).map((t) => [t.playlistId!, t]));
  const lists = pacebeatPlaylists(sb, life.spotifyUser);
  for (const t of life.targets)
    if (t.playlistId && !lists.some((l) => l.id === t.playlistId))
      lists.push({ id: t.playlistId, name: t.name, followed: false });
  const playlists: PlaylistScore[] = [];
  const placedSongs = new Set<number>(); // in live targets' playlists
  for (const l of lists) {
    const t = byPlaylist.get(l.id);
    const m = PACEBEAT_NAME.exec(l.name);
    const min = t?.minBpm ?? Number(m?.[1] ?? 0);
    const max = t?.maxBpm ?? Number(m?.[2] ?? 0);
    const ids = sb.admin.playlistItems(l.id).filter((x): x is string => x !== null);
    const own = [...(life.ownAdded.get(l.id) ?? [])];
    const pacebeat: string[] = [];
    for (const id of ids) {
      const k = own.indexOf(id);
      if (k >= 0) own.splice(k, 1);
      else pacebeat.push(id);
    }
    const recordings = new Set(ids.map((id) => truth.recording(id)));
    const songs = new Set(ids.map((id) => truth.song(id)));
    const distinctIds = new Set(ids).size;
    const removed = new Set((life.removed.get(l.id) ?? []).map((id) => truth.song(id)));
    let right = 0;
    let threeTwo = 0;
    for (const id of pacebeat) {
      const bpm = truth.bpm(id);
      if (fits(bpm, min, max)) right++;
      else if (fits(bpm * 1.5, min, max) || fits(bpm / 1.5, min, max)) threeTwo++;
    }
    if (t) for (const id of ids) placedSongs.add(truth.song(id));
    const statusAdded = t?.tracksAdded ?? null;
    playlists.push({
      playlistId: l.id,
      name: l.name,
      min,
      max,
      target: !!t,
      followed: l.followed,
      entries: ids.length,
      placed: pacebeat.length,
      duplicates: ids.length - songs.size,
      sameId: ids.length - distinctIds,
      sameRecording: distinctIds - recordings.size,
      sameSong: recordings.size - songs.size,
      readds: ids.filter((id) => removed.has(truth.song(id))).length,
      right,
      threeTwo,
      statusAdded,
      ...spreadOf(ids.map((id) => truth.artists(id))),
    });
  }
  const sum = (f: (p: PlaylistScore) => number) => playlists.reduce((n, p) => n + f(p), 0);

  // Recall over the scanned library: the songs of the match candidates that fit a live target.
  const live = life.targets.filter((t) => t.playlistId);
  let fittingScanned = 0;
  let placedScanned = 0;
  let scannedSongs = 0;
  let lookedUpFitting = 0;
  let placedLookedUp = 0;
  const unplaced: Unplaced[] = [];
  const removedIds = new Set([...life.removed.values()].flat());
  if (scanned) {
    const songs = new Map<number, boolean>();
    // Per fitting song, one track of it with a tempo-cache row (one the runner removed, if any).
    const lookedUp = new Map<number, Unplaced>();
    for (const id of scanned) {
      const song = truth.song(id);
      const bpm = truth.bpm(id);
      const fit = live.some((t) => fits(bpm, t.minBpm, t.maxBpm));
      songs.set(song, (songs.get(song) ?? false) || fit);
      const tempo = fit ? tempoOf?.(id) : undefined;
      if (tempo && (!lookedUp.has(song) || removedIds.has(id))) lookedUp.set(song, { trackId: id, tempo });
    }
    scannedSongs = songs.size;
    for (const [song, fit] of songs) {
      if (!fit) continue;
      fittingScanned++;
      if (placedSongs.has(song)) placedScanned++;
    }
    for (const [song, u] of lookedUp) {
      lookedUpFitting++;
      if (placedSongs.has(song)) placedLookedUp++;
      else unplaced.push(u);
    }
  }
  const ranges = live.map((t) => ({ id: t.targetId, minBpm: t.minBpm, maxBpm: t.maxBpm }));
  const recallClasses = tempoOf
    ? Object.fromEntries(recallCounts(sb, unplaced, ranges, removedIds))
    : undefined;
  // The sandbox's own scoring over the whole library (recordings), the live targets' playlists.
  let libraryFitting = 0;
  let libraryPlaced = 0;
  if (live.length > 0) {
    const s = sb.admin.score({
      userId: life.spotifyUser,
      targets: live.map((t) => ({ playlistId: t.playlistId!, minBpm: t.minBpm, maxBpm: t.maxBpm })),
      sampleSize: 0,
    });
    for (const t of s.targets) {
      libraryFitting += t.libraryFitting;
      libraryPlaced += t.libraryFitting - t.missing;
    }
  }
  return {
    runner: life.spotifyUser,
    connected: life.connected,
    disabled: life.disabled,
    playlists,
    followedPacebeat: playlists.filter((p) => p.followed).length,
    liveTargets: live.length,
    placed: sum((p) => p.placed),
    duplicates: sum((p) => p.duplicates),
    sameId: sum((p) => p.sameId),
    sameRecording: sum((p) => p.sameRecording),
    sameSong: sum((p) => p.sameSong),
    readds: sum((p) => p.readds),
    right: sum((p) => p.right),
    threeTwo: sum((p) => p.threeTwo),
    scannedSongs,
    fittingScanned,
    placedScanned,
    libraryFitting,
    libraryPlaced,
    ...(recallClasses ? { lookedUpFitting, placedLookedUp, recallClasses } : {}),
  };
}
