// Names for artists, releases and tracks: Latin words, accents and a share of non-Latin scripts, so
// that search, matching and display are exercised on realistic text.
import type { Rng } from './rng.ts';

const ADJ = [
  'Electric',
  'Silver',
  'Midnight',
  'Golden',
  'Neon',
  'Velvet',
  'Broken',
  'Wild',
  'Quiet',
  'Crimson',
  'Lonely',
  'Hidden',
  'Burning',
  'Frozen',
  'Hollow',
  'Sweet',
  'Restless',
  'Distant',
  'Electric',
  'Paper',
  'Endless',
  'Faded',
  'Bright',
  'Dark',
  'Little',
  'Northern',
  'Southern',
  'Lucky',
  'Cosmic',
  'Savage',
];
const NOUN = [
  'Heart',
  'River',
  'Sky',
  'Night',
  'City',
  'Fire',
  'Dream',
  'Road',
  'Ocean',
  'Summer',
  'Shadow',
  'Light',
  'Rain',
  'Storm',
  'Mirror',
  'Garden',
  'Engine',
  'Echo',
  'Horizon',
  'Wave',
  'Satellite',
  'Desert',
  'Highway',
  'Thunder',
  'Diamond',
  'Signal',
  'Pulse',
  'Runner',
  'Stranger',
  'Window',
  'Machine',
  'Season',
];
const VERB = [
  'Running',
  'Falling',
  'Dancing',
  'Waiting',
  'Chasing',
  'Breaking',
  'Holding',
  'Flying',
  'Dreaming',
  'Burning',
  'Calling',
  'Moving',
  'Shining',
  'Fading',
  'Rising',
  'Drifting',
  'Racing',
  'Turning',
];
const FIRST = [
  'Anna',
  'Leo',
  'Maya',
  'Jonas',
  'Zoe',
  'Mateo',
  'Lena',
  'Noah',
  'Ines',
  'Oskar',
  'Sofia',
  'Elias',
  'Chloé',
  'Björn',
  'Léa',
  'José',
  'Amélie',
  'Søren',
  'Zoë',
  'Nadia',
  'Kai',
  'Ruby',
  'Theo',
  'Ida',
  'Marcus',
  'Priya',
  'Omar',
  'Freya',
  'Hugo',
  'Aisha',
  'Felix',
  'Nina',
  'Rafael',
  'Yara',
  'Emil',
  'Tara',
];
const LAST = [
  'Hart',
  'Novak',
  'Reyes',
  'Lindqvist',
  'Moreau',
  'Okafor',
  'Kowalski',
  'Brennan',
  'Sato',
  'Ferreira',
  'Müller',
  'García',
  'Dubois',
  'Andersson',
  'Rossi',
  'Nowak',
  'Vega',
  'Costa',
  'Quinn',
  'Wilde',
  'Baptiste',
  'Haas',
  'Jensen',
  'Ortiz',
  'Palmer',
  'Ramos',
  'Stone',
  'Torres',
  'Vance',
  'Weiss',
];
const BAND_SUFFIX = [
  'Collective',
  'Club',
  'Orchestra',
  'Brothers',
  'Sisters',
  'Project',
  'Machine',
  'Band',
  'Experience',
  'Society',
];

// Non-Latin names (Japanese, Korean, Cyrillic, Greek, Arabic, Hindi) and their titles.
const NON_LATIN_ARTISTS = [
  '宇多田ヒカル',
  '米津玄師',
  'あいみょん',
  '아이유',
  '방탄소년단',
  '블랙핑크',
  'Кино',
  'Земфира',
  'Сплин',
  'Μίκης Θεοδωράκης',
  'فيروز',
  'عمرو دياب',
  'अरिजीत सिंह',
  '周杰倫',
  '五月天',
  'ヨルシカ',
  '잔나비',
  'Мумий Тролль',
];
const NON_LATIN_TITLES = [
  '夜に駆ける',
  '紅蓮華',
  '좋은 날',
  '밤편지',
  'Группа крови',
  'Кукушка',
  'Σ\u0027 αγαπώ',
  'حبيبي',
  'तुम ही हो',
  '晴る',
  '群青',
  '봄날',
  'Звезда по имени Солнце',
  '残酷な天使のテーゼ',
  '小幸運',
  '春よ、来い',
  'Лето',
  '사랑비',
];

