// What the simulated world's own library of a user allows: the pages any scanner must read (the lower
// bound, at the page sizes development mode allows), the tracks they hold, and what each catalog group
// and release kind adds for its calls. Computed from the world itself, not from Pacebeat's scan.
import type { World } from '@pacebeat/sandbox/world/world';

const PAGE = 50;
const LISTING = 10;
export const GROUPS = ['album', 'single', 'compilation', 'appears_on'] as const;
export type Group = (typeof GROUPS)[number];

export interface LibraryTruth {
  liked: number[];
  playlistsListed: number;
  /** Playlists the user owns or collaborates on: entries (local files and removed tracks included). */
  readable: Array<{ p: number; entries: number; tracks: number[] }>;
  followed: number[];
  /** Artists whose catalogs "every track of every artist" asks for: of the tracks above, plus followed. */
  artists: number[];
  /** Tracks of Liked Songs and the readable playlists. */
  ownTracks: Set<number>;
}

export function libraryTruth(world: World, username: string): LibraryTruth {
  const user = world.user(username);
  if (!user) throw new Error(`no user ${username}`);
  const listed = user.playlists.map((p) => world.playlists[p]!);
  const readable = listed
    .filter((pl) => world.canEdit(user, pl))
    .map((pl) => ({
      p: pl.p,
      entries: pl.entries.length,
      tracks: pl.entries.flatMap((e) => (e.g === undefined ? [] : [e.g])),
    }));
  const ownTracks = new Set<number>([...user.liked.map((l) => l.g), ...readable.flatMap((r) => r.tracks)]);
  const artists = new Set<number>(user.followedArtists);
  for (const g of ownTracks) for (const a of world.catalog.track(g).artists) artists.add(a);
  return {
    liked: user.liked.map((l) => l.g),
    playlistsListed: listed.length,
    readable,
    followed: user.followedArtists,
    artists: [...artists],
    ownTracks,
  };
}

/** An artist's listing for some groups, in Spotify's order, capped (as the scan caps it). */
function listing(world: World, artist: number, groups: readonly Group[], cap: number): number[] {
  const a = world.catalog.artists[artist]!;
  const out: number[] = [];
  for (const g of GROUPS) {
    if (!groups.includes(g)) continue;
    if (g === 'appears_on') out.push(...a.appearsOn);
    else out.push(...a.releases.filter((r) => world.catalog.releases[r]!.albumType === g));
  }
  return out.slice(0, cap);
}

const releaseCalls = (tracks: number) => 1 + Math.max(0, Math.ceil((tracks - PAGE) / PAGE));

export interface LowerBound {
  byEndpoint: Record<string, number>;
  total: number;
  /** Every track the scan can find: own tracks plus the catalogs' tracks. */
  tracks: Set<number>;
}

/** The fewest calls that read the whole library with these catalog groups. */
export function lowerBound(world: World, t: LibraryTruth, groups: readonly Group[], cap = 300): LowerBound {
  const byEndpoint: Record<string, number> = {
    'GET /me/playlists': Math.max(1, Math.ceil(t.playlistsListed / PAGE)),
    'GET /me/tracks': Math.max(1, Math.ceil(t.liked.length / PAGE)),
    'GET /playlists/{id}/items': t.readable.reduce((n, r) => n + Math.ceil(r.entries / PAGE), 0),
    'GET /me/following': Math.max(1, Math.ceil(t.followed.length / PAGE)),
    'GET /artists/{id}/albums': 0,
    'GET /albums/{id}': 0,
    'GET /albums/{id}/tracks': 0,
  };
  const tracks = new Set(t.ownTracks);
  const releases = new Set<number>();
  for (const a of t.artists) {
    const rs = listing(world, a, groups, cap);
    byEndpoint['GET /artists/{id}/albums']! += Math.max(1, Math.ceil(rs.length / LISTING));
    for (const r of rs) {
      releases.add(r);
      // An artist's tracks on the release (on another artist's album, only those crediting them).
      const rel = world.catalog.releases[r]!;
      for (let k = 0; k < rel.trackCount; k++)
        if (world.catalog.track(rel.firstG + k).artists.includes(a)) tracks.add(rel.firstG + k);
    }
  }
  for (const r of releases) {
    const rel = world.catalog.releases[r]!;
    byEndpoint['GET /albums/{id}']! += 1;
    byEndpoint['GET /albums/{id}/tracks']! += releaseCalls(rel.trackCount) - 1;
  }
  const total = Object.values(byEndpoint).reduce((a, b) => a + b, 0);
  return { byEndpoint, total, tracks };
}

