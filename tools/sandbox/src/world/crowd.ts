// A crowd of listeners: N users whose libraries lean on artists the way real listeners' do, a
// few very popular artists in almost everyone's library and a long tail that few share. Each user's
// favourite artists are drawn by Zipf's law over the artists ranked by popularity, deterministic from the
// world's seed and the crowd's prefix, so the crowd benchmark can measure how shared catalogs make the
// later runners cheap.
import type { Catalog } from './catalog.ts';
import { Rng } from './rng.ts';

export interface CrowdOptions {
  count: number;
  /** Usernames are `<prefix><n>` (n from 1). */
  prefix?: string;
  /** Liked Songs per user. */
  liked?: number;
  /** Artists each user follows (the first of their favourites). */
  followedArtists?: number;
  /** Artists each user's liked songs are drawn from. */
  favouriteArtists?: number;
  /** Zipf exponent: artist of popularity rank k is a favourite with weight 1 / k^s. */
  zipf?: number;
}

/** Artists with releases, most popular first (ties by index): the Zipf ranks. */
export function rankedArtists(catalog: Catalog): number[] {
  return catalog.artists
    .filter((a) => a.i > 0 && a.releases.some((r) => !catalog.releases[r]?.box))
    .sort((a, b) => b.popularity - a.popularity || a.i - b.i)
    .map((a) => a.i);
}

/** The cumulative Zipf weights of ranks 1..n, to draw a rank by binary search. */
function zipfCumulative(n: number, s: number): Float64Array {
  const cum = new Float64Array(n);
  let total = 0;
  for (let k = 0; k < n; k++) cum[k] = total += 1 / Math.pow(k + 1, s);
  for (let k = 0; k < n; k++) cum[k] = cum[k]! / total;
  return cum;
}

function drawRank(cum: Float64Array, u: number): number {
  let lo = 0;
  let hi = cum.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (cum[mid]! < u) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** Each crowd member's favourite artists (artist indices, most liked first), by username. */
export function crowdTastes(
  catalog: Catalog,
  seed: number,
  o: CrowdOptions,
): Array<{ username: string; favourites: number[] }> {
  const ranked = rankedArtists(catalog);
  const cum = zipfCumulative(ranked.length, o.zipf ?? 1);
  const want = Math.min(o.favouriteArtists ?? 8, ranked.length);
  const prefix = o.prefix ?? 'crowd';
  return Array.from({ length: o.count }, (_, i) => {
    const username = `${prefix}${i + 1}`;
    const rng = new Rng(seed, 'crowd', username);
    const fav = new Set<number>();
    for (let tries = 0; fav.size < want && tries < want * 50; tries++)
      fav.add(ranked[drawRank(cum, rng.next())]!);
    return { username, favourites: [...fav] };
  });
}
