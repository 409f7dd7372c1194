// Fuzzy matching for search, as Spotify's is: words in any order, a word's prefix, a typo or two,
// accents and case ignored. A word index of track names is built on the first search that needs it.
import { fold } from '../world/names.ts';
import type { Catalog } from '../world/catalog.ts';

/** Lower-case, accent-free words of a text. */
export const words = (text: string): string[] =>
  fold(text)
    .split(/[^\p{L}\p{N}']+/u)
    .filter((w) => w !== '');

/** Edit distance (insertions, deletions, substitutions, adjacent swaps), or max + 1 when above max. */
export function editDistance(a: string, b: string, max: number): number {
  if (Math.abs(a.length - b.length) > max) return max + 1;
  let prev2: number[] = [];
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const cur = [i];
    let best = i;
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      let v = Math.min((prev[j] as number) + 1, (cur[j - 1] as number) + 1, (prev[j - 1] as number) + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1])
        v = Math.min(v, (prev2[j - 2] as number) + 1);
      cur.push(v);
      best = Math.min(best, v);
    }
    if (best > max) return max + 1;
    prev2 = prev;
    prev = cur;
  }
  return prev[b.length] as number;
}

/** How well a query word matches a word of a name: 1 equal, 0.8 a prefix, 0.6 a typo away, else 0. */
export function wordScore(query: string, word: string): number {
  if (query === word) return 1;
  if (word.startsWith(query)) return 0.8;
  const typos = query.length >= 8 ? 2 : query.length >= 4 ? 1 : 0;
  return typos > 0 && editDistance(query, word, typos) <= typos ? 0.6 : 0;
}

/**
 * How well the query words match a name (0..1): the mean of each query word's best match, lower for
 * every word of the name the query does not ask for. 0 when more than one query word is missing (or
 * any, for queries of one or two words).
 */
export function nameScore(query: string[], name: string[]): number {
  if (query.length === 0) return 1;
  let sum = 0;
  let missing = 0;
  for (const q of query) {
    let best = 0;
    for (const w of name) best = Math.max(best, wordScore(q, w));
    if (best === 0) missing++;
    sum += best;
  }
  if (missing > (query.length >= 3 ? 1 : 0)) return 0;
  const extra = Math.max(0, name.length - query.length);
  return Math.max(0.05, sum / query.length - 0.05 * extra);
}

interface WordIndex {
  /** Each track's name as words. */
  names: string[][];
  /** word → tracks whose name has it. */
  postings: Map<string, number[]>;
}

const indexes = new WeakMap<Catalog, WordIndex>();

/** The word index of every track name (built once per catalog, about a second for the largest world). */
export function wordIndex(cat: Catalog): WordIndex {
  let idx = indexes.get(cat);
  if (idx && idx.names.length === cat.trackTotal) return idx;
  const names = new Array<string[]>(cat.trackTotal);
  const postings = new Map<string, number[]>();
  for (const rel of cat.releases)
    for (const t of cat.tracksOf(rel.r)) {
      const ws = words(t.name);
      names[t.g] = ws;
      for (const w of new Set(ws)) {
        let list = postings.get(w);
        if (!list) postings.set(w, (list = []));
        list.push(t.g);
      }
    }
  idx = { names, postings };
  indexes.set(cat, idx);
  return idx;
}

/** Tracks whose name has a word matching one of the query words (equal, prefix or a typo away). */
export function tracksMatchingAnyWord(cat: Catalog, query: string[]): number[] {
  const idx = wordIndex(cat);
  const out = new Set<number>();
  for (const [word, list] of idx.postings)
    if (query.some((q) => wordScore(q, word) > 0)) for (const g of list) out.add(g);
  return [...out];
}
