// What each tempo service knows about a track: coverage, reported tempo (with octave errors and
// unknowns) and, for Deezer, wrong versions (a live or cast recording of another duration).
import type { Ctx } from '../context.ts';
import { unit, hash32, Rng } from '../world/rng.ts';
import type { PatternName, TempoTruth } from '../world/tempo.ts';
import { reportTempo, tempoChange, type TempoErrorConfig } from '../world/tempo-errors.ts';
import type { Track } from '../world/catalog.ts';
import { baseTitle } from '../world/names.ts';

export const DEEZER_BASE_ID = 1_000_000;
export const DEEZER_VARIANT_ID = 900_000_000;
const DEEZER_ARTIST_ID = 10_000;
const DEEZER_ALBUM_ID = 5_000_000;

export interface DeezerView {
  id: number;
  g: number;
  title: string;
  titleVersion: string;
  isrc: string;
  durationS: number;
  bpm: number;
  /** Tempo and pattern the preview is synthesised at. */
  previewBpm: number;
  pattern: PatternName;
  hasPreview: boolean;
  artistIndex: number;
  artistName: string;
  albumId: number;
  albumTitle: string;
  releaseDate: string;
  trackPosition: number;
  explicit: boolean;
  rank: number;
  variant?: 'live' | 'cast';
}

/** The other section's tempo of a song whose tempo changes (every version of the song shares it). */
export function otherSection(ctx: Ctx, g: number): number | undefined {
  const cat = ctx.world.catalog;
  const song = cat.songOf(g);
  return tempoChange(ctx.world.seed, song, cat.tempoOf(g), ctx.config.tempoErrors.tempoChangeShare);
}

/**
 * The tempo `source` reports for track g (`key`: the recording, or the song for text-matched
 * sources), with its octave errors and the other errors of tempoErrors.
 */
export function reportedTempo(
  ctx: Ctx,
  source: keyof Omit<TempoErrorConfig, 'tempoChangeShare'>,
  key: number,
  g: number,
  truth: TempoTruth,
  octaveErrorShare: number,
) {
  const errors = ctx.config.tempoErrors[source];
  return reportTempo(ctx.world.seed, key, truth, source, octaveErrorShare, errors, otherSection(ctx, g));
}

/** Whether Deezer gives a live or cast version for this recording instead of the studio one. */
export function deezerWrongVersion(ctx: Ctx, rec: number): boolean {
  return unit(ctx.world.seed, 'deezer-wrong', rec) < ctx.config.deezer.wrongVersionShare;
}

export function deezerCovers(ctx: Ctx, g: number): boolean {
  return unit(ctx.world.seed, 'deezer-has', ctx.world.catalog.recordingOf(g)) < ctx.config.deezer.coverage;
}

/** Deezer's track for a Spotify track number (its own id), or the live/cast variant. */
export function deezerView(ctx: Ctx, g: number, variant = false): DeezerView {
  const cat = ctx.world.catalog;
  const seed = ctx.world.seed;
  const t: Track = cat.track(g);
  const rel = cat.releaseOf(g);
  const rec = t.recording;
  const truth = cat.tempoOf(g);
  const cfg = ctx.config.deezer;
  const artistIndex = t.artists[0] as number;
  const base: DeezerView = {
    id: DEEZER_BASE_ID + g,
    g,
    title: t.name,
    titleVersion: '',
    isrc: t.isrc,
    durationS: Math.round(t.durationMs / 1000),
    bpm: 0,
    previewBpm: truth.bpm,
    pattern: truth.pattern,
    hasPreview: unit(seed, 'deezer-preview', rec) >= cfg.missingPreviewShare,
    artistIndex,
    artistName: cat.artists[artistIndex]?.name ?? '',
    albumId: DEEZER_ALBUM_ID + rel.r,
    albumTitle: cat.releaseTitle(rel),
    releaseDate: `${rel.year}-${String(rel.month).padStart(2, '0')}-${String(rel.day).padStart(2, '0')}`,
    trackPosition: t.no,
    explicit: t.explicit,
    rank: 50_000 + (hash32(seed, 'rank', rec) % 900_000),
  };
  if (unit(seed, 'deezer-bpm-known', rec) >= cfg.unknownBpmShare) {
    base.bpm = Math.round(reportedTempo(ctx, 'deezer', rec, g, truth, cfg.octaveErrorShare).bpm * 10) / 10;
  }
  if (!variant) return base;
  const rng = new Rng(seed, 'deezer-variant', rec);
  const kind = rng.chance(0.7) ? 'live' : 'cast';
  const bpm = Math.round(truth.bpm * (0.88 + rng.next() * 0.2) * 100) / 100;
  return {
    ...base,
    id: DEEZER_VARIANT_ID + g,
    title: kind === 'live' ? `${t.name} (Live)` : t.name,
    titleVersion: kind === 'live' ? '(Live)' : '',
    isrc: t.isrc,
    durationS: Math.round((t.durationMs / 1000) * (1.15 + rng.next() * 0.3)),
    bpm: rng.chance(0.6) ? Math.round(bpm * 10) / 10 : 0,
    previewBpm: bpm,
    albumId: DEEZER_ALBUM_ID + 400_000 + rel.r,
    albumTitle:
      kind === 'live'
        ? `${base.artistName} Live ${rel.year + rng.int(1, 8)}`
        : `${base.albumTitle} (Original Cast Recording)`,
    rank: Math.round(base.rank / 3),
    variant: kind,
  };
}

