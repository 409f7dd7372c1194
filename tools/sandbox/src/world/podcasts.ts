// Podcasts: a few shows and their episodes, which users keep in playlists among their songs (a
// library scan must skip them). Episode e is episode e % EPISODES_PER_SHOW of show floor(e / …).
import { Rng, hash32 } from './rng.ts';

export const SHOWS = 12;
export const EPISODES_PER_SHOW = 200;

const SHOW_NAMES = [
  'Marathon Talk',
  'The Long Run',
  'Strides & Stories',
  'Trail Tales',
  'Cadence Radio',
  'Run Club Weekly',
  'Couch to Finish',
  'The Split Times',
  'Easy Pace',
  'Hill Repeats',
  'Runner’s Kitchen',
  'Tempo Tuesday',
];
const TOPICS = [
  'Your first half marathon',
  'Why cadence matters',
  'Running in the heat',
  'Interval training explained',
  'Shoes, socks and blisters',
  'The perfect long run',
  'Coming back from injury',
  'Fuel for race day',
  'Running to music',
  'Sleep and recovery',
];

export interface Show {
  s: number;
  name: string;
  publisher: string;
  description: string;
  explicit: boolean;
  totalEpisodes: number;
}

export interface Episode {
  e: number;
  show: Show;
  /** 1-based number in its show. */
  no: number;
  name: string;
  description: string;
  durationMs: number;
  explicit: boolean;
  releaseDate: string;
}

export function showOf(seed: number, s: number): Show {
  const rng = new Rng(seed, 'show', s);
  const name = SHOW_NAMES[s % SHOW_NAMES.length] as string;
  return {
    s,
    name,
    publisher: `${name} Media`,
    description: `${name}: conversations about running, training and the music that keeps us going.`,
    explicit: rng.chance(0.2),
    totalEpisodes: EPISODES_PER_SHOW,
  };
}

export const isEpisode = (e: number) => Number.isInteger(e) && e >= 0 && e < SHOWS * EPISODES_PER_SHOW;

export function episodeOf(seed: number, e: number): Episode {
  const show = showOf(seed, Math.floor(e / EPISODES_PER_SHOW));
  const no = (e % EPISODES_PER_SHOW) + 1;
  const rng = new Rng(seed, 'episode', e);
  const day = 20_000 + no * 7 + (hash32(seed, 'episode-day', show.s) % 200);
  return {
    e,
    show,
    no,
    name: `#${no}: ${rng.pick(TOPICS)}`,
    description: `Episode ${no} of ${show.name}.`,
    durationMs: rng.int(20, 95) * 60_000 + rng.int(0, 59_999),
    explicit: show.explicit,
    releaseDate: new Date(day * 86_400_000).toISOString().slice(0, 10),
  };
}
