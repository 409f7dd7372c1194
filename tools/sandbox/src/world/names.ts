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
  if (nonLatin && rng.chance(0.6)) return rng.pick(NON_LATIN_TITLES);
  const r = rng.next();
  if (r < 0.25) return `${rng.pick(ADJ)} ${rng.pick(NOUN)}`;
  if (r < 0.45)
    return `${rng.pick(VERB)} ${rng.pick(['in', 'on', 'through', 'for', 'with'])} the ${rng.pick(NOUN)}`;
  if (r < 0.6) return rng.pick(NOUN);
  if (r < 0.72) return `${rng.pick(['Don\u2019t', 'Never', 'Always', 'Still'])} ${rng.pick(VERB)}`;
  if (r < 0.82) return `${rng.pick(NOUN)} of ${rng.pick(NOUN)}s`;
  if (r < 0.9) return `${rng.pick(FIRST)}`;
  return `${rng.pick(ADJ)} ${rng.pick(NOUN)} (${rng.pick(['Part II', 'Interlude', 'Reprise', 'Intro'])})`;
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
