// The catalog: the skeleton (skeleton.ts) plus track details (names, ISRCs, durations) generated
// lazily per release. Tempo and song identity need only the skeleton, so scoring never has to
// generate names. Song titles are unique per artist (songKey): an artist's titles are drawn once,
// when one of its tracks is first detailed, and a featured track's title is unique for both artists.
import { Rng, hash32, unit } from './rng.ts';
import {
  albumTitle,
  baseTitle,
  isNonLatin,
  songTitleCode,
  titleKeyId,
  titleText,
  uniqueTitleCode,
} from './names.ts';
import { drawTrueTempo, type TempoTruth } from './tempo.ts';
import {
  CatalogSkeleton,
  type Artist,
  type CatalogSize,
  type Release,
  type Version,
  type VersionKind,
} from './skeleton.ts';

export type { AlbumType, Artist, CatalogSize, Release, ReleaseKind, VersionKind } from './skeleton.ts';

/** How a track relates to its song (heardSongOf): the reference recording or another release of it. */
export type SongRole =
  | 'original'
  | 'album version'
  | 'single'
  | 'radio edit'
  | 'single version'
  | 'mono'
  | 'remaster'
  | 'compilation copy'
  | 'live';

const VERSION_ROLE: Record<VersionKind, SongRole> = {
  single: 'single',
  // The single has the plain title; the album's track is the one named "- Album Version".
  'album-version': 'single',
  'radio-edit': 'radio edit',
  'single-version': 'single version',
  mono: 'mono',
};

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
  /** The studio track this track's song comes from (itself for studio tracks; its source for live takes). */
  song: number;
}

/** Titles of an artist's own songs (track number → title) and the keys they and its features take. */
interface ArtistTitles {
  /** Key numbers (names.ts: titleKeyId) of its titles and of the featured tracks that credit it. */
  taken: Set<number>;
  /** Keys of titles drawn for releases added while running (cleared by reset). */
  added: Set<number>;
}

