// GET /search: field filters (artist:, track:, album:, isrc:, year:) and free words over tracks,
// artists and albums. The full-text index of track names is built on the first search that needs it.
import type { Ctx } from '../context.ts';
import type { Call } from './route.ts';
import { paging } from './present.ts';
import { fold } from '../world/names.ts';
import type { Catalog } from '../world/catalog.ts';

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

const trackIndexes = new WeakMap<Catalog, string[]>();

function trackNames(cat: Catalog): string[] {
  let idx = trackIndexes.get(cat);
  if (!idx) {
    idx = new Array<string>(cat.trackTotal);
    for (const rel of cat.releases) for (const t of cat.tracksOf(rel.r)) idx[t.g] = fold(t.name);
    trackIndexes.set(cat, idx);
  }
  return idx;
}

/** Tracks matching the query, best (most popular artist) first. */
export function searchTracks(ctx: Ctx, pq: ParsedQuery): number[] {
  const cat = ctx.world.catalog;
  const f = pq.filters;
  let candidates: number[];
  const isrc = f.get('isrc');
  if (isrc) {
    const g = cat.trackByIsrc(isrc);
    candidates = g === undefined ? [] : [g];
  } else if (f.get('artist')) {
    const name = f.get('artist') as string;
    const artists = cat.artists.filter((a) => fold(a.name).includes(name));
    candidates = [...new Set(artists.flatMap((a) => cat.creditedTracks(a.i)))];
  } else {
    candidates = Array.from({ length: cat.trackTotal }, (_, g) => g);
  }
  const needsNames = f.has('track') || pq.words.length > 0;
  const names = needsNames && candidates.length > 5000 ? trackNames(cat) : undefined;
  const out = candidates.filter((g) => {
    const rel = cat.releaseOf(g);
    const name = names ? (names[g] as string) : needsNames ? fold(cat.track(g).name) : '';
    if (f.has('track') && !name.includes(f.get('track') as string)) return false;
    if (f.has('year')) {
      const [lo, hi] = (f.get('year') as string).split('-').map(Number);
      if (rel.year < (lo as number) || rel.year > (hi ?? lo ?? 0)) return false;
    }
    if (f.has('album') && !fold(cat.releaseTitle(rel)).includes(f.get('album') as string)) return false;
    for (const w of pq.words) {
      if (name.includes(w)) continue;
      const t = cat.track(g);
      if (t.artists.some((i) => fold(cat.artists[i]?.name ?? '').includes(w))) continue;
      return false;
    }
    return true;
  });
  const pop = (g: number) => cat.artists[cat.releaseOf(g).artist]?.popularity ?? 0;
  return out.sort((a, b) => pop(b) - pop(a) || a - b);
}

export function search(ctx: Ctx, call: Call, q: string, types: string[], limit: number, offset: number) {
  const pq = parseQuery(q);
  const cat = ctx.world.catalog;
  const base = ctx.baseUrls.spotifyApi;
  const extra = `&query=${encodeURIComponent(q)}&type=${types.join(',')}`;
  const out: Record<string, unknown> = {};
  const words = [...pq.words, ...(pq.filters.get('artist') ? [pq.filters.get('artist') as string] : [])];
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
      const all = cat.artists
        .filter((a) => a.i > 0 && words.every((w) => fold(a.name).includes(w)))
        .sort((a, b) => b.popularity - a.popularity);
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
      const albumWords = [
        ...pq.words,
        ...(pq.filters.get('album') ? [pq.filters.get('album') as string] : []),
      ];
      const artistFilter = pq.filters.get('artist');
      const all = cat.releases
        .filter(
          (r) =>
            (!artistFilter || fold(cat.artists[r.artist]?.name ?? '').includes(artistFilter)) &&
            albumWords.every((w) => fold(cat.releaseTitle(r)).includes(w)),
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
