// The order of the songs Pacebeat appends: artists spread out. A runner plays a pace playlist in order,
// and the library lists its tracks catalog by catalog, so in rank order one band's whole catalog would
// come in a row (20 songs of one band were seen in a 170–180 playlist). Pure functions, no I/O.
//
// The rule: no artist (any credited one, features included) within the last SPREAD_WINDOW songs of the
// playlist, counting what earlier adds appended (its tail). Songs that cannot go without breaking it wait
// in the ready list for other artists' songs to keep them company; they are never left out for good:
//   - a playlist whose songs (placed and ready) come from SPREAD_WINDOW artists or fewer gets a window of
//     (artists − 1), at least 1; what that cannot place goes as an overdue song does (at most
//     OVERDUE_RUN_CAP of one artist in a row) and the rest waits: early in a library's read those few
//     artists are often just the first ones read (bench:lifecycle's newcomer got 9 songs of one band in a
//     row at her first fill, where her later songs allowed 3). After `holdMs` no company is coming: the best
//     order those artists allow (the fewest songs of one artist in a row);
//   - a song that has waited `holdMs` (overdue) goes with less room: a window down to 1, else at most
//     OVERDUE_RUN_CAP songs of one artist in a row (the tail counted); what cannot go even so waits on.
//     The writer calls every held song overdue once the runner's library is read and looked up (no
//     company is coming then);
//   - a song that has waited much longer (stale: the library has long been read, no company is coming)
//     goes in the best order possible then;
//   - while a runner has fewer than 50 songs placed, the window shrinks (to 2 at the least) rather than
//     hold songs back: they watch their first songs arrive.

/** No artist twice within this many songs: 5 songs (about 18 minutes of running) between two of one artist. */
export const SPREAD_WINDOW = 5;

/**
 * An overdue song goes at most this many of its artist in a row. 2: the most a runner is asked to hear in a
 * row where the pool has other artists (songs held over a night all became overdue together and went as
 * runs of 5 to 8 when they went "in the best order possible").
 */
export const OVERDUE_RUN_CAP = 2;

/** What the spread looks at in a song: its credited artists (the first is the main one). */
export interface Spreadable {
  trackId: string;
  artistIds?: readonly string[];
  artistId?: string | null;
}

/** A song's artists; a song with none known stands for itself (it never clashes). */
export const artistsOf = (s: Spreadable): readonly string[] =>
  s.artistIds && s.artistIds.length > 0 ? s.artistIds : s.artistId ? [s.artistId] : [`track:${s.trackId}`];

export interface SpreadInput<T> {
  /** The ready songs, best-ranked first. */
  ready: readonly T[];
  /** The artists of the last songs Pacebeat appended to the playlist, oldest first (at least `window` of them). */
  tail?: ReadonlyArray<readonly string[]>;
  /** Every artist of the songs the playlist already holds from Pacebeat. */
  placedArtists?: Iterable<string>;
  window?: number;
  /** Songs that have waited long: placed now with less room (window down to 1, else runs of at most 2). */
  overdue?: (t: T) => boolean;
  /** Songs that may wait no longer: placed now, in the best order possible. */
  stale?: (t: T) => boolean;
  /**
   * While a runner's first songs come in (they watch them arrive, and a held song looks like a stall), the
   * window may shrink down to this to place what would wait: the largest window that places every ready
   * song, at least this one.
   */
  shrinkTo?: number;
}

export interface Spread<T> {
  /** The songs that go now, in the order to append them. */
  order: T[];
  /** The songs that wait for other artists' company (still ready). */
  held: T[];
  /** The window the order keeps (below SPREAD_WINDOW when the playlist has too few artists for it). */
  window: number;
}

/**
 * Which ready songs go now and in what order (see the file's head). Greedy: each next song is the
 * best-ranked one whose artists are not among the last `window` songs, unless an artist has so many songs
 * left that it must come now to keep its songs apart ("most remaining first" then).
 */
