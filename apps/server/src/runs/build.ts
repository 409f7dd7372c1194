// Building a run: songs of the runner's library, in playing order, whose tempo fits the segment they play
// in, with song boundaries close to the plan's changes of segment. Pure functions, no I/O.
//
// The timeline is filled from the start, one song at a time. Each candidate is costed in seconds:
//   - every change of segment it plays across costs its distance to the nearer end of the song (a change
//     between two segments of the same range costs nothing), and a segment it would swallow whole costs
//     twice its length; a song takes the tempo of the segment it mostly covers, and must fit it;
//   - the song's end, when the next change is too close for another song to fit before it, is looked
//     ahead: the best next song's cost is added (so the last two songs of a stretch land on the change);
//   - a song the run's last builds used costs STALE_COST_S, one from outside Liked Songs CATALOG_COST_S,
//     and a seeded jitter (up to JITTER_S) varies the choice between equals from one build to the next;
//   - no artist within ARTIST_GAP songs of their last one, while the pool allows.
// Inside a segment the songs are then ordered by tempo (smooth changes), artists kept apart.
import type { RunFit, RunPlanSegment } from '@pacebeat/contract';
import { songOf, spanFactor } from '../playlists/matching.ts';
import type { TempoSpan } from '../tempo/span.ts';
import { SongSet } from '../playlists/song-identity.ts';

/** A song of the runner's library that may go into a run: its checked (or corrected) tempo. */
export interface RunPoolSong {
  trackId: string;
  recordingKey: string;
  title: string;
  artistIds: string[];
  durationMs: number;
  bpm: number;
  /** The top of where its true tempo lies (matching.ts spanOf; the runner's own tempo: exactly as given). */
  hi: number;
  fromLikedSongs: boolean;
}

export interface BuiltSong {
  song: RunPoolSong;
  segment: number;
  startS: number;
  fit: RunFit;
  spans: boolean;
  fresh: boolean;
}

export interface BuildOptions {
  halfTime: boolean;
  /** Recording keys of the songs the run's last builds used. */
  recent: ReadonlySet<string>;
  /** Varies the choice between equally good songs from one build to the next. */
  seed: number;
}

/** No artist again within this many songs (while the pool allows). */
export const ARTIST_GAP = 4;
export const STALE_COST_S = 60;
/** Per song closer than ARTIST_GAP to the artist's last one, when the pool cannot keep them apart. */
export const REPEAT_ARTIST_COST_S = 90;
export const CATALOG_COST_S = 10;
export const JITTER_S = 20;
/** The run ends when less than this is left to fill: a song more would run on well past the plan. */
export const END_SLACK_S = 40;
/** A song playing at least this long in a segment of another range is shown as spanning the change. */
export const SPAN_MIN_S = 15;
/** A gap before a change shorter than this cannot hold another song: the end is looked ahead. */
const LOOKAHEAD_WINDOW_S = 420;
const LOOKAHEAD_CANDIDATES = 24;
/** Past the run's end, a second of song costs this much (the runner stops it; silence is worse). */
const OVERRUN_WEIGHT = 0.25;

/**
 * How a tempo meets [min, max) (its span, as a pace playlist takes it: matching.ts): as it is, its double
 * (a half-time song) or its half; null when it does not.
 */
export function runFit(
  t: Pick<TempoSpan, 'bpm' | 'hi'>,
  seg: Pick<RunPlanSegment, 'min_bpm' | 'max_bpm'>,
  halfTime: boolean,
): RunFit | null {
  const f = spanFactor(t, seg.min_bpm, seg.max_bpm);
  if (f === 1) return 'as_is';
  if (!halfTime) return null;
  return f === 2 ? 'half_time' : f === 0.5 ? 'double_time' : null;
}

/** The beat a runner steps to: the tempo as the segment meets it. */
export const stepBpm = (bpm: number, fit: RunFit) =>
  fit === 'half_time' ? bpm * 2 : fit === 'double_time' ? bpm / 2 : bpm;

const rangeKey = (s: Pick<RunPlanSegment, 'min_bpm' | 'max_bpm'>) => `${s.min_bpm}-${s.max_bpm}`;

/** A number in [0, 1) from a seed and a string (FNV-1a, then a mix): the same pair, the same number. */
function hashUnit(seed: number, s: string): number {
  let h = 0x811c9dc5 ^ seed;
  for (let i = 0; i < s.length; i++) h = Math.imul(h ^ s.charCodeAt(i), 0x01000193);
  h = Math.imul(h ^ (h >>> 15), 0x2c1b3c6d);
  h ^= h >>> 13;
  return (h >>> 0) / 2 ** 32;
}

/** The songs that fit each segment (by range), counted once per song. */
export function poolSizes(
  segments: readonly RunPlanSegment[],
  pool: readonly RunPoolSong[],
  halfTime: boolean,
): number[] {
  const byRange = new Map<string, number>();
  for (const s of segments) {
    const key = rangeKey(s);
    if (byRange.has(key)) continue;
    const songs = new SongSet();
    for (const p of pool) if (runFit(p, s, halfTime)) songs.add(songOf(p));
    byRange.set(key, songs.size);
  }
  return segments.map((s) => byRange.get(rangeKey(s))!);
}

