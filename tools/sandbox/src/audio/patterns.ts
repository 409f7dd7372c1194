// What each pattern plays, bar by bar, as a list of note events on a beat grid. The true tempo is
// the beat a runner steps to (the quarter note; in 6/8 the dotted quarter); the events decide how obvious
// it is, and the accents of each bar carry its meter.
import { GROOVES } from './grooves.ts';
import type { Harmony } from './harmony.ts';
import type { Prng } from './prng.ts';

export { makeHarmony, type Harmony } from './harmony.ts';

export type Pattern =
  | 'four-on-the-floor'
  | 'backbeat'
  | 'half-time'
  | 'swing'
  | 'waltz'
  | 'sparse'
  | 'six-eight'
  | 'five-four'
  | 'seven-eight';

export const PATTERNS: readonly Pattern[] = [
  'four-on-the-floor',
  'backbeat',
  'half-time',
  'swing',
  'waltz',
  'sparse',
  'six-eight',
  'five-four',
  'seven-eight',
];

/**
 * Beats a bar: 3 in a waltz, 2 dotted quarters in 6/8, 5 in 5/4 (3 + 2), three and a half quarters
 * (2 + 2 + 3 eighths) in 7/8, 4 otherwise.
 */
export const BEATS_PER_BAR: Record<Pattern, number> = {
  'four-on-the-floor': 4,
  backbeat: 4,
  'half-time': 4,
  swing: 4,
  waltz: 3,
  sparse: 4,
  'six-eight': 2,
  'five-four': 5,
  'seven-eight': 3.5,
};

export type NoteEvent =
  | { kind: 'kick' | 'snare' | 'clap' | 'crash'; at: number; vel: number }
  | { kind: 'hat'; at: number; vel: number; open: boolean }
  | { kind: 'ride'; at: number; vel: number }
  | { kind: 'tom'; at: number; vel: number; pitch: number }
  | { kind: 'bass' | 'sub' | 'piano' | 'lead'; at: number; vel: number; beats: number; freq: number }
  | { kind: 'stab' | 'pad'; at: number; vel: number; beats: number; freqs: number[] };

/** Per-clip choices that stay fixed for the whole clip (the "arrangement"). */
export interface Arrangement {
  pattern: Pattern;
  beatsPerBar: number;
  variant: number;
  /** Where swung off-beats fall, as a fraction of the beat (0.5 = straight). */
  swing: number;
  /** Hats per beat: 1, 2 or 4. */
  hatDiv: 1 | 2 | 4;
  /** Bars per phrase; a fill ends each phrase. */
  phrase: number;
  fills: boolean;
  /** Bars in [breakFrom, breakTo) of each 16-bar cycle drop the drums (four-on-the-floor). */
  breakFrom: number;
  breakTo: number;
  chords: 'pad' | 'stabs' | 'piano' | 'none';
  /** A sung (or bowed) melody over the band. */
  lead: boolean;
}

export function makeArrangement(pattern: Pattern, bpm: number, rng: Prng): Arrangement {
  const hatDiv: 1 | 2 | 4 =
    bpm < 95 ? rng.pick([2, 4, 4]) : bpm < 150 ? rng.pick([2, 2, 4]) : rng.pick([1, 2, 2]);
  const breakFrom = rng.chance(0.35) ? rng.pick([8, 12]) : 99;
  return {
    pattern,
    beatsPerBar: BEATS_PER_BAR[pattern],
    variant: rng.int(0, 3),
    // Swing flattens as tempo rises, as players do.
    swing:
      pattern === 'swing' ? Math.max(0.56, rng.range(0.62, 0.69) - Math.max(0, bpm - 140) * 0.0015) : 0.5,
    hatDiv,
    phrase: rng.pick([4, 8, 8]),
    fills: rng.chance(0.7),
    breakFrom,
    breakTo: breakFrom + rng.pick([2, 4]),
    chords: rng.pick(['pad', 'pad', 'stabs', 'stabs', 'piano', 'none'] as const),
    lead: pattern !== 'sparse' && rng.chance(0.6),
  };
}

