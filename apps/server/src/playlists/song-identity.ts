// What counts as one song in a Pacebeat playlist, so that a runner never hears a song twice.
// A song is placed once, and a track is the same song as a placed one when any of these holds:
//   - the same Spotify track id (whatever Pacebeat learned about it since: an ISRC makes its recording
//     key change from `spotify:<id>` to `isrc:<ISRC>`, so the key alone cannot be the identity);
//   - the same recording key, as recorded or as it is now (two track ids of one ISRC: a compilation copy,
//     a relinked id);
//   - an obvious version of it: the same first artist and the same title once case, accents, punctuation,
//     "(feat. …)" and version words ("Remastered 2011", "Radio Edit", "Single Version", "Mono", …) are
//     set aside, and durations close (within 15 s or 10 %; within 40 % when one title names a version,
//     since a radio edit is shorter). A live take, a remix, an acoustic or instrumental version is
//     another song (another tempo and feel), and generic titles ("Intro", "Interlude") never merge.
// Pure functions, no I/O.

export interface SongRef {
  trackId: string;
  recordingKey: string;
  title?: string | null;
  /** The first artist's Spotify id. */
  artistId?: string | null;
  durationMs?: number | null;
}

/** A placed row: its track as recorded, and what Pacebeat knows of that track now. */
export interface PlacedSong extends SongRef {
  /** The track's recording key today (null when the track is not in the library). */
  currentKey?: string | null;
}

/** Suffix or bracket words that make a different song as a runner hears it (kept in the title). */
const DISTINCT =
  /\b(live|remix|mix|acoustic|instrumental|demo|karaoke|unplugged|cover|reprise|dub|rework|session)\b/;
/** Words that name a version of the same song (dropped from the title). */
const VERSION =
  /\b(remaster(ed)?|radio|edit|version|single|album|mono|stereo|original|explicit|clean|feat|ft|featuring|with|deluxe|bonus|\d{4})\b/;
/** Titles too generic to say two tracks are one song. */
const GENERIC = new Set([
  'intro',
  'outro',
  'interlude',
  'untitled',
  'skit',
  'prelude',
  'hidden track',
  'bonus track',
]);

const fold = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/\p{M}+/gu, '')
    .toLowerCase();

/**
 * The title as a runner hears it, and whether a version part was set aside: "Window - Radio Edit" and
 * "Window (Remastered 2011)" are "window"; "Window - Live" stays "window live".
 */
export function songTitle(title: string): { title: string; versioned: boolean } {
  let t = fold(title);
  let versioned = false;
  const drop = (part: string) => {
    const words = part.replace(/[^\p{L}\p{N}]+/gu, ' ');
    if (DISTINCT.test(words) || !VERSION.test(words)) return false;
    versioned = true;
    return true;
  };
  // Bracketed parts: "(feat. X)", "[Remastered 2009]", "(Single Version)".
  t = t.replace(/[([{]([^)\]}]*)[)\]}]/g, (whole, inner: string) => (drop(inner) ? ' ' : whole));
  // Dash parts: "Song - Radio Edit", "Song - 2015 Remaster".
  t = t.replace(/\s[-–—]\s(.*)$/u, (whole, rest: string) => (drop(rest) ? '' : whole));
  return { title: t.replace(/[^\p{L}\p{N}]+/gu, ' ').trim(), versioned };
}

/** songTitle of recent titles: a writer run compares a whole library's titles, again at every run. */
const parsed = new Map<string, { title: string; versioned: boolean }>();
const PARSED_MAX = 100_000;
function parsedTitle(title: string) {
  let p = parsed.get(title);
  if (!p) {
    if (parsed.size >= PARSED_MAX) parsed.clear();
    p = songTitle(title);
    parsed.set(title, p);
  }
  return p;
}

/** The version key of a song and whether its title names a version; null when there is too little to say. */
function versionOf(s: Pick<SongRef, 'title' | 'artistId'>): { key: string; versioned: boolean } | null {
  if (!s.title || !s.artistId) return null;
  const { title, versioned } = parsedTitle(s.title);
  if (title === '' || GENERIC.has(title)) return null;
  return { key: `${s.artistId}\u0000${title}`, versioned };
}

/** The key versions of one song share (first artist and song title), or null when there is too little to say. */
export const versionKey = (s: Pick<SongRef, 'title' | 'artistId'>): string | null =>
  versionOf(s)?.key ?? null;

/** Durations of two versions of one song: close, or a named version (a radio edit) within 40 %. */
export function closeDurations(
  a: number | null | undefined,
  b: number | null | undefined,
  versioned: boolean,
) {
  if (!a || !b) return true;
  const [lo, hi] = a < b ? [a, b] : [b, a];
  if (hi - lo <= 15_000 || lo / hi >= 0.9) return true;
  return versioned && lo / hi >= 0.6;
}

/** A set of songs: what a playlist holds (placed rows), or what a plan has taken so far. */
export class SongSet {
  private readonly ids = new Set<string>();
  private readonly keys = new Set<string>();
  private readonly versions = new Map<string, Array<{ durationMs: number | null; versioned: boolean }>>();

  constructor(songs: Iterable<PlacedSong> = []) {
    for (const s of songs) this.add(s);
  }

  add(s: PlacedSong): void {
    this.ids.add(s.trackId);
    this.keys.add(s.recordingKey);
    if (s.currentKey) this.keys.add(s.currentKey);
    const v = versionOf(s);
    if (v === null) return;
    const list = this.versions.get(v.key);
    const entry = { durationMs: s.durationMs ?? null, versioned: v.versioned };
    if (list) list.push(entry);
    else this.versions.set(v.key, [entry]);
  }

  /** Whether this very track is held: by track id or recording key (as recorded or as it is now). */
  hasTrack(s: Pick<SongRef, 'trackId' | 'recordingKey'>): boolean {
    return this.ids.has(s.trackId) || this.keys.has(s.recordingKey);
  }

  /** Whether the track is one of these songs (by track id, recording key, or as a version). */
  has(s: SongRef): boolean {
    if (this.hasTrack(s)) return true;
    const v = versionOf(s);
    if (v === null) return false;
    return (this.versions.get(v.key) ?? []).some((p) =>
      closeDurations(p.durationMs, s.durationMs, v.versioned || p.versioned),
    );
  }

  /** Track ids held. */
  get size(): number {
    return this.ids.size;
  }
}
