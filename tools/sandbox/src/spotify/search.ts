// GET /search: field filters (artist:, track:, album:, isrc:, year:) and free words over tracks,
// artists and albums, matched fuzzily and ranked (search-index.ts). `isrc:` finds every track of the
// recording (compilations reuse it).
import type { Ctx } from '../context.ts';
import type { Call } from './route.ts';
import { paging } from './present.ts';
import { fold } from '../world/names.ts';
import type { Catalog } from '../world/catalog.ts';
import { unit } from '../world/rng.ts';
import { nameScore, tracksMatchingAnyWord, wordIndex, words } from './search-index.ts';

export interface ParsedQuery {
  filters: Map<string, string>;
  words: string[];
}

export function parseQuery(q: string): ParsedQuery {
  const filters = new Map<string, string>();
  const words: string[] = [];
  const re = /(\w+):"([^"]*)"|(\w+):(\S+)|"([^"]*)"|(\S+)/g;
  for (const m of q.matchAll(re)) {
    if (m[1]) filters.set(m[1].toLowerCase(), fold(m[2] ?? ''));
    else if (m[3]) filters.set(m[3].toLowerCase(), fold(m[4] ?? ''));
    else words.push(fold(m[5] ?? m[6] ?? ''));
  }
  return { filters, words: words.filter((w) => w !== '') };
}

/** How prominent a release is: originals above reissues and live takes, plus the artist's popularity. */
function prominence(cat: Catalog, g: number): number {
  const rel = cat.releaseOf(g);
  const kind =
    rel.kind === 'studio' || rel.kind === 'single'
      ? 0.2
      : rel.kind === 'ep' || rel.kind === 'remaster'
        ? 0.15
        : rel.kind === 'compilation' && !rel.box
          ? 0.12
          : 0.08;
  return kind + 0.3 * ((cat.artists[rel.artist]?.popularity ?? 0) / 100);
}

/** Deterministic noise per query and track: the ranking is Spotify-like, not a sort by any one field. */
const noise = (q: string, g: number) => 0.25 * unit('search-rank', q, g);

/**
 * Tracks matching the query, best first. Field filters (artist:, track:, album:, year:, isrc:) and
 * free words match fuzzily (any order, prefixes, a typo); the score weighs how well each matched, the
 * release (originals above compilation copies and live takes) and the artist's popularity, with a
 * little per-query noise, so the right track is usually near the top but not always first.
 */
export function searchTracks(ctx: Ctx, pq: ParsedQuery): number[] {
  const cat = ctx.world.catalog;
  const f = pq.filters;
  const key = [...f.entries()].map(([k, v]) => `${k}:${v}`).join(' ') + ' ' + pq.words.join(' ');
  const trackWords = words(f.get('track') ?? '');
  const artistWords = words(f.get('artist') ?? '');
  const albumWords = words(f.get('album') ?? '');
  const free = pq.words.flatMap(words);
  const isrc = f.get('isrc');
  let candidates: number[];
  if (isrc) candidates = cat.tracksByIsrc(isrc);
  else if (artistWords.length > 0) {
    const artists = cat.artists.filter((a) => a.i > 0 && nameScore(artistWords, words(a.name)) > 0);
    candidates = [...new Set(artists.flatMap((a) => cat.creditedTracks(a.i)))];
  } else if (trackWords.length > 0 || free.length > 0)
    candidates = tracksMatchingAnyWord(cat, [...trackWords, ...free]);
  else candidates = Array.from({ length: cat.trackTotal }, (_, g) => g);
  // The whole catalog's word index only when it pays (it generates every track's name).
  const needNames = trackWords.length > 0 || free.length > 0;
  const idx = needNames && candidates.length > 5000 ? wordIndex(cat) : undefined;
  const scored: Array<{ g: number; s: number }> = [];
  for (const g of candidates) {
    const rel = cat.releaseOf(g);
    if (f.has('year')) {
      const [lo, hi] = (f.get('year') as string).split('-').map(Number);
      if (rel.year < (lo as number) || rel.year > (hi ?? lo ?? 0)) continue;
    }
    let s = prominence(cat, g) + noise(key, g);
    const name = idx ? (idx.names[g] ?? []) : needNames ? words(cat.track(g).name) : [];
    if (trackWords.length > 0) {
      const m = nameScore(trackWords, name);
      if (m === 0) continue;
      s += 3 * m;
    }
    const artists = artistWords.length > 0 || free.length > 0 ? cat.track(g).artists : [];
    if (artistWords.length > 0) {
      const m = Math.max(...artists.map((i) => nameScore(artistWords, words(cat.artists[i]?.name ?? ''))));
      if (m === 0) continue;
      s += 2 * m;
    }
    if (albumWords.length > 0) {
      const m = nameScore(albumWords, words(cat.releaseTitle(rel)));
      if (m === 0) continue;
      s += m;
    }
    if (free.length > 0) {
      // Free words may match the title or an artist's name.
      const everything = [...name, ...artists.flatMap((i) => words(cat.artists[i]?.name ?? ''))];
      const m = nameScore(free, everything);
      if (m === 0) continue;
      s += 2 * m;
    }
    scored.push({ g, s });
  }
  return scored.sort((a, b) => b.s - a.s || a.g - b.g).map((x) => x.g);
}

export function search(ctx: Ctx, call: Call, q: string, types: string[], limit: number, offset: number) {
  const pq = parseQuery(q);
  const cat = ctx.world.catalog;
  const base = ctx.baseUrls.spotifyApi;
  const extra = `&query=${encodeURIComponent(q)}&type=${types.join(',')}`;
  const out: Record<string, unknown> = {};
  const free = pq.words.flatMap(words);
  const artistWords = words(pq.filters.get('artist') ?? '');
  const albumWords = [...free, ...words(pq.filters.get('album') ?? '')];
  for (const type of types) {
    if (type === 'track') {
      const all = searchTracks(ctx, pq);
      out['tracks'] = paging(
        base,
        '/search',
        all.slice(offset, offset + limit).map((g) => call.present.track(g)),
        all.length,
        limit,
        offset,
        extra,
      );
    } else if (type === 'artist') {
      const want = [...free, ...artistWords];
      const all = cat.artists
        .filter((a) => a.i > 0)
        .map((a) => ({ a, m: nameScore(want, words(a.name)) }))
        .filter((x) => x.m > 0)
        .sort(
          (x, y) =>
            2 * y.m +
            y.a.popularity / 100 +
            noise(q, y.a.i) -
            (2 * x.m + x.a.popularity / 100 + noise(q, x.a.i)),
        )
        .map((x) => x.a);
      out['artists'] = paging(
        base,
        '/search',
        all.slice(offset, offset + limit).map((a) => call.present.artist(a.i)),
        all.length,
        limit,
        offset,
        extra,
      );
    } else if (type === 'album') {
      const all = cat.releases
        .filter(
          (r) =>
            (artistWords.length === 0 ||
              nameScore(artistWords, words(cat.artists[r.artist]?.name ?? '')) > 0) &&
            nameScore(albumWords, words(cat.releaseTitle(r))) > 0,
        )
        .map((r) => r.r);
      out['albums'] = paging(
        base,
        '/search',
        all.slice(offset, offset + limit).map((r) => call.present.albumSimplified(r)),
        all.length,
        limit,
        offset,
        extra,
      );
    } else {
      out[`${type}s`] = paging(base, '/search', [], 0, limit, offset, extra);
    }
  }
  return out;
}