export interface GroupRow {
  label: string;
  calls: number;
  tracks: number;
  /** Recordings (ISRC) and songs (a live or remastered take is the same song) not found before. */
  newRecordings: number;
  newSongs: number;
}

/**
 * What each catalog group adds, in Spotify's order (album, +single, +compilation, +appears_on), and what
 * each release kind inside albums and singles adds that no other kind has: calls against new songs.
 */
export function groupValue(world: World, t: LibraryTruth): { groups: GroupRow[]; kinds: GroupRow[] } {
  const cat = world.catalog;
  const recordingsOf = (ts: Iterable<number>) => new Set([...ts].map((g) => cat.recordingOf(g)));
  const songsOf = (ts: Iterable<number>) => new Set([...ts].map((g) => cat.songOf(cat.recordingOf(g))));
  const groups: GroupRow[] = [];
  let prev = lowerBound(world, t, []);
  let seenRec = recordingsOf(t.ownTracks);
  let seenSongs = songsOf(t.ownTracks);
  for (let k = 1; k <= GROUPS.length; k++) {
    const lb = lowerBound(world, t, GROUPS.slice(0, k));
    const fresh = [...lb.tracks].filter((g) => !prev.tracks.has(g));
    const rec = recordingsOf(fresh);
    const songs = songsOf(fresh);
    groups.push({
      label: k === 1 ? 'album' : `+ ${GROUPS[k - 1]}`,
      calls: lb.total - prev.total,
      tracks: fresh.length,
      newRecordings: [...rec].filter((x) => !seenRec.has(x)).length,
      newSongs: [...songs].filter((x) => !seenSongs.has(x)).length,
    });
    seenRec = new Set([...seenRec, ...rec]);
    seenSongs = new Set([...seenSongs, ...songs]);
    prev = lb;
  }
  // Release kinds of album,single: songs that only that kind brings.
  const releases = new Set<number>();
  for (const a of t.artists) for (const r of listing(world, a, ['album', 'single'], 300)) releases.add(r);
  const byKind = new Map<string, number[]>();
  for (const r of releases) {
    const kind = cat.releases[r]!.kind;
    byKind.set(kind, [...(byKind.get(kind) ?? []), r]);
  }
  const tracksOf = (rs: number[]) =>
    rs.flatMap((r) =>
      Array.from({ length: cat.releases[r]!.trackCount }, (_, i) => cat.releases[r]!.firstG + i),
    );
  const kinds: GroupRow[] = [];
  for (const [kind, rs] of [...byKind.entries()].sort()) {
    const others = tracksOf([...releases].filter((r) => cat.releases[r]!.kind !== kind));
    const baseRec = recordingsOf([...t.ownTracks, ...others]);
    const baseSongs = songsOf([...t.ownTracks, ...others]);
    const mine = tracksOf(rs);
    kinds.push({
      label: kind,
      calls: rs.reduce((n, r) => n + releaseCalls(cat.releases[r]!.trackCount), 0),
      tracks: mine.length,
      newRecordings: [...recordingsOf(mine)].filter((x) => !baseRec.has(x)).length,
      newSongs: [...songsOf(mine)].filter((x) => !baseSongs.has(x)).length,
    });
  }
  return { groups, kinds };
}