const REG_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export class Catalog extends CatalogSkeleton {
  private readonly details = new Map<number, Track[]>();
  private readonly isrcIndex = new Map<string, number>();
  private readonly regToArtist = new Map<string, number>();
  private readonly detailedArtists = new Set<number>();
  private readonly artistTitles = new Map<number, ArtistTitles>();
  /** Titles of featured tracks (track number → title without `(feat. X)`), and the keys each artist's take. */
  private features?: Map<number, Set<number>>;
  /** Title code (names.ts: titleText spells it) of each generated original track, -1 until drawn. */
  private titleCodes?: Float64Array;

  constructor(seed: number, size: CatalogSize) {
    super(seed, size);
    for (const a of this.artists) this.regToArtist.set(this.registrant(a.i), a.i);
  }

  // ---- lookups --------------------------------------------------------------------------------

  /**
   * The composition a track comes from, from the skeleton alone: the studio track of a live take, a
   * remaster, a compilation copy or a single's version (GetSongBPM and tempo changes go by it). A live
   * take has its composition's title but another tempo: heardSongOf keeps it apart.
   */
  songOf(g: number): number {
    const rel = this.releaseOf(g);
    if (rel.sources) return this.songOf(rel.sources[g - rel.firstG] as number);
    return this.versions.get(g)?.of ?? g;
  }

  /**
   * The song as a runner hears it (so no song comes twice), from the skeleton alone: the reference
   * recording (a track number) shared by every version and copy of one song. A single's version, a
   * remaster, a compilation or box-set copy are their original's song; a live take is its own song
   * (another tempo and feel).
   */
  heardSongOf(g: number): number {
    const rel = this.releaseOf(g);
    if (rel.kind === 'live') return g;
    if (rel.sources) return this.heardSongOf(rel.sources[g - rel.firstG] as number);
    return this.versions.get(g)?.of ?? g;
  }

  /**
   * What a track is to its song: the original (the album's track: `album version` when so named), a
   * single's or EP's version (`single`, `radio edit`, `single version`, `mono`), a remaster, a
   * compilation copy (same recording), or a live take (a song of its own).
   */
  songRole(g: number): SongRole {
    const rel = this.releaseOf(g);
    if (rel.kind === 'live') return 'live';
    if (rel.kind === 'remaster') return 'remaster';
    if (rel.kind === 'compilation' || rel.kind === 'va') return 'compilation copy';
    const v = this.versions.get(g);
    if (v) return VERSION_ROLE[v.kind];
    const by = this.versionedBy.get(g);
    return by !== undefined && this.versionOf(by)?.kind === 'album-version' ? 'album version' : 'original';
  }

  /** The version a single's track is of an album song, if it is one. */
  versionOf(g: number): Version | undefined {
    return this.versions.get(g);
  }

  /**
   * Every track of a track's song (heardSongOf), its reference recording first: the versions on
   * singles, remasters, and their copies on compilations, box sets and various-artists releases.
   */
  songTracks(g: number): number[] {
    const song = this.heardSongOf(g);
    const a = this.artists[this.releaseOf(song).artist] as Artist;
    const out = [song];
    for (const r of [...a.releases, ...a.appearsOn]) {
      const rel = this.releases[r] as Release;
      if (rel.kind === 'live') continue;
      for (let t = 0; t < rel.trackCount; t++) {
        const x = rel.firstG + t;
        if (x !== song && this.heardSongOf(x) === song) out.push(x);
      }
    }
    return out;
  }

  /** True tempo of a track (the same for every release of a recording), from the skeleton alone. */
  tempoOf(g: number): TempoTruth {
    const rel = this.releaseOf(g);
    const given = rel.custom?.tracks[g - rel.firstG]?.bpm;
    if (given !== undefined) return { ...drawTrueTempo(this.seed, g), bpm: given };
    const version = this.versions.get(g);
    if (version) {
      const base = this.tempoOf(version.of);
      // An edit of the same master keeps its tempo; another recording of the song is within 0.3 %.
      if (version.kind !== 'single' && version.kind !== 'single-version') return base;
      const bpm =
        Math.round(base.bpm * (1 + (unit(this.seed, 'version-tempo', g) - 0.5) * 0.006) * 100) / 100;
      return { ...base, bpm };
    }
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

  // ---- releases added while running (admin) -----------------------------------------------------

  /** A new release by an artist (album or single) dated `at`, after every generated one. */
  addNewRelease(
    artist: number,
    opts: {
      title?: string;
      albumType: 'album' | 'single';
      tracks: NonNullable<Release['custom']>['tracks'];
      at: number;
    },
  ): Release {
    const d = new Date(opts.at);
    const rel = this.addRelease({
      artist,
      kind: opts.albumType === 'album' ? 'studio' : 'single',
      albumType: opts.albumType,
      trackCount: opts.tracks.length,
      year: d.getUTCFullYear(),
      month: d.getUTCMonth() + 1,
      day: d.getUTCDate(),
      precision: 'day',
      custom: { ...(opts.title ? { title: opts.title } : {}), tracks: opts.tracks },
    });
    this.tracksOf(rel.r); // names and ISRCs now, so ISRC look-ups find them
    return rel;
  }

  /** Back to the generated catalog. */
  reset(): void {
    const n = this.generatedReleases;
    for (const r of [...this.details.keys()]) if (r >= n) this.details.delete(r);
    this.dropAddedReleases();
    for (const a of this.artistTitles.values()) a.added.clear();
    for (const [code, g] of this.isrcIndex) if (g >= this.trackTotal) this.isrcIndex.delete(code);
  }

  // ---- titles ---------------------------------------------------------------------------------

  /**
   * Titles of every featured track in the world, once, in track order: each unique among the titles of
   * both artists' other featured tracks (their own songs then keep clear of them).
   */
  private featureTitles(): Map<number, Set<number>> {
    if (this.features) return this.features;
    const codes = this.codes();
    const keys = new Map<number, Set<number>>();
    const keysOf = (i: number) => {
      let k = keys.get(i);
      if (!k) keys.set(i, (k = new Set()));
      return k;
    };
    const nonLatin = this.artists.map((a) => isNonLatin(a.name));
    const f = this.featured;
    for (let k = 0; k < f.length; k += 3) {
      const g = f[k] as number;
      const artist = f[k + 1] as number;
      const other = f[k + 2] as number;
      const mine = keysOf(artist);
      const theirs = keysOf(other);
      const title = uniqueTitleCode(
        new Rng(this.seed, 'track', g),
        nonLatin[artist] as boolean,
        (key) => mine.has(key) || theirs.has(key),
      );
      const key = titleKeyId(title);
      mine.add(key);
      theirs.add(key);
      codes[g] = title;
    }
    return (this.features = keys);
  }

  private codes(): Float64Array {
    if (!this.titleCodes) {
      const n = this.releases[this.generatedReleases - 1] as Release;
      this.titleCodes = new Float64Array(n.firstG + n.trackCount).fill(-1);
    }
    return this.titleCodes;
  }

  /** An artist's own song titles (not featured tracks, not versions): one draw per song, unique. */
  private titlesOf(i: number): ArtistTitles {
    const hit = this.artistTitles.get(i);
    if (hit) return hit;
    const a = this.artists[i] as Artist;
    const nonLatin = isNonLatin(a.name);
    const taken = new Set(this.featureTitles().get(i));
    const codes = this.codes();
    for (const r of a.releases) {
      const rel = this.releases[r] as Release;
      if (r >= this.generatedReleases || rel.sources) continue;
      for (let t = 0; t < rel.trackCount; t++) {
        const g = rel.firstG + t;
        if (rel.features?.has(t) || this.versions.has(g)) continue;
        const title = uniqueTitleCode(new Rng(this.seed, 'track', g), nonLatin, (k) => taken.has(k));
        taken.add(titleKeyId(title));
        codes[g] = title;
      }
    }
    const out = { taken, added: new Set<number>() };
    this.artistTitles.set(i, out);
    return out;
  }

  /** The title of a generated original track (without `(feat. X)` or a version suffix). */
  private titleOf(rel: Release, t: number): string {
    const g = rel.firstG + t;
    const codes = this.codes();
    if ((codes[g] as number) < 0) {
      if (rel.features?.has(t)) this.featureTitles();
      else this.titlesOf(rel.artist);
    }
    return titleText(codes[g] as number);
  }

  // ---- details --------------------------------------------------------------------------------

  releaseTitle(rel: Release): string {
    if (rel.custom?.title) return rel.custom.title;
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
        return `${this.releaseTitle(src)} (${this.remasterSuffix(rel)})`;
      }
      case 'compilation':
        if (rel.box)
          return rng.pick([
            'The Complete Recordings',
            'The Studio Albums (Box Set)',
            `Anthology ${this.releaseOf(rel.sources?.[0] as number).year}-${rel.year}`,
            'Collected Works',
          ]);
        return rng.pick(['Greatest Hits', 'The Best Of', 'Essentials', 'Anthology', 'Singles Collection']);
      case 'va':
        if (rel.box)
          return `${rel.trackCount} ${rng.pick(['Running', 'Workout', 'Gym', 'Party'])} ${rng.pick(['Hits', 'Anthems', 'Classics'])} ${rel.year}`;
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
      const base = baseTitle(src.name);
      const live = rel.kind === 'live';
      const factor = live ? 1.05 + rng.next() * 0.25 : 1;
      // A live take is the band's; a remaster keeps the original's featured artist.
      const feat = rel.features?.get(t);
      const featName = feat === undefined ? '' : ` (feat. ${(this.artists[feat] as Artist).name})`;
      return {
        g,
        r: rel.r,
        no: t + 1,
        name: live ? `${base} - Live` : `${base}${featName} - ${this.remasterSuffix(rel)}`,
        artists: live ? [rel.artist] : src.artists,
        // A remaster is the same recording remastered: within 2 s of it.
        durationMs: Math.round(src.durationMs * factor) + (live ? rng.int(-400, 400) : rng.int(-2000, 2000)),
        explicit: src.explicit,
        isrc: this.isrc(rel, g),
        recording: g,
        song: src.song,
      };
    }
    const version = this.versions.get(g);
    if (version) return this.makeVersion(rel, t, version, rng);
    const artist = this.artists[rel.artist] as Artist;
    const feat = rel.features?.get(t);
    const given = rel.custom?.tracks[t];
    const nonLatin = isNonLatin(artist.name);
    let name: string;
    if (given?.name) name = given.name;
    else if (rel.custom) name = this.addedTitle(rel.artist, rng, nonLatin);
    else {
      songTitleCode(rng, nonLatin); // the draw the title took before titles were unique: the rest stays
      name = this.titleOf(rel, t);
    }
    const versionedBy = this.versionedBy.get(g);
    const albumVersion = versionedBy !== undefined && this.versionOf(versionedBy)?.kind === 'album-version';
    if (rng.chance(0.03) && !given?.name && versionedBy === undefined) name = `${name} - Radio Edit`;
    if (albumVersion) name = `${name} - Album Version`;
    if (feat !== undefined) name = `${name} (feat. ${(this.artists[feat] as Artist).name})`;
    const secs = given?.durationMs
      ? given.durationMs / 1000
      : Math.max(95, Math.min(560, 212 + rng.normal() * 45 + (rng.chance(0.05) ? 180 : 0)));
    return {
      g,
      r: rel.r,
      no: t + 1,
      name,
      artists: feat === undefined ? [rel.artist] : [rel.artist, feat],
      durationMs: given?.durationMs ?? Math.round(secs * 1000) + rng.int(0, 999),
      explicit: rng.chance(0.15),
      isrc: this.isrc(rel, g),
      recording: g,
      song: g,
    };
  }

  /**
   * A single's recording of an album song: its own ISRC, the album track's title (with the version's
   * suffix), artists and explicit flag, and a close duration.
   */
  private makeVersion(rel: Release, t: number, version: Version, rng: Rng): Track {
    const g = rel.firstG + t;
    const src = this.track(version.of);
    const srcRel = this.releaseOf(version.of);
    const title = this.titleOf(srcRel, version.of - srcRel.firstG);
    const d = src.durationMs;
    let name = title;
    let durationMs: number;
    switch (version.kind) {
      case 'radio-edit':
        name = `${title} - Radio Edit`;
        durationMs = Math.round(d * (0.7 + 0.25 * rng.next()));
        break;
      case 'single-version':
        name = `${title} - Single Version`;
        durationMs = Math.round(d * (0.9 + 0.1 * rng.next()));
        break;
      case 'album-version':
        // The single has the plain title; the album's longer take is named "- Album Version".
        durationMs = Math.round(d * (0.8 + 0.15 * rng.next()));
        break;
      case 'mono':
        name = rng.chance(0.5) ? `${title} - Mono` : `${title} (Mono)`;
        durationMs = d + rng.int(-1500, 1500);
        break;
      default:
        durationMs = d + (rng.chance(0.5) ? 1 : -1) * rng.int(300, 4000);
    }
    return {
      g,
      r: rel.r,
      no: t + 1,
      name,
      artists: src.artists,
      durationMs,
      explicit: src.explicit,
      isrc: this.isrc(rel, g),
      recording: g,
      song: src.song,
    };
  }

  /** How a remaster names itself: "Remastered 2011" (most), "2015 Remaster", or just "Remastered". */
  remasterSuffix(rel: Release): string {
    const u = unit(this.seed, 'remaster-style', rel.r);
    return u < 0.6 ? `Remastered ${rel.year}` : u < 0.9 ? `${rel.year} Remaster` : 'Remastered';
  }

  /** A title for a track added while running (admin) without one: unlike the artist's other songs. */
  private addedTitle(artist: number, rng: Rng, nonLatin: boolean): string {
    const own = this.titlesOf(artist);
    const title = uniqueTitleCode(rng, nonLatin, (k) => own.taken.has(k) || own.added.has(k));
    own.added.add(titleKeyId(title));
    return titleText(title);
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

  /** Every track of the recording with this ISRC: the original and its reissues on compilations. */
  tracksByIsrc(isrc: string): number[] {
    const g = this.trackByIsrc(isrc);
    if (g === undefined) return [];
    const a = this.artists[this.releaseOf(g).artist] as Artist;
    const out = [g];
    for (const r of [...a.releases, ...a.appearsOn]) {
      const rel = this.releases[r] as Release;
      if (rel.kind !== 'compilation' && rel.kind !== 'va') continue;
      rel.sources?.forEach((src, t) => {
        if (src === g) out.push(rel.firstG + t);
      });
    }
    return out;
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
