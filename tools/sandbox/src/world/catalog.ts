// The catalog: the skeleton (skeleton.ts) plus track details (names, ISRCs, durations) generated
// lazily per release. Tempo needs only the skeleton, so scoring never has to generate names.
import { Rng, hash32, unit } from './rng.ts';
import { albumTitle, isNonLatin, songTitle } from './names.ts';
import { drawTrueTempo, type TempoTruth } from './tempo.ts';
import { CatalogSkeleton, type Artist, type CatalogSize, type Release } from './skeleton.ts';

export type { AlbumType, Artist, CatalogSize, Release, ReleaseKind } from './skeleton.ts';

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

const REG_CHARS = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ';

export class Catalog extends CatalogSkeleton {
  private readonly details = new Map<number, Track[]>();
  private readonly isrcIndex = new Map<string, number>();
  private readonly regToArtist = new Map<string, number>();
  private readonly detailedArtists = new Set<number>();

  constructor(seed: number, size: CatalogSize) {
    super(seed, size);
    for (const a of this.artists) this.regToArtist.set(this.registrant(a.i), a.i);
  }

  // ---- lookups --------------------------------------------------------------------------------

  /** Song source of a track, from the skeleton alone. */
  songOf(g: number): number {
    const rel = this.releaseOf(g);
    return rel.sources ? (rel.sources[g - rel.firstG] as number) : g;
  }

  /** True tempo of a track (the same for every release of a recording), from the skeleton alone. */
  tempoOf(g: number): TempoTruth {
    const rel = this.releaseOf(g);
    const given = rel.custom?.tracks[g - rel.firstG]?.bpm;
    if (given !== undefined) return { ...drawTrueTempo(this.seed, g), bpm: given };
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
    for (const [code, g] of this.isrcIndex) if (g >= this.trackTotal) this.isrcIndex.delete(code);
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
        return `${this.releaseTitle(src)} (Remastered ${rel.year})`;
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
    const given = rel.custom?.tracks[t];
    let name = given?.name ?? songTitle(rng, isNonLatin(artist.name));
    if (rng.chance(0.03) && !given?.name) name = `${name} - Radio Edit`;
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