export function spreadArtists<T extends Spreadable>(input: SpreadInput<T>): Spread<T> {
  const W = input.window ?? SPREAD_WINDOW;
  if (W <= 0) return { order: [...input.ready], held: [], window: 0 };
  const tail = input.tail ?? [];
  const pool = new Set(input.placedArtists ?? []);
  for (const a of tail.flat()) pool.add(a);
  for (const s of input.ready) for (const a of artistsOf(s)) pool.add(a);
  const few = pool.size <= W;
  const w = Math.max(1, Math.min(W, pool.size - 1));
  const first = greedy(input.ready, tail, { window: w });
  if (first.held.length === 0) return { ...first, window: w };
  const late = (s: T) => input.overdue?.(s) ?? false;
  const must = new Set(first.held.filter((s) => (input.stale?.(s) ?? false) || (few && late(s))));
  // A few artists' songs go with less room at once, as overdue songs do; after holdMs in the best order.
  const overdue = first.held.filter((s) => !must.has(s) && (few || late(s)));
  if (must.size === 0 && overdue.length > 0) {
    for (let k = w - 1; k >= 1; k--) {
      const r = greedy(input.ready, tail, { window: k });
      if (r.held.every((s) => !overdue.includes(s))) return { ...r, window: k };
    }
    const one = greedy(input.ready, tail, { window: 1 });
    const capped = greedy(input.ready, tail, { window: 0, runCap: OVERDUE_RUN_CAP });
    return capped.order.length > one.order.length ? { ...capped, window: 0 } : { ...one, window: 1 };
  }
  if (must.size === 0) {
    let best: Spread<T> = { ...first, window: w };
    for (let k = w - 1; k >= Math.max(1, input.shrinkTo ?? w) && best.held.length > 0; k--)
      best = { ...greedy(input.ready, tail, { window: k }), window: k };
    return best;
  }
  // Some songs must go: the largest window that places them all, else the shortest runs of one artist.
  for (let k = w - 1; k >= 1; k--) {
    const r = greedy(input.ready, tail, { window: k });
    if (r.held.every((s) => !must.has(s))) return { ...r, window: k };
  }
  // The shortest run cap that places every song: from the bound the counts set, doubling, then halving
  // back (a few passes, not one per song: 500 songs of one band would otherwise take 167).
  const placesAll = (cap: number) => greedy(input.ready, tail, { window: 0, runCap: cap });
  let lo = Math.max(2, bestArtistRun(input.ready.map(artistsOf)));
  let found = placesAll(lo);
  if (found.held.length === 0) return { ...found, window: 0 };
  let hi = lo;
  for (;;) {
    [lo, hi] = [hi + 1, Math.min(hi * 2, input.ready.length + tail.length)];
    found = placesAll(hi);
    if (found.held.length === 0 || hi >= input.ready.length + tail.length) break;
  }
  while (lo < hi) {
    const mid = Math.floor((lo + hi) / 2);
    const r = placesAll(mid);
    if (r.held.length === 0) [hi, found] = [mid, r];
    else lo = mid + 1;
  }
  return { ...found, window: 0 };
}

/**
 * One greedy pass. `window`: no artist of a song among the last `window` songs. `runCap` (with window 0):
 * no artist in more than `runCap` songs in a row, the artist with most songs left first.
 */