/** The distance from each planned change of segment to the nearest song boundary, in seconds. */
export function boundaryMisses(
  segments: readonly RunPlanSegment[],
  songs: ReadonlyArray<{ startS: number; durationMs: number }>,
): number[] {
  const edges = [
    ...songs.map((s) => s.startS),
    ...songs.slice(-1).map((s) => s.startS + s.durationMs / 1000),
  ];
  return segments.slice(1).map((seg) => {
    let best = Infinity;
    for (const e of edges) best = Math.min(best, Math.abs(e - seg.start_s));
    return Number.isFinite(best) ? best : seg.start_s;
  });
}

/** Fills the run's timeline from the pool (see the top of this file). */
export function buildRun(
  segments: readonly RunPlanSegment[],
  pool: readonly RunPoolSong[],
  o: BuildOptions,
): BuiltSong[] {
  if (segments.length === 0) return [];
  // Where no song is left for a segment, the rest of it is cut and what follows moves up (`cut`).
  const starts = segments.map((s) => s.start_s);
  const ends = segments.map((s) => s.start_s + s.duration_s);
  let total = ends[ends.length - 1]!;
  const cut = (t: number) => {
    const k = segmentAt(t);
    const r = ends[k]! - t;
    ends[k] = t;
    for (let i = k + 1; i < segments.length; i++) [starts[i], ends[i]] = [starts[i]! - r, ends[i]! - r];
    total -= r;
  };
  const fits = new Map<string, Array<RunFit | null>>();
  const fitIn = (songIndex: number, seg: number): RunFit | null => {
    const key = rangeKey(segments[seg]!);
    let row = fits.get(key);
    if (!row) {
      row = pool.map((p) => runFit(p, segments[seg]!, o.halfTime));
      fits.set(key, row);
    }
    return row[songIndex]!;
  };
  const segmentAt = (t: number) => {
    let lo = 0;
    let hi = segments.length - 1;
    while (lo < hi) {
      const mid = (lo + hi) >> 1;
      if (ends[mid]! <= t) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  };
  /** The segment [t, e) covers most of (within the run). */
  const majority = (t: number, e: number) => {
    const first = segmentAt(t);
    let best = first;
    let bestLen = -1;
    for (let i = first; i < segments.length && starts[i]! < e; i++) {
      const len = Math.min(e, ends[i]!) - Math.max(t, starts[i]!);
      if (len > bestLen) [best, bestLen] = [i, len];
    }
    return best;
  };
  const sameRange = (a: number, b: number) => rangeKey(segments[a]!) === rangeKey(segments[b]!);
  /** The cost of the plan's changes a song from t to e plays across, and of running past the end. */
  const crossingCost = (t: number, e: number) => {
    let cost = 0;
    for (let i = segmentAt(t); i < segments.length - 1 && ends[i]! < e; i++) {
      const b = ends[i]!;
      if (b <= t) continue;
      if (!sameRange(i, i + 1)) cost += Math.min(b - t, e - b);
      if (ends[i + 1]! < e && starts[i + 1]! > t) cost += 2 * (ends[i + 1]! - starts[i + 1]!); // swallowed whole
    }
    if (e > total) cost += (e - total) * OVERRUN_WEIGHT;
    return cost;
  };
  const nextChange = (e: number) => {
    for (let i = segmentAt(e); i < segments.length; i++) if (ends[i]! > e) return ends[i]!;
    return total;
  };

  /** Whether [t, e) plays more than SPAN_MIN_S in a segment of another range than its own. */
  const spansChange = (t: number, e: number, own: number) => {
    for (let i = segmentAt(t); i < segments.length && starts[i]! < e; i++) {
      const len = Math.min(e, ends[i]!) - Math.max(t, starts[i]!);
      if (i !== own && !sameRange(i, own) && len >= SPAN_MIN_S) return true;
    }
    return false;
  };

  const used = new SongSet();
  const out: BuiltSong[] = [];
  const jitter = pool.map((p) => hashUnit(o.seed, p.recordingKey) * JITTER_S);
  const baseCost = pool.map(
    (p, i) =>
      (o.recent.has(p.recordingKey) ? STALE_COST_S : 0) +
      (p.fromLikedSongs ? 0 : CATALOG_COST_S) +
      jitter[i]!,
  );
  const refs = pool.map((p) => songOf(p));

  interface Option {
    i: number;
    seg: number;
    fit: RunFit;
    cost: number;
    spaced: boolean;
  }
  /** Every song that may start at t, with its own cost (no lookahead). */
  const options = (t: number, recentArtists: ReadonlySet<string>, skip = -1): Option[] => {
    const list: Option[] = [];
    for (let i = 0; i < pool.length; i++) {
      if (i === skip || used.has(refs[i]!)) continue;
      const p = pool[i]!;
      const e = t + p.durationMs / 1000;
      const seg = majority(t, e);
      const fit = fitIn(i, seg);
      if (fit === null) continue;
      const spaced = !p.artistIds.some((a) => recentArtists.has(a));
      list.push({ i, seg, fit, cost: crossingCost(t, e) + baseCost[i]!, spaced });
    }
    return list;
  };
  /** Songs since one of these artists last played (ARTIST_GAP or more: not within the window). */
  const songsSince = (artistIds: readonly string[]) => {
    for (let k = 1; k < ARTIST_GAP && k <= out.length; k++)
      if (out[out.length - k]!.song.artistIds.some((a) => artistIds.includes(a))) return k;
    return ARTIST_GAP;
  };
  const best = (list: Option[]) => {
    let pick: Option | undefined;
    for (const x of list) if (!pick || x.cost < pick.cost) pick = x;
    return pick;
  };

  let t = 0;
  while (total - t > END_SLACK_S) {
    const recentArtists = new Set(out.slice(-ARTIST_GAP + 1).flatMap((s) => s.song.artistIds));
    const all = options(t, recentArtists);
    const spaced = all.filter((x) => x.spaced);
    // A pool too small to keep every artist apart: the nearer an artist's last song, the dearer.
    if (spaced.length === 0)
      for (const x of all) x.cost += REPEAT_ARTIST_COST_S * (ARTIST_GAP - songsSince(pool[x.i]!.artistIds));
    const list = spaced.length > 0 ? spaced : all;
    if (list.length === 0) {
      cut(t); // no song left for this segment: the run is shorter than planned
      continue;
    }
    // Where the next change is near, the song after this one is looked ahead for the best pair.
    if (nextChange(t) - t < LOOKAHEAD_WINDOW_S * 2) {
      list.sort((a, b) => a.cost - b.cost);
      for (const x of list.slice(0, LOOKAHEAD_CANDIDATES)) {
        const e = t + pool[x.i]!.durationMs / 1000;
        if (total - e <= END_SLACK_S) continue;
        const gap = nextChange(e) - e;
        if (gap >= LOOKAHEAD_WINDOW_S) continue;
        const after = best(options(e, new Set(pool[x.i]!.artistIds), x.i));
        x.cost += after ? after.cost - baseCost[after.i]! : gap;
      }
    }
    const pick = best(list)!;
    const p = pool[pick.i]!;
    used.add(refs[pick.i]!);
    const e = t + p.durationMs / 1000;
    out.push({
      song: p,
      segment: pick.seg,
      startS: t,
      fit: pick.fit,
      spans: spansChange(t, e, pick.seg),
      fresh: !o.recent.has(p.recordingKey),
    });
    t = e;
  }
  return smoothWithinSegments(out);
}

/**
 * Inside each segment, the songs that play wholly in it are ordered by the beat the runner steps to
 * (a gentle ramp, not a jump back and forth), each taking the slowest that keeps its artists ARTIST_GAP
 * songs from their last (the songs before the segment count); when that spaces artists worse than the
 * build's own order, the build's order stays. Their total length is unchanged, so the changes of segment
 * stay where they were.
 */
export function smoothWithinSegments(songs: BuiltSong[]): BuiltSong[] {
  const out = [...songs];
  const shares = (a: BuiltSong, b: BuiltSong) => a.song.artistIds.some((x) => b.song.artistIds.includes(x));
  /** The closest two songs sharing an artist come in `list`, counting from `from` (ARTIST_GAP at most). */
  const spacing = (list: BuiltSong[], from: number) => {
    let best = ARTIST_GAP;
    for (let k = from; k < list.length; k++)
      for (let d = 1; d < ARTIST_GAP && k - d >= 0; d++)
        if (shares(list[k]!, list[k - d]!)) best = Math.min(best, d);
    return best;
  };
  let i = 0;
  while (i < out.length) {
    if (out[i]!.spans) {
      i++;
      continue;
    }
    let j = i;
    while (j < out.length && !out[j]!.spans && out[j]!.segment === out[i]!.segment) j++;
    const before = out.slice(Math.max(0, i - ARTIST_GAP + 1), i);
    const left = out.slice(i, j).sort((a, b) => stepBpm(a.song.bpm, a.fit) - stepBpm(b.song.bpm, b.fit));
    const ramp: BuiltSong[] = [];
    while (left.length > 0) {
      const recent = [...before, ...ramp].slice(-(ARTIST_GAP - 1));
      const k = left.findIndex((x) => !recent.some((r) => shares(r, x)));
      ramp.push(left.splice(Math.max(0, k), 1)[0]!);
    }
    const own = out.slice(i, j);
    const run =
      spacing([...before, ...ramp], before.length) >= spacing([...before, ...own], before.length)
        ? ramp
        : own;
    let start = out[i]!.startS;
    for (const s of run) {
      s.startS = start;
      start += s.song.durationMs / 1000;
    }
    out.splice(i, run.length, ...run);
    i = j;
  }
  return out;
}
