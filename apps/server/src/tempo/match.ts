// Matching a Spotify track to a Deezer or GetSongBPM entry: cleaned names, the duration rule and
// the versions to refuse. Pure functions.
import type { DeezerBrief } from './clients/deezer.client.ts';

const FEATURING = /\s*[([](feat\.?|ft\.?|featuring|with)\s[^)\]]*[)\]]/gi;

/** Title without featuring credits, remaster/edit/version suffixes and bracketed notes. */
export function cleanTitle(title: string): string {
  return title
    .replace(FEATURING, '')
    .replace(/\s+-\s+.*\b(remaster(ed)?|edit|version|mix|mono|stereo|live|demo|bonus)\b.*$/i, '')
    .replace(/\s*[([][^)\]]*\b(remaster(ed)?|edit|version|mono|stereo|bonus)\b[^)\]]*[)\]]/gi, '')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The primary artist, as the text services want it. */
export const primaryArtist = (artists: string[]): string => (artists[0] ?? '').trim();

/** Same recording length: within max(5 %, 8 s). */
export function durationMatches(expectedMs: number, candidateSeconds: number): boolean {
  if (!(expectedMs > 0) || !(candidateSeconds > 0)) return true;
  const diff = Math.abs(expectedMs / 1000 - candidateSeconds);
  return diff <= Math.max(0.05 * (expectedMs / 1000), 8);
}

const UNWANTED =
  /\b(live|cast recording|original cast|cast album|karaoke|made famous by|originally performed|tribute)\b/i;
const REMIX = /\b(remix|rmx)\b/i;

/** Why a Deezer match is another version than the Spotify track, or undefined when it is not refused. */
export function refusedVersion(spotifyTitle: string, expectedMs: number, d: DeezerBrief): string | undefined {
  if (!durationMatches(expectedMs, d.duration))
    return `duration ${d.duration} s vs ${Math.round(expectedMs / 1000)} s`;
  const wantedText = spotifyTitle;
  const theirs = `${d.album.title} | ${d.title} ${d.title_version ?? ''}`;
  const m = UNWANTED.exec(theirs);
  if (m && !UNWANTED.test(wantedText)) return `${m[1]?.toLowerCase()} version (${d.album.title})`;
  if (REMIX.test(theirs) && !REMIX.test(wantedText)) return 'remix';
  return undefined;
}

/** A remaster note (" - Remastered 2011", "(2015 Remaster)"): the same recording, its tempo and length. */
const REMASTER_NOTE = /\s+-\s+[^-]*\bremaster(ed)?\b.*$|\s*[([][^)\]]*\bremaster(ed)?\b[^)\]]*[)\]]/gi;

/** Same recording length, as a copy of one recording has it (Deezer gives whole seconds). */
const SAME_LENGTH_S = 2;

/**
 * Whether a Deezer match found by name is the Spotify track's own recording, as sure as an ISRC match:
 * the same title word for word (featuring credits and remaster notes aside: a remaster is the same
 * recording) and the same length to 2 s. An acoustic, radio or re-recorded version has words of its own or
 * another length, and another song of the same name almost always another length. The artist is checked
 * by the search (`pickSearchHit`).
 */
export function sameRecordingByName(spotifyTitle: string, expectedMs: number, d: DeezerBrief): boolean {
  if (!(expectedMs > 0) || Math.abs(d.duration - expectedMs / 1000) > SAME_LENGTH_S) return false;
  const version = d.title_version?.trim() ?? '';
  const theirs = version && !d.title.includes(version) ? `${d.title} ${version}` : d.title;
  const bare = (t: string) => t.replace(FEATURING, '').replace(REMASTER_NOTE, '');
  return sameName(bare(spotifyTitle), bare(theirs));
}

const fold = (s: string) =>
  s
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim();

/** Same name after folding accents, case and punctuation. */
export const sameName = (a: string, b: string) => fold(a) === fold(b);

/** The best search hit: not refused, same primary artist, closest duration. */
export function pickSearchHit(
  hits: DeezerBrief[],
  want: { title: string; artist: string; durationMs: number },
): DeezerBrief | undefined {
  const title = cleanTitle(want.title);
  const ok = hits.filter(
    (h) =>
      refusedVersion(want.title, want.durationMs, h) === undefined &&
      sameName(h.artist.name, want.artist) &&
      sameName(cleanTitle(h.title), title),
  );
  ok.sort(
    (a, b) => Math.abs(a.duration * 1000 - want.durationMs) - Math.abs(b.duration * 1000 - want.durationMs),
  );
  return ok[0];
}