/** What a groove needs to write one bar. */
export interface BarContext {
  arr: Arrangement;
  bar: number;
  /** The bar's first beat. */
  b0: number;
  h: Harmony;
  rng: Prng;
  /** The events, appended to. */
  ev: NoteEvent[];
  /** This bar ends a phrase with a fill. */
  fill: boolean;
  /** A velocity around `base` with a relative spread. */
  v: (base: number, spread?: number) => number;
  hats: (open: (pos: number) => boolean, accent: (pos: number) => number, upTo?: number) => void;
  addFill: (fromBeat: number) => void;
  chordPart: () => void;
}

/** The events of one bar, `at` in beats from the start of the song. */
export function barEvents(arr: Arrangement, bar: number, h: Harmony, rng: Prng): NoteEvent[] {
  const b0 = bar * arr.beatsPerBar;
  const ev: NoteEvent[] = [];
  const lastOfPhrase = bar % arr.phrase === arr.phrase - 1;
  const firstOfPhrase = bar % arr.phrase === 0;
  const fill = arr.fills && lastOfPhrase && arr.pattern !== 'sparse';
  const v = (base: number, spread = 0.12) => Math.max(0.05, Math.min(1, base + rng.normal() * spread * base));
  const hats = (
    open: (pos: number) => boolean,
    accent: (pos: number) => number,
    upTo: number = arr.beatsPerBar,
  ) => {
    for (let p = 0; p < upTo; p += 1 / arr.hatDiv)
      ev.push({ kind: 'hat', at: b0 + p, vel: v(accent(p)), open: open(p) });
  };
  const addFill = (fromBeat: number) => {
    const pitches = [220, 170, 130, 100];
    let i = 0;
    for (let p = fromBeat; p < arr.beatsPerBar - 1e-9; p += 0.25, i++) {
      if (arr.variant % 2 === 0) ev.push({ kind: 'snare', at: b0 + p, vel: v(0.45 + (0.4 * i) / 8) });
      else
        ev.push({
          kind: 'tom',
          at: b0 + p,
          vel: v(0.7),
          pitch: pitches[Math.min(3, Math.floor(i / 2))] as number,
        });
    }
  };
  const chordPart = () => {
    const freqs = h.chord(bar);
    if (arr.chords === 'pad') ev.push({ kind: 'pad', at: b0, vel: 0.8, beats: arr.beatsPerBar, freqs });
    else if (arr.chords === 'stabs') {
      const spots = arr.variant % 2 === 0 ? [1.5, 3.5] : [0.5, 1.5, 2.5, 3.5];
      for (const s of spots) ev.push({ kind: 'stab', at: b0 + s, vel: v(0.6), beats: 0.35, freqs });
    } else if (arr.chords === 'piano') {
      for (const f of freqs)
        ev.push({ kind: 'piano', at: b0, vel: v(0.45), beats: arr.beatsPerBar * 0.9, freq: f });
    }
  };

  if (arr.lead) {
    // Phrases of held notes and short runs, with rests, ending on a long note.
    const cells = [
      [0, 2],
      [0, 1, 2, 3],
      [0, 1.5, 2.5],
      [0, 3],
      [1, 2, 3],
      [0, 0.5, 1, 2],
      [0.5, 1.5, 3],
    ];
    const cell = bar % 4 === 3 ? [0] : (rng.pick(cells).filter((p) => p < arr.beatsPerBar) as number[]);
    let step = rng.int(0, 7);
    cell.forEach((p, i) => {
      const end = i + 1 < cell.length ? (cell[i + 1] as number) : arr.beatsPerBar;
      if (rng.chance(0.15)) return;
      ev.push({
        kind: 'lead',
        at: b0 + p,
        vel: v(0.6, 0.1),
        beats: (end - p) * 0.92,
        freq: h.melody(bar, step),
      });
      step += rng.pick([-2, -1, 1, 2]);
    });
  }

  if (firstOfPhrase && arr.fills && bar > 0 && arr.pattern !== 'sparse')
    ev.push({ kind: 'crash', at: b0, vel: v(0.7) });

  GROOVES[arr.pattern]({ arr, bar, b0, h, rng, ev, fill, v, hats, addFill, chordPart });
  return ev;
}
