// The catalog: artists and their releases are generated eagerly as a cheap skeleton (counts, dates,
// features, which recordings a compilation reuses); track names, ISRCs and durations are generated
// lazily per release. Tempo needs only the skeleton, so scoring never has to generate names.
import { Rng, hash32, unit } from './rng.ts';
import { albumTitle, artistName, isNonLatin, songTitle } from './names.ts';
import { drawTrueTempo, type TempoTruth } from './tempo.ts';

export type ReleaseKind = 'studio' | 'ep' | 'single' | 'live' | 'remaster' | 'compilation' | 'va';
export type AlbumType = 'album' | 'single' | 'compilation';

export interface Release {
  r: number;
  artist: number;
  kind: ReleaseKind;
  albumType: AlbumType;
  trackCount: number;
  year: number;
  month: number;
  day: number;
  precision: 'day' | 'year';
  firstG: number;
  /** Track index (0-based) → featured artist. */
  features?: Map<number, number>;
  /** For live, remaster, compilation and various-artists releases: the studio track each track takes its song from. */
  sources?: number[];
}

export interface Artist {
  i: number;
  name: string;
  country: string;
  popularity: number;
  followers: number;
  genres: string[];
  releases: number[];
  appearsOn: number[];
  /** Every release this artist is credited on (own and appears-on), for search and scoring. */
}

export interface Track {
  g: number;
  r: number;
  /** 1-based position on the release. */
  no: number;
  name: string;
  artists: number[];
  durationMs: number;
  explicit: boolean;
  isrc: string;
  /** The recording this track is (same ISRC, same audio): itself, or the original for compilations. */
  recording: number;
  /** The studio track this track's song comes from (itself for studio tracks). */
  song: number;
}

export interface CatalogSize {
  artists: number;
}

