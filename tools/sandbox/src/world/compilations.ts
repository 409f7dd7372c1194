// Compilations: various-artists releases, box sets and large compilations. Each reissues recordings
// of the artists' own releases (same ISRC, same audio) under new track numbers.
import { Rng } from './rng.ts';
import type { Artist, CatalogSkeleton, Release } from './skeleton.ts';

export function makeVariousArtists(sk: CatalogSkeleton, n: number): void {
  for (let k = 0; k < n; k++) {
    const rng = new Rng(sk.seed, 'va', k);
    const sources: number[] = [];
    const count = rng.int(15, 25);
    for (let t = 0; t < count * 3 && sources.length < count; t++) {
      const a = sk.artists[1 + Math.floor(rng.next() * (sk.artists.length - 1))] as Artist;
      const studio = a.releases
        .map((r) => sk.releases[r] as Release)
        .filter((r) => r.kind === 'studio' || r.kind === 'single');
      if (studio.length === 0) continue;
      const rel = rng.pick(studio);
      sources.push(rel.firstG + rng.int(0, rel.trackCount - 1));
    }
    addVariousArtists(sk, rng, sources, false);
  }
}

function addVariousArtists(sk: CatalogSkeleton, rng: Rng, sources: number[], box: boolean): void {
  const rel = sk.addRelease({
    artist: 0,
    kind: 'va',
    albumType: 'compilation',
    trackCount: sources.length,
    year: rng.int(1995, 2026),
    month: rng.int(1, 12),
    day: rng.int(1, 28),
    precision: 'day',
    sources,
  });
  if (box) rel.box = true;
  (sk.artists[0] as Artist).releases.push(rel.r);
  for (const g of sources) {
    const owner = sk.artists[sk.releaseOf(g).artist] as Artist;
    if (owner.appearsOn[owner.appearsOn.length - 1] !== rel.r) owner.appearsOn.push(rel.r);
  }
}

/** Box sets of 60-300 tracks for artists with enough songs (a few per cent, most of the prolific). */
export function makeBoxSets(sk: CatalogSkeleton, artists: number): void {
  let made = 0;
  let richest: { i: number; songs: number[] } | undefined;
  for (let i = 1; i <= artists; i++) {
    const songs = ownSongs(sk, i);
    if (songs.length < 60) continue;
    if (!richest || songs.length > richest.songs.length) richest = { i, songs };
    const rng = new Rng(sk.seed, 'box', i);
    if (!rng.chance(songs.length >= 200 ? 0.4 : 0.05)) continue;
    boxSet(sk, rng, i, songs);
    made++;
  }
  // Every world has at least one.
  if (made === 0 && richest) boxSet(sk, new Rng(sk.seed, 'box', richest.i), richest.i, richest.songs);
}

/** Studio, EP and single tracks of an artist, in release order. */
function ownSongs(sk: CatalogSkeleton, i: number): number[] {
  const out: number[] = [];
  for (const r of (sk.artists[i] as Artist).releases) {
    const rel = sk.releases[r] as Release;
    if (rel.kind !== 'studio' && rel.kind !== 'ep' && rel.kind !== 'single') continue;
    for (let t = 0; t < rel.trackCount; t++) out.push(rel.firstG + t);
  }
  return out;
}

function boxSet(sk: CatalogSkeleton, rng: Rng, i: number, songs: number[]): void {
  const n = Math.min(songs.length, rng.int(60, 300));
  const last = (sk.artists[i] as Artist).releases
    .map((r) => (sk.releases[r] as Release).year)
    .reduce((a, b) => Math.max(a, b), 1965);
  const rel = sk.addRelease({
    artist: i,
    kind: 'compilation',
    albumType: 'compilation',
    trackCount: n,
    year: Math.min(2026, last + rng.int(0, 2)),
    month: rng.int(1, 12),
    day: rng.int(1, 28),
    precision: 'day',
    sources: songs.slice(0, n),
  });
  rel.box = true;
}

/** Various-artists compilations of 60-150 tracks ("100 Running Hits"). */
export function makeLargeCompilations(sk: CatalogSkeleton, n: number): void {
  for (let k = 0; k < n; k++) {
    const rng = new Rng(sk.seed, 'va-large', k);
    const count = rng.int(60, 150);
    const sources = new Set<number>();
    for (let t = 0; t < count * 3 && sources.size < count; t++) {
      const a = sk.artists[1 + Math.floor(rng.next() * (sk.artists.length - 1))] as Artist;
      const own = a.releases.map((r) => sk.releases[r] as Release).filter((r) => r.kind === 'studio');
      if (own.length === 0) continue;
      const rel = rng.pick(own);
      sources.add(rel.firstG + rng.int(0, rel.trackCount - 1));
    }
    addVariousArtists(sk, rng, [...sources], true);
  }
}
