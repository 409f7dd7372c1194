// The catalog's skeleton, generated eagerly and cheaply: artists, their releases (counts, kinds,
// dates), features, which recordings live albums, remasters and compilations take their songs from,
// and which singles carry another version (another recording, another ISRC) of an album's song.
// Track details are generated lazily by Catalog (catalog.ts), which extends this.
import { Rng } from './rng.ts';
import { artistName } from './names.ts';
import { makeBoxSets, makeLargeCompilations, makeVariousArtists } from './compilations.ts';

export type ReleaseKind = 'studio' | 'ep' | 'single' | 'live' | 'remaster' | 'compilation' | 'va';
export type AlbumType = 'album' | 'single' | 'compilation';

/**
 * How a single's recording of an album song differs from the album's, as Spotify names them: the same
 * title (the single and the album version), `- Radio Edit`, `- Single Version`, the album's track
 * named `- Album Version`, `- Mono` / `(Mono)` (singles before 1970). Each is the same song as a runner
 * hears it: the same tempo (within 0.3 %) and a close duration (a radio edit 70-95 % of it).
 */
export type VersionKind = 'single' | 'radio-edit' | 'single-version' | 'album-version' | 'mono';

export interface Version {
  /** The album track (its song's reference recording) this track is a version of. */
  of: number;
  kind: VersionKind;
}

/** Share of singles (and EPs) whose first track is another version of a song of a nearby album. */
export const SINGLE_VERSION_SHARE = 0.95;
export const EP_VERSION_SHARE = 0.5;

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
  /** Track index (0-based) → featured artist (on a remaster: the original's). */
  features?: Map<number, number>;
  /** For live, remaster, compilation and various-artists releases: the studio track each track takes its song from. */
  sources?: number[];
  /** A box set or a large compilation: more than 50 tracks, so `GET /albums/{id}` embeds only the first page. */
  box?: true;
  /** A release added while the sandbox runs (admin): its title and its tracks' names, lengths, tempos. */
  custom?: {
    title?: string;
    tracks: Array<{ name?: string; durationMs?: number; bpm?: number }>;
  };
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
export class CatalogSkeleton {
  readonly seed: number;
  readonly artists: Artist[] = [];
  readonly releases: Release[] = [];
  /** firstG of each release, for binary search from a track number to its release. */
  private readonly firstGs: number[] = [];
  /** A single's or EP's track → the album song it is another recording of (its own ISRC). */
  readonly versions = new Map<number, Version>();
  /** An album track → the single's or EP's track that is another version of it. */
  readonly versionedBy = new Map<number, number>();
  /** Generated tracks with a featured artist, in track order: track, artist, featured artist, track, … */
  readonly featured: number[] = [];
  trackTotal = 0;

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
    makeVariousArtists(this, Math.max(2, Math.round(size.artists / 25)));
    // After every other release, so adding them moved no track or release number.
    makeBoxSets(this, size.artists);
    makeLargeCompilations(this, Math.max(1, Math.round(size.artists / 100)));
    this.generatedReleases = this.releases.length;
  }

  /** Releases generated from the seed; those after them were added while running. */
  generatedReleases = 0;

  /** Drops the releases added while running (admin reset). */
  protected dropAddedReleases(): void {
    const n = this.generatedReleases;
    if (this.releases.length === n) return;
    const first = this.releases[n] as Release;
    this.releases.length = n;
    this.firstGs.length = n;
    this.trackTotal = first.firstG;
    for (const a of this.artists) {
      a.releases = a.releases.filter((r) => r < n);
      a.appearsOn = a.appearsOn.filter((r) => r < n);
    }
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

  /** Appends a release (and its track numbers) to the catalog. */
  addRelease(partial: Omit<Release, 'r' | 'firstG'>): Release {
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
            this.featured.push(rel.firstG + t, i, other);
            const oa = this.artists[other] as Artist;
            if (oa.appearsOn[oa.appearsOn.length - 1] !== rel.r) oa.appearsOn.push(rel.r);
          }
        }
      }
      studio.push(rel);
    }
    this.pairVersions(i, studio);
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
      const rel = this.derived(
        rng,
        i,
        'remaster',
        'album',
        rng.int(Math.max(src.year + 10, 2009), 2024),
        songs,
      );
      // A remaster credits the original's featured artists too.
      for (const [t, other] of src.features ?? []) {
        (rel.features ??= new Map()).set(t, other);
        const oa = this.artists[other] as Artist;
        if (oa.appearsOn[oa.appearsOn.length - 1] !== rel.r) oa.appearsOn.push(rel.r);
      }
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

  /**
   * Singles (and some EPs) that carry an album's song: another recording of it (its own ISRC and track
   * id), released before the album (a lead single) or after it. Its own rng, so the rest of the
   * discography is as before.
   */
  private pairVersions(i: number, studio: Release[]): void {
    const rng = new Rng(this.seed, 'versions', i);
    const taken = new Set<number>();
    for (let k = 0; k < studio.length; k++) {
      const rel = studio[k] as Release;
      if (rel.kind !== 'single' && rel.kind !== 'ep') continue;
      const u = rng.next();
      const pick = rng.next();
      const v = rng.next();
      // A single's A-side; an EP's opening track.
      const share = rel.kind === 'single' ? SINGLE_VERSION_SHARE : EP_VERSION_SHARE;
      if (u >= share || rel.features?.has(0)) continue;
      // The next album within three years (a lead single), else the last one within three.
      let album: Release | undefined;
      for (let j = k + 1; j < studio.length && !album && (studio[j] as Release).year <= rel.year + 3; j++)
        if (studio[j]?.kind === 'studio') album = studio[j];
      for (let j = k - 1; j >= 0 && !album && (studio[j] as Release).year >= rel.year - 3; j--)
        if (studio[j]?.kind === 'studio') album = studio[j];
      if (!album) continue;
      // Mostly one of the first tracks: the songs a label picks as singles.
      const t = Math.floor(Math.pow(pick, 2) * album.trackCount);
      const g = album.firstG + t;
      if (album.features?.has(t) || taken.has(g)) continue;
      taken.add(g);
      const kind: VersionKind =
        rel.year < 1970 && v < 0.5
          ? 'mono'
          : v < 0.5
            ? 'single'
            : v < 0.72
              ? 'radio-edit'
              : v < 0.86
                ? 'single-version'
                : 'album-version';
      this.versions.set(rel.firstG, { of: g, kind });
      this.versionedBy.set(g, rel.firstG);
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
  ): Release {
    return this.addRelease({
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
}