const COUNTRIES = ['US', 'GB', 'SE', 'DE', 'FR', 'JP', 'KR', 'BR', 'NL', 'AU', 'CA', 'ES', 'IT', 'NO'];
const GENRES = [
  'pop',
  'dance pop',
  'indie rock',
  'house',
  'techno',
  'drum and bass',
  'hip hop',
  'r&b',
  'synthpop',
  'punk',
  'soul',
  'funk',
  'edm',
  'k-pop',
  'j-pop',
  'folk',
  'metal',
  'reggaeton',
];
const REG_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export class Catalog {
  readonly seed: number;
  readonly artists: Artist[] = [];
  readonly releases: Release[] = [];
  /** firstG of each release, for binary search from a track number to its release. */
  private readonly firstGs: number[] = [];
  trackTotal = 0;
  private readonly details = new Map<number, Track[]>();
  private readonly isrcIndex = new Map<string, number>();
  private readonly regToArtist = new Map<string, number>();
  private readonly detailedArtists = new Set<number>();

  constructor(seed: number, size: CatalogSize) {
    this.seed = seed;
    this.artists.push({
      i: 0,
      name: 'Various Artists',
      country: 'US',
      popularity: 60,
      followers: 2_000_000,
      genres: [],
      releases: [],
      appearsOn: [],
    });
    for (let i = 1; i <= size.artists; i++) this.artists.push(this.makeArtist(i));
    for (let i = 1; i <= size.artists; i++) this.makeDiscography(i);
    this.makeVariousArtists(Math.max(2, Math.round(size.artists / 25)));
    for (const a of this.artists) this.regToArtist.set(this.registrant(a.i), a.i);
  }

  // ---- skeleton -------------------------------------------------------------------------------

  private makeArtist(i: number): Artist {
    const rng = new Rng(this.seed, 'artist', i);
    const rank = rng.next();
    const popularity = Math.max(1, Math.min(100, Math.round(95 * Math.pow(rank, 2.2) + rng.int(0, 5))));
    const genres = rng.shuffle([...GENRES]).slice(0, rng.int(0, 3));
    return {
      i,
      name: artistName(rng),
      country: rng.pick(COUNTRIES),
      popularity,
      followers: Math.round(Math.pow(10, 2 + popularity / 18) * (0.5 + rng.next())),
      genres,
      releases: [],
      appearsOn: [],
    };
  }

  private addRelease(partial: Omit<Release, 'r' | 'firstG'>): Release {
    const rel: Release = { ...partial, r: this.releases.length, firstG: this.trackTotal };
    this.releases.push(rel);
    this.firstGs.push(rel.firstG);
    this.trackTotal += rel.trackCount;
    if (rel.artist !== 0) (this.artists[rel.artist] as Artist).releases.push(rel.r);
    return rel;
  }

  private makeDiscography(i: number): void {
    const rng = new Rng(this.seed, 'discography', i);
    const u = rng.next();
    const count =
      u < 0.03
        ? rng.int(100, 160)
        : u < 0.13
          ? rng.int(1, 4)
          : 5 + Math.floor(35 * Math.pow(rng.next(), 1.6));
    const start = rng.int(1965, 2023);
    const span = Math.max(1, 2026 - start);
    const studio: Release[] = [];
    for (let k = 0; k < count; k++) {
      const year = Math.min(2026, start + Math.floor((span * k) / count) + rng.int(0, 1));
      const x = rng.next();
      const kind: ReleaseKind = k === 0 || x < 0.25 ? 'studio' : x < 0.4 ? 'ep' : 'single';
      const trackCount =
        kind === 'studio'
          ? rng.chance(0.1)
            ? rng.int(17, 24)
            : rng.int(8, 16)
          : kind === 'ep'
            ? rng.int(4, 6)
            : rng.chance(0.7)
              ? 1
              : rng.int(2, 3);
      const precise = year >= 1990 || rng.chance(0.3);
      const rel = this.addRelease({
        artist: i,
        kind,
        albumType: kind === 'studio' ? 'album' : 'single',
        trackCount,
        year,
        month: precise ? rng.int(1, 12) : 1,
        day: precise ? rng.int(1, 28) : 1,
        precision: precise ? 'day' : 'year',
      });
      if (kind !== 'single' || trackCount > 1) {
        for (let t = 0; t < trackCount; t++) {
          if (rng.chance(0.07)) {
            const other = 1 + Math.floor(rng.next() * (this.artists.length - 1));
            if (other === i) continue;
            (rel.features ??= new Map()).set(t, other);
            const oa = this.artists[other] as Artist;
            if (oa.appearsOn[oa.appearsOn.length - 1] !== rel.r) oa.appearsOn.push(rel.r);
          }
        }
      }
      studio.push(rel);
    }
    const albums = studio.filter((r) => r.kind === 'studio');
    const lastYear = Math.min(2026, start + span);
    if (albums.length >= 2 && rng.chance(0.3)) {
      const src = rng.pick(albums);
      this.derived(
        rng,
        i,
        'live',
        'album',
        src.year + rng.int(0, 3),
        this.pickSongs(rng, albums, rng.int(10, 16)),
      );
    }
    const old = albums.filter((r) => r.year < 2005);
    if (old.length > 0 && rng.chance(0.4)) {
      const src = rng.pick(old);
      const songs = Array.from({ length: src.trackCount }, (_, t) => src.firstG + t);
      this.derived(rng, i, 'remaster', 'album', rng.int(Math.max(src.year + 10, 2009), 2024), songs);
    }
    if (albums.length >= 3 && rng.chance(0.35)) {
      this.derived(
        rng,
        i,
        'compilation',
        'compilation',
        lastYear,
        this.pickSongs(rng, albums, rng.int(12, 20)),
      );
    }
  }

  private pickSongs(rng: Rng, albums: Release[], n: number): number[] {
    const out = new Set<number>();
    for (let k = 0; k < n * 3 && out.size < n; k++) {
      const a = rng.pick(albums);
      out.add(a.firstG + rng.int(0, a.trackCount - 1));
    }
    return [...out];
  }

  private derived(
    rng: Rng,
    artist: number,
    kind: ReleaseKind,
    albumType: AlbumType,
    year: number,
    sources: number[],
  ): void {
    this.addRelease({
      artist,
      kind,
      albumType,
      trackCount: sources.length,
      year: Math.min(2026, year),
      month: rng.int(1, 12),
      day: rng.int(1, 28),
      precision: 'day',
      sources,
    });
  }

  private makeVariousArtists(n: number): void {
    for (let k = 0; k < n; k++) {
      const rng = new Rng(this.seed, 'va', k);
      const sources: number[] = [];
      const count = rng.int(15, 25);
      for (let t = 0; t < count * 3 && sources.length < count; t++) {
        const a = this.artists[1 + Math.floor(rng.next() * (this.artists.length - 1))] as Artist;
        const studio = a.releases
          .map((r) => this.releases[r] as Release)
          .filter((r) => r.kind === 'studio' || r.kind === 'single');
        if (studio.length === 0) continue;
        const rel = rng.pick(studio);
        sources.push(rel.firstG + rng.int(0, rel.trackCount - 1));
      }
      const rel = this.addRelease({
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
      (this.artists[0] as Artist).releases.push(rel.r);
      for (const g of sources) {
        const owner = this.artists[this.releaseOf(g).artist] as Artist;
        if (owner.appearsOn[owner.appearsOn.length - 1] !== rel.r) owner.appearsOn.push(rel.r);
      }
    }
  }

  // ---- lookups --------------------------------------------------------------------------------

  releaseOf(g: number): Release {
    let lo = 0;
    let hi = this.firstGs.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((this.firstGs[mid] as number) <= g) lo = mid;
      else hi = mid - 1;
    }
    return this.releases[lo] as Release;
  }

  hasTrack(g: number): boolean {
    return Number.isInteger(g) && g >= 0 && g < this.trackTotal;
  }

  /** Song source of a track, from the skeleton alone. */
  songOf(g: number): number {
    const rel = this.releaseOf(g);
    return rel.sources ? (rel.sources[g - rel.firstG] as number) : g;
  }

  /** True tempo of a track (the same for every release of a recording), from the skeleton alone. */
  tempoOf(g: number): TempoTruth {
    const rel = this.releaseOf(g);
    if (!rel.sources) return drawTrueTempo(this.seed, g);
    const song = rel.sources[g - rel.firstG] as number;
    const base = this.tempoOf(song);
    if (rel.kind !== 'live') return base;
    const bpm = Math.round(base.bpm * (1 + (unit(this.seed, 'live', g) - 0.5) * 0.05) * 100) / 100;
    return { ...base, bpm };
  }

  /** The recording (ISRC owner) of a track, from the skeleton alone. */
  recordingOf(g: number): number {
    const rel = this.releaseOf(g);
    return rel.kind === 'compilation' || rel.kind === 'va'
      ? this.recordingOf(rel.sources?.[g - rel.firstG] as number)
      : g;
  }

  /** Every track an artist is credited on: own releases plus their tracks on appears-on releases. */
  creditedTracks(i: number): number[] {
    const a = this.artists[i];
    if (!a) return [];
    const out: number[] = [];
    for (const r of a.releases) {
      const rel = this.releases[r] as Release;
      for (let t = 0; t < rel.trackCount; t++) out.push(rel.firstG + t);
    }
    for (const r of a.appearsOn) {
      for (const t of this.tracksOf(r)) if (t.artists.includes(i)) out.push(t.g);
    }
    return out;
  }

  // ---- details --------------------------------------------------------------------------------

  releaseTitle(rel: Release): string {
    const rng = new Rng(this.seed, 'album-title', rel.r);
    const artist = this.artists[rel.artist] as Artist;
    const nonLatin = isNonLatin(artist.name);
    switch (rel.kind) {
      case 'single':
        return this.track(rel.firstG).name;
      case 'live':
        return rng.chance(0.5)
          ? `Live at the ${rng.pick(['Forum', 'Apollo', 'Olympia', 'Budokan', 'Paradiso', 'Roundhouse'])}`
          : `${albumTitle(rng, nonLatin)} (Live)`;
      case 'remaster': {
        const src = this.releaseOf(rel.sources?.[0] as number);
        return `${this.releaseTitle(src)} (Remastered ${rel.year})`;
      }
      case 'compilation':
        return rng.pick(['Greatest Hits', 'The Best Of', 'Essentials', 'Anthology', 'Singles Collection']);
      case 'va':
        return `${rng.pick(['Running', 'Workout', 'Summer', 'Party', 'Chill', 'Road Trip'])} ${rng.pick(['Hits', 'Anthems', 'Classics', 'Vibes'])} ${rel.year}`;
      default:
        return albumTitle(rng, nonLatin);
    }
  }

  track(g: number): Track {
    const rel = this.releaseOf(g);
    return this.tracksOf(rel.r)[g - rel.firstG] as Track;
  }

  tracksOf(r: number): Track[] {
    const hit = this.details.get(r);
    if (hit) return hit;
    const rel = this.releases[r] as Release;
    const out: Track[] = [];
    for (let t = 0; t < rel.trackCount; t++) out.push(this.makeTrack(rel, t));
    this.details.set(r, out);
    return out;
  }

  private makeTrack(rel: Release, t: number): Track {
    const g = rel.firstG + t;
    const rng = new Rng(this.seed, 'track', g);
    if (rel.kind === 'compilation' || rel.kind === 'va') {
      const src = this.track(rel.sources?.[t] as number);
      return { ...src, g, r: rel.r, no: t + 1 };
    }
    if (rel.kind === 'live' || rel.kind === 'remaster') {
      const src = this.track(rel.sources?.[t] as number);
      const base = src.name.replace(/ \(feat\. [^)]*\)$/, '');
      const factor = rel.kind === 'live' ? 1.05 + rng.next() * 0.25 : 1;
      return {
        g,
        r: rel.r,
        no: t + 1,
        name: rel.kind === 'live' ? `${base} - Live` : `${base} - Remastered ${rel.year}`,
        artists: [rel.artist],
        durationMs: Math.round(src.durationMs * factor) + rng.int(-400, 400),
        explicit: src.explicit,
        isrc: this.isrc(rel, g),
        recording: g,
        song: src.g,
      };
    }
    const artist = this.artists[rel.artist] as Artist;
    const feat = rel.features?.get(t);
    let name = songTitle(rng, isNonLatin(artist.name));
    if (rng.chance(0.03)) name = `${name} - Radio Edit`;
    if (feat !== undefined) name = `${name} (feat. ${(this.artists[feat] as Artist).name})`;
    const secs = Math.max(95, Math.min(560, 212 + rng.normal() * 45 + (rng.chance(0.05) ? 180 : 0)));
    return {
      g,
      r: rel.r,
      no: t + 1,
      name,
      artists: feat === undefined ? [rel.artist] : [rel.artist, feat],
      durationMs: Math.round(secs * 1000) + rng.int(0, 999),
      explicit: rng.chance(0.15),
      isrc: this.isrc(rel, g),
      recording: g,
      song: g,
    };
  }

  private registrant(i: number): string {
    const n = (Math.imul(i + 1, 2654435761) >>> 0) % 46656;
    return REG_CHARS[Math.floor(n / 1296)]! + REG_CHARS[Math.floor(n / 36) % 36]! + REG_CHARS[n % 36]!;
  }

  private isrc(rel: Release, g: number): string {
    const artist = this.artists[rel.artist] as Artist;
    const first = this.releases[artist.releases[0] as number] as Release;
    const serial = 10000 + ((g - first.firstG + (hash32(this.seed, 'isrc', rel.artist) % 5000)) % 90000);
    const code = `${artist.country}${this.registrant(rel.artist)}${String(rel.year % 100).padStart(2, '0')}${serial}`;
    this.isrcIndex.set(code, g);
    return code;
  }

  /** The track whose recording has this ISRC (the original release, not a compilation). */
  trackByIsrc(isrc: string): number | undefined {
    const code = isrc.toUpperCase();
    const artist = this.regToArtist.get(code.slice(2, 5));
    if (artist === undefined) return undefined;
    if (!this.detailedArtists.has(artist)) {
      this.detailedArtists.add(artist);
      for (const r of (this.artists[artist] as Artist).releases) this.tracksOf(r);
    }
    return this.isrcIndex.get(code);
  }
}