/** The Deezer track behind a Deezer id, if the world has one. */
export function deezerById(ctx: Ctx, id: number): DeezerView | undefined {
  const cat = ctx.world.catalog;
  const variant = id >= DEEZER_VARIANT_ID;
  const g = id - (variant ? DEEZER_VARIANT_ID : DEEZER_BASE_ID);
  if (!cat.hasTrack(g) || !deezerCovers(ctx, g)) return undefined;
  if (variant && !deezerWrongVersion(ctx, cat.recordingOf(g))) return undefined;
  return deezerView(ctx, g, variant);
}

export const deezerArtistId = (i: number) => DEEZER_ARTIST_ID + i;

// ---- ReccoBeats ---------------------------------------------------------------------------------

const hex = (n: number, width: number) => (n >>> 0).toString(16).padStart(width, '0').slice(-width);

/** ReccoBeats' own id for a track: a UUID that encodes the track number under a keyed mask. */
export function reccoId(ctx: Ctx, g: number): string {
  const s = ctx.world.seed;
  const mask = hash32(s, 'recco-mask') & 0xffffff;
  const low = (g ^ mask) & 0xffffff;
  const high = Math.floor(g / 0x1000000);
  return `${hex(hash32(s, 'recco', g), 8)}-${hex(hash32(s, 'recco2', g), 4)}-4${hex(hash32(s, 'recco3', g), 3)}-8${hex(high, 3)}-${hex(hash32(s, 'recco4', g), 6)}${hex(low, 6)}`;
}

export function reccoIdToTrack(ctx: Ctx, id: string): number | undefined {
  const m = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8([0-9a-f]{3})-[0-9a-f]{6}([0-9a-f]{6})$/.exec(id);
  if (!m) return undefined;
  const mask = hash32(ctx.world.seed, 'recco-mask') & 0xffffff;
  const g = parseInt(m[1] as string, 16) * 0x1000000 + ((parseInt(m[2] as string, 16) ^ mask) & 0xffffff);
  return ctx.world.catalog.hasTrack(g) && reccoId(ctx, g) === id && reccoCovers(ctx, g) ? g : undefined;
}

export function reccoCovers(ctx: Ctx, g: number): boolean {
  return unit(ctx.world.seed, 'recco-has', ctx.world.catalog.recordingOf(g)) < ctx.config.reccobeats.coverage;
}

// ---- GetSongBPM ---------------------------------------------------------------------------------

/** GetSongBPM knows songs (not recordings): the studio song of a track, by title and primary artist. */
export function getSongBpmCovers(ctx: Ctx, song: number): boolean {
  return unit(ctx.world.seed, 'gsb-has', song) < ctx.config.getsongbpm.coverage;
}

export function getSongBpmTempo(ctx: Ctx, song: number): number {
  const truth = ctx.world.catalog.tempoOf(song);
  return Math.round(
    reportedTempo(ctx, 'getsongbpm', song, song, truth, ctx.config.getsongbpm.octaveErrorShare).bpm,
  );
}

/**
 * The plain song title GetSongBPM lists: no "(feat. ...)", no version suffix (" - Live",
 * " - Remastered 2011", " - 2015 Remaster", " - Radio Edit", " - Single Version", " (Mono)" …).
 */
export function plainTitle(name: string): string {
  return baseTitle(name);
}
