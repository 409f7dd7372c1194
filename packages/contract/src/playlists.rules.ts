// Editing targets, without zod: the limits, the texts of each refusal and the checks the web
// app's forms apply before sending, and the server's schemas (playlists.ts) apply again.

/** The BPM ranges a target may have (a runner's cadence, or half of it for a slow song's beat). */
export const TARGET_BPM_MIN = 60;
export const TARGET_BPM_MAX = 220;
/** The narrowest BPM range a target may have (a narrower one fits almost no song). */
export const TARGET_BPM_MIN_WIDTH = 1;
/** The longest target (and playlist) name, in characters as people count them (graphemes: 🏃‍♀️ is one). */
export const TARGET_NAME_MAX = 100;
/** A bound on the name's UTF-16 length too, so a hundred long emoji sequences stay a sane playlist name. */
export const TARGET_NAME_MAX_CODE_UNITS = 1000;
/** The longest duration limit, in seconds. */
export const TARGET_DURATION_MAX_S = 3600;

/** The refusals of a target's fields, written for people (the API answers them as `error.message`). */
export const TARGET_TEXTS = {
  nameEmpty: 'The name may not be empty.',
  nameTooLong: `The name may hold at most ${TARGET_NAME_MAX} characters.`,
  nameControl: 'The name may not hold line breaks, tabs or other control characters.',
  bpmTooLow: `BPM must be at least ${TARGET_BPM_MIN}.`,
  bpmTooHigh: `BPM must be at most ${TARGET_BPM_MAX}.`,
  bpmNotNumber: 'BPM must be a number.',
  rangeOrder: 'The lowest BPM must be below the highest.',
  rangeTooNarrow: `The highest BPM must be at least ${TARGET_BPM_MIN_WIDTH} above the lowest.`,
  durationOrder: 'The shortest duration must not exceed the longest.',
  duration: `A duration limit must be a whole number of seconds, from 0 to ${TARGET_DURATION_MAX_S}.`,
  noSuchTarget: 'You have no such target.',
} as const;

/**
 * A playlist link as Spotify gives it (`external_urls.spotify`), only when it is an https link to
 * open.spotify.com; anything else (another host, another scheme, `javascript:`) is no link at all.
 */
export function spotifyLink(url: string | null | undefined): string | null {
  if (!url) return null;
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return null;
  }
  const ok =
    u.protocol === 'https:' && u.hostname === 'open.spotify.com' && !u.port && !u.username && !u.password;
  return ok ? u.href : null;
}

/** Why a BPM range is refused, in plain words, or null when it is fine. */
export function bpmRangeProblem(min: number, max: number): string | null {
  if (!(min < max)) return TARGET_TEXTS.rangeOrder;
  if (max - min < TARGET_BPM_MIN_WIDTH) return TARGET_TEXTS.rangeTooNarrow;
  return null;
}

const segmenter = new Intl.Segmenter(undefined, { granularity: 'grapheme' });

/** How many characters a person sees in `text` (grapheme clusters: 🏃‍♀️, é and 🇫🇷 count one each). */
export function graphemeCount(text: string): number {
  return [...segmenter.segment(text)].length;
}

/**
 * What breaks a playlist name: control characters (line breaks, tabs), line and paragraph separators,
 * lone surrogates, and the invisible bidirectional overrides that make a name read other than it is.
 * Not the joiners, variation selectors and tags inside emoji sequences (🏃‍♀️, ❤️, 🏴󠁧󠁢󠁳󠁣󠁴󠁿).
 */
const BREAKS_A_NAME = /[\p{Cc}\p{Cs}\p{Zl}\p{Zp}\u061C\u200E\u200F\u202A-\u202E\u2066-\u2069\uFEFF]/u;

/** Why a (trimmed) name is refused, in plain words, or null when it is fine. */
export function targetNameProblem(name: string): string | null {
  if (name.length === 0) return TARGET_TEXTS.nameEmpty;
  if (BREAKS_A_NAME.test(name)) return TARGET_TEXTS.nameControl;
  if (name.length > TARGET_NAME_MAX_CODE_UNITS || graphemeCount(name) > TARGET_NAME_MAX)
    return TARGET_TEXTS.nameTooLong;
  return null;
}