function greedy<T extends Spreadable>(
  ready: readonly T[],
  tail: ReadonlyArray<readonly string[]>,
  o: { window: number; runCap?: number },
): { order: T[]; held: T[] } {
  const songs = ready.map((s) => ({ s, artists: artistsOf(s), used: false }));
  const left = new Map<string, number>();
  for (const x of songs) for (const a of x.artists) left.set(a, (left.get(a) ?? 0) + 1);
  // Where each artist was last heard (positions before 0 are the tail), and its current run.
  const lastAt = new Map<string, number>();
  tail.forEach((artists, i) => {
    for (const a of artists) lastAt.set(a, i - tail.length);
  });
  let runs = new Map<string, number>();
  for (const artists of tail) runs = new Map(artists.map((a) => [a, (runs.get(a) ?? 0) + 1]));
  const order: T[] = [];
  let remaining = songs.length;
  const free = (artists: readonly string[], pos: number) =>
    o.runCap !== undefined
      ? artists.every((a) => (runs.get(a) ?? 0) < o.runCap!)
      : artists.every((a) => (lastAt.get(a) ?? -Infinity) < pos - o.window);
  const pressure = (artists: readonly string[]) => Math.max(...artists.map((a) => left.get(a) ?? 0));
  while (remaining > 0) {
    const pos = order.length;
    // An artist with c songs left needs (c − 1)(window + 1) + 1 places: when that is all there is, it goes now.
    const maxLeft = Math.max(0, ...left.values());
    const pressing =
      o.runCap !== undefined ? 1 : remaining <= (maxLeft - 1) * (o.window + 1) + 1 ? maxLeft : Infinity;
    let pick: (typeof songs)[number] | undefined;
    let pickPressure = -1;
    for (const x of songs) {
      if (x.used || !free(x.artists, pos)) continue;
      if (pressing === Infinity) {
        pick = x;
        break;
      }
      const p = pressure(x.artists);
      if (p > pickPressure) [pick, pickPressure] = [x, p];
      if (p >= maxLeft) break;
    }
    if (!pick) break;
    pick.used = true;
    remaining--;
    order.push(pick.s);
    const next = new Map<string, number>();
    for (const a of pick.artists) {
      left.set(a, left.get(a)! - 1);
      if (left.get(a) === 0) left.delete(a);
      lastAt.set(a, pos);
      next.set(a, (runs.get(a) ?? 0) + 1);
    }
    runs = next;
  }
  return { order, held: songs.filter((x) => !x.used).map((x) => x.s) };
}

// ---- measures (benchmarks, tests) ------------------------------------------------------------------

/**
 * How close two songs sharing an artist come, in songs (1: side by side); Infinity when none share one.
 * The spread keeps it above its window.
 */
export function closestSameArtist(songs: ReadonlyArray<readonly string[]>): number {
  let best = Infinity;
  songs.forEach((a, i) => {
    for (let j = i - 1; j >= 0; j--)
      if (songs[j]!.some((x) => a.includes(x))) {
        best = Math.min(best, i - j);
        break;
      }
  });
  return best;
}

/** The longest run of consecutive songs that share an artist. */
export function longestArtistRun(songs: ReadonlyArray<readonly string[]>): number {
  let best = 0;
  let runs = new Map<string, number>();
  for (const artists of songs) {
    const next = new Map<string, number>();
    for (const a of artists) next.set(a, (runs.get(a) ?? 0) + 1);
    runs = next;
    best = Math.max(best, ...runs.values());
  }
  return best;
}

/** The shortest longest run these songs allow in any order: an artist of c songs among n needs c − 1 breaks. */
export function bestArtistRun(songs: ReadonlyArray<readonly string[]>): number {
  const n = songs.length;
  const count = new Map<string, number>();
  for (const artists of songs) for (const a of new Set(artists)) count.set(a, (count.get(a) ?? 0) + 1);
  let best = n > 0 ? 1 : 0;
  for (const c of count.values()) best = Math.max(best, Math.ceil(c / (n - c + 1)));
  return best;
}

/** Distinct main (first) artists among the first `n` songs. */
export const distinctFirstArtists = (songs: ReadonlyArray<readonly string[]>, n = 20): number =>
  new Set(songs.slice(0, n).map((a) => a[0] ?? '')).size;

/** The most distinct main artists the first `n` songs could have, from these songs. */
export const bestDistinctFirstArtists = (songs: ReadonlyArray<readonly string[]>, n = 20): number =>
  Math.min(n, new Set(songs.map((a) => a[0] ?? '')).size);

/** The spread measures of one playlist: songs in order, each as its artists. */
export function spreadMeasures(songs: ReadonlyArray<readonly string[]>) {
  return {
    longestRun: longestArtistRun(songs),
    bestRun: bestArtistRun(songs),
    first20: distinctFirstArtists(songs),
    bestFirst20: bestDistinctFirstArtists(songs),
  };
}
