// The simulated world's side of the runners' lives: their libraries growing overnight (new liked songs, new
// releases by the artists they follow), and what a runner does in their own Spotify app (remove songs from
// a Pacebeat playlist, add songs of their own to one, delete one). These go through the sandbox's admin
// helpers, as the user's Spotify app would change the world: they are not calls of Pacebeat's app, so
// they do not count against its daily quota. Also the world's truth the scoring reads: true tempo,
// recording (ISRC) and song of a track.
import type { Sandbox } from '@pacebeat/sandbox';

/** A small seeded generator (mulberry32): the same life every run. */
export function rng(seed: number) {
  let a = seed >>> 0;
  const next = () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  return {
    next,
    int: (lo: number, hi: number) => lo + Math.floor(next() * (hi - lo + 1)),
    pick: <T>(xs: readonly T[]): T => xs[Math.floor(next() * xs.length)] as T,
  };
}
export type Rng = ReturnType<typeof rng>;

/** A song fits a target when its tempo, its double or its half lies in [min, max) (the product's rule). */
export const fits = (bpm: number, min: number, max: number) =>
  [bpm, bpm * 2, bpm / 2].some((b) => b >= min && b < max);

export class Truth {
  private readonly sb: Sandbox;
  constructor(sb: Sandbox) {
    this.sb = sb;
  }
  private g(trackId: string): number {
    const g = this.sb.world.trackG(trackId);
    if (g === undefined) throw new Error(`unknown track ${trackId}`);
    return g;
  }
  bpm(trackId: string): number {
    return this.sb.world.catalog.tempoOf(this.g(trackId)).bpm;
  }
  /** The track's credited artists (the world's indices; the first is the main one). */
  artists(trackId: string): number[] {
    return this.sb.world.catalog.track(this.g(trackId)).artists;
  }
  /** The recording (one ISRC: an album track and its compilation copies). */
  recording(trackId: string): number {
    return this.sb.world.catalog.recordingOf(this.g(trackId));
  }
  /**
   * The song as a runner hears it (the world's `songId` truth, `heardSongOf`): a remaster, a single's
   * version, a compilation copy are their original's song; a live take is a song of its own (another tempo
   * and feel). A world without `heardSongOf` (an older world): `songOf`, live takes kept apart.
   */
  song(trackId: string): number {
    const g = this.g(trackId);
    const cat = this.sb.world.catalog as typeof this.sb.world.catalog & {
      heardSongOf?: (g: number) => number;
    };
    if (cat.heardSongOf) return cat.heardSongOf(g);
    return cat.releaseOf(g).kind === 'live' ? g : cat.songOf(g);
  }
}

const artistId = (sb: Sandbox, i: number) => sb.world.ids.encode('artist', i);

/** The artists a user's library leans on: those they follow, then those of their liked songs. */
function tasteOf(sb: Sandbox, userId: string): number[] {
  const u = sb.world.user(userId);
  if (!u) throw new Error(`unknown user ${userId}`);
  const cat = sb.world.catalog;
  const fromLiked = u.liked.flatMap((l) => cat.track(l.g).artists);
  return [...new Set([...u.followedArtists, ...fromLiked])];
}

/** Original tracks (not compilation copies) by one of these artists that the user has not liked. */
function newTracksFor(sb: Sandbox, userId: string, artists: number[], n: number, r: Rng): string[] {
  const u = sb.world.user(userId)!;
  const cat = sb.world.catalog;
  const have = new Set(u.liked.map((l) => l.g));
  const out = new Set<number>();
  for (let tries = 0; out.size < n && tries < n * 20 && artists.length > 0; tries++) {
    const tracks = cat.creditedTracks(r.pick(artists)).filter((g) => cat.recordingOf(g) === g);
    if (tracks.length === 0) continue;
    const g = r.pick(tracks);
    if (!have.has(g)) out.add(g);
  }
  return [...out].map((g) => sb.world.trackId(g));
}

/**
 * Before the first day: `chloe` (an empty library in the generated world) takes to running with `ana.runs`:
 * she follows some of Ana's followed artists and likes songs of theirs, so the two share artist catalogs.
 */
export function shareTaste(sb: Sandbox, from: string, to: string, r: Rng, artists = 6, liked = 30): string[] {
  const src = sb.world.user(from)!;
  const chosen = [...src.followedArtists].sort(() => r.next() - 0.5).slice(0, artists);
  sb.admin.followArtists(
    to,
    chosen.map((i) => artistId(sb, i)),
  );
  const tracks = newTracksFor(sb, to, chosen, liked, r);
  sb.admin.like(to, tracks);
  return chosen.map((i) => artistId(sb, i));
}

export interface Growth {
  /** The new liked songs (track ids), by user. */
  liked: Record<string, string[]>;
  releases: Array<{ user: string; artistId: string; albumId: string; trackIds: string[] }>;
}

/** Overnight: new liked songs for every runner (by artists they like), and new releases of followed artists. */
export function growLibraries(
  sb: Sandbox,
  r: Rng,
  likedPerUser: Record<string, number>,
  releasesFor: string[],
): Growth {
  const out: Growth = { liked: {}, releases: [] };
  for (const [user, n] of Object.entries(likedPerUser)) {
    const tracks = newTracksFor(sb, user, tasteOf(sb, user), n, r);
    if (tracks.length) sb.admin.like(user, tracks);
    out.liked[user] = tracks;
  }
  for (const user of releasesFor) {
    const followed = sb.world.user(user)!.followedArtists;
    if (followed.length === 0) continue;
    const a = artistId(sb, r.pick(followed));
    const album = r.next() < 0.5;
    const rel = sb.admin.addRelease(
      a,
      album ? { albumType: 'album', trackCount: 8 } : { albumType: 'single' },
    );
    out.releases.push({ user, artistId: a, ...rel });
  }
  return out;
}

/** The runner, in their Spotify app, removes `n` songs from a playlist (the first ones, spread out). */
export function removeSongs(sb: Sandbox, playlistId: string, n: number, r: Rng): string[] {
  const items = sb.admin.playlistItems(playlistId).filter((x): x is string => x !== null);
  const chosen = new Set<string>();
  for (let tries = 0; chosen.size < Math.min(n, items.length) && tries < 100; tries++)
    chosen.add(r.pick(items));
  sb.admin.removeItems(playlistId, { uris: [...chosen].map((id) => `spotify:track:${id}`) });
  return [...chosen];
}

/**
 * The runner adds songs of their own to a Pacebeat playlist: liked songs that fit its range and are not
 * in it yet (songs Pacebeat would place itself later: it must not add them a second time).
 */
export function addOwnSongs(
  sb: Sandbox,
  truth: Truth,
  user: string,
  playlistId: string,
  range: { min: number; max: number },
  n: number,
): string[] {
  const inside = new Set(
    sb.admin
      .playlistItems(playlistId)
      .filter((x): x is string => x !== null)
      .map((id) => truth.recording(id)),
  );
  const liked = [...sb.world.user(user)!.liked].reverse().map((l) => sb.world.trackId(l.g));
  const fitting = liked.filter((id) => fits(truth.bpm(id), range.min, range.max));
  const chosen = [...fitting, ...liked]
    .filter((id, i, all) => all.indexOf(id) === i && !inside.has(truth.recording(id)))
    .slice(0, n);
  if (chosen.length) sb.admin.addToPlaylist(playlistId, chosen, user);
  return chosen;
}