export function artistName(rng: Rng): string {
  const r = rng.next();
  if (r < 0.08) return rng.pick(NON_LATIN_ARTISTS) + (rng.chance(0.5) ? '' : ` ${rng.int(2, 99)}`);
  if (r < 0.4) return `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
  if (r < 0.6) return `The ${rng.pick(ADJ)} ${rng.pick(NOUN)}s`;
  if (r < 0.72) return `${rng.pick(NOUN)} ${rng.pick(BAND_SUFFIX)}`;
  if (r < 0.84) return `${rng.pick(ADJ)} ${rng.pick(NOUN)}`;
  if (r < 0.92) return `${rng.pick(FIRST)} & the ${rng.pick(NOUN)}s`;
  return `${rng.pick(NOUN).toUpperCase()}${rng.chance(0.5) ? '' : rng.int(1, 9)}`;
}

export function songTitle(rng: Rng, nonLatin: boolean): string {
  return titleText(songTitleCode(rng, nonLatin));
}

const PREPOSITIONS = ['in', 'on', 'through', 'for', 'with'];
const ADVERBS = ['Don\u2019t', 'Never', 'Always', 'Still'];
const PARTS = ['Part II', 'Interlude', 'Reprise', 'Intro'];
/** Codes of numbered fallback titles ("… No. 2") start here. */
const NUMBERED = 1 << 24;
const code = (pattern: number, a: number, b: number, c: number) => ((pattern * 64 + a) * 64 + b) * 64 + c;

/**
 * A song title as a number (songTitle spells it): the title generators draw and compare thousands of
 * titles per artist, and numbers are cheaper to draw, remember and compare than strings.
 */
export function songTitleCode(rng: Rng, nonLatin: boolean): number {
  const ix = (n: number) => Math.floor(rng.next() * n);
  if (nonLatin && rng.chance(0.6)) return code(7, ix(NON_LATIN_TITLES.length), 0, 0);
  const r = rng.next();
  if (r < 0.25) return code(0, ix(ADJ.length), ix(NOUN.length), 0);
  if (r < 0.45) return code(1, ix(VERB.length), ix(PREPOSITIONS.length), ix(NOUN.length));
  if (r < 0.6) return code(2, ix(NOUN.length), 0, 0);
  if (r < 0.72) return code(3, ix(ADVERBS.length), ix(VERB.length), 0);
  if (r < 0.82) return code(4, ix(NOUN.length), ix(NOUN.length), 0);
  if (r < 0.9) return code(5, ix(FIRST.length), 0, 0);
  return code(6, ix(ADJ.length), ix(NOUN.length), ix(PARTS.length));
}

const texts = new Map<number, string>();

/** The title a code stands for. */
export function titleText(c: number): string {
  let text = texts.get(c);
  if (text !== undefined) return text;
  if (c >= NUMBERED) text = `${titleText(c % NUMBERED)} No. ${Math.floor(c / NUMBERED)}`;
  else {
    const x = c % 64;
    const b = Math.floor(c / 64) % 64;
    const a = Math.floor(c / 4096) % 64;
    const w = <T>(list: readonly T[], i: number) => list[i] as T;
    switch (Math.floor(c / 262144)) {
      case 0:
        text = `${w(ADJ, a)} ${w(NOUN, b)}`;
        break;
      case 1:
        text = `${w(VERB, a)} ${w(PREPOSITIONS, b)} the ${w(NOUN, x)}`;
        break;
      case 2:
        text = w(NOUN, a);
        break;
      case 3:
        text = `${w(ADVERBS, a)} ${w(VERB, b)}`;
        break;
      case 4:
        text = `${w(NOUN, a)} of ${w(NOUN, b)}s`;
        break;
      case 5:
        text = w(FIRST, a);
        break;
      case 6:
        text = `${w(ADJ, a)} ${w(NOUN, b)} (${w(PARTS, x)})`;
        break;
      default:
        text = w(NON_LATIN_TITLES, a);
    }
  }
  texts.set(c, text);
  return text;
}

/** A version suffix Spotify puts after a song's title (` - Radio Edit`, ` - 2015 Remaster`, ` (Mono)` …). */
const VERSION_SUFFIX =
  / (?:- (?:Radio Edit|Single Version|Album Version|Mono|Remastered(?: \d{4})?|\d{4} Remaster|Live)|\(Mono\))$/;

/** The song's title without its `(feat. X)` and version suffix: "Window - Radio Edit" is "Window". */
export function baseTitle(name: string): string {
  let t = name;
  for (let k = 0; k < 3; k++) {
    const next = t.replace(FEAT_SUFFIX, '').replace(VERSION_SUFFIX, '');
    if (next === t) break;
    t = next;
  }
  return t;
}
const FEAT_SUFFIX = / \(feat\. [^)]*\)$/;

/**
 * What makes two titles one for an artist: case, accents, punctuation, `(feat. X)` and the version
 * suffix set aside. No artist has two unrelated songs with one key.
 */
export function songKey(title: string): string {
  const base = baseTitle(title);
  // Most titles are plain ASCII: no accents to fold.
  return (
    /^[\x20-\x7e]*$/.test(base)
      ? base.toLowerCase().replace(/[^a-z0-9]+/g, ' ')
      : fold(base).replace(/[^\p{L}\p{N}]+/gu, ' ')
  ).trim();
}

/** Each word list's entries → the first entry equal to it once folded ("Zoë" is "Zoe"). */
const canonical = (list: readonly string[]) =>
  list.map((word) => list.findIndex((other) => fold(other) === fold(word)));
const CANONICAL: ReadonlyArray<readonly number[]> = [
  canonical(ADJ),
  canonical(NOUN),
  canonical(VERB),
  canonical(PREPOSITIONS),
  canonical(ADVERBS),
  canonical(FIRST),
  canonical(PARTS),
  canonical(NON_LATIN_TITLES),
];
const [C_ADJ, C_NOUN, C_VERB, C_PREP, C_ADV, C_FIRST, C_PART, C_NON_LATIN] = CANONICAL as Array<
  readonly number[]
>;
/** Every title code (for tests): each pattern with every word of its slots. */
export function allTitleCodes(): number[] {
  const lengths = [
    [ADJ.length, NOUN.length, 1],
    [VERB.length, PREPOSITIONS.length, NOUN.length],
    [NOUN.length, 1, 1],
    [ADVERBS.length, VERB.length, 1],
    [NOUN.length, NOUN.length, 1],
    [FIRST.length, 1, 1],
    [ADJ.length, NOUN.length, PARTS.length],
    [NON_LATIN_TITLES.length, 1, 1],
  ];
  const out: number[] = [];
  lengths.forEach(([na, nb, nx], p) => {
    for (let a = 0; a < (na as number); a++)
      for (let b = 0; b < (nb as number); b++)
        for (let x = 0; x < (nx as number); x++) out.push(code(p, a, b, x));
  });
  return out;
}

/** The word lists each title pattern's three slots draw from (songTitleCode). */
const SLOTS: ReadonlyArray<ReadonlyArray<readonly number[] | undefined>> = [
  [C_ADJ, C_NOUN],
  [C_VERB, C_PREP, C_NOUN],
  [C_NOUN],
  [C_ADV, C_VERB],
  [C_NOUN, C_NOUN],
  [C_FIRST],
  [C_ADJ, C_NOUN, C_PART],
  [C_NON_LATIN],
];

/**
 * The key of a title code as a number: equal for two codes exactly when their titles have one songKey
 * (the patterns never spell the same text, so the same pattern with the same words once folded).
 */
export function titleKeyId(c: number): number {
  const n = Math.floor(c / NUMBERED);
  const base = c % NUMBERED;
  const pattern = Math.floor(base / 262144);
  const slots = SLOTS[pattern] as ReadonlyArray<readonly number[] | undefined>;
  const at = (slot: number, i: number) => slots[slot]?.[i] ?? i;
  const a = at(0, Math.floor(base / 4096) % 64);
  const b = at(1, Math.floor(base / 64) % 64);
  const x = at(2, base % 64);
  return code(pattern, a, b, x) + n * NUMBERED;
}

/** A song title (its code) whose key is not taken, drawn from `rng` until one is free. */
export function uniqueTitleCode(rng: Rng, nonLatin: boolean, taken: (keyId: number) => boolean): number {
  let c = songTitleCode(rng, nonLatin);
  for (let k = 0; k < 200 && taken(titleKeyId(c)); k++) c = songTitleCode(rng, nonLatin);
  // Practically never: every draw taken (an artist with thousands of songs).
  for (let n = 2; taken(titleKeyId(c)); n++) c = (songTitleCode(rng, false) % NUMBERED) + n * NUMBERED;
  return c;
}

export function albumTitle(rng: Rng, nonLatin: boolean): string {
  if (nonLatin && rng.chance(0.5)) return rng.pick(NON_LATIN_TITLES);
  const r = rng.next();
  if (r < 0.35) return `${rng.pick(ADJ)} ${rng.pick(NOUN)}s`;
  if (r < 0.55) return rng.pick(NOUN);
  if (r < 0.7) return `${rng.pick(NOUN)} & ${rng.pick(NOUN)}`;
  if (r < 0.85) return `The ${rng.pick(NOUN)} Sessions`;
  return `${rng.pick(VERB)} ${rng.pick(NOUN)}s`;
}

export function userDisplayName(rng: Rng): string {
  return `${rng.pick(FIRST)} ${rng.pick(LAST)}`;
}

/** Lower-case, accent-free text for matching. */
export function fold(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/[\u2019']/g, "'")
    .replace(/\s+/g, ' ')
    .trim();
}

export const isNonLatin = (text: string): boolean =>
  /[^\p{Script=Latin}\p{Script=Common}\p{Script=Inherited}]/u.test(text);
