// What each pattern plays, bar by bar, as a list of note events on a beat grid. The true tempo is
// always the quarter-note rate (the beat a runner steps to); the events decide how obvious it is.
import type { Prng } from './prng.ts';

export type Pattern = 'four-on-the-floor' | 'backbeat' | 'half-time' | 'swing' | 'waltz' | 'sparse';

export const PATTERNS: readonly Pattern[] = [
  'four-on-the-floor',
  'backbeat',
  'half-time',
  'swing',
  'waltz',
  'sparse',
];

export type NoteEvent =
  | { kind: 'kick' | 'snare' | 'clap' | 'crash'; at: number; vel: number }
  | { kind: 'hat'; at: number; vel: number; open: boolean }
  | { kind: 'ride'; at: number; vel: number }
  | { kind: 'tom'; at: number; vel: number; pitch: number }
  | { kind: 'bass' | 'sub' | 'piano' | 'lead'; at: number; vel: number; beats: number; freq: number }
  | { kind: 'stab' | 'pad'; at: number; vel: number; beats: number; freqs: number[] };

/** Semitones of chord roots over the key, with minor (true) or major triads. */
const PROGRESSIONS: ReadonlyArray<ReadonlyArray<[number, boolean]>> = [
  [
    [0, false],
    [7, false],
    [9, true],
    [5, false],
  ],
  [
    [0, true],
    [8, false],
    [3, false],
    [10, false],
  ],
  [
    [0, false],
    [5, false],
    [7, false],
    [5, false],
  ],
  [
    [0, true],
    [5, true],
    [10, false],
    [3, false],
  ],
  [
    [2, true],
    [7, false],
    [0, false],
    [0, false],
  ],
];

const midiHz = (m: number) => 440 * Math.pow(2, (m - 69) / 12);

export interface Harmony {
  /** Bass root of each bar (Hz). */
  bassRoot(bar: number): number;
  /** Triad around middle C for each bar (Hz). */
  chord(bar: number): number[];
  /** A chord tone or scale step for a melody note, index counted up from the chord root. */
  melody(bar: number, step: number): number;
}

export function makeHarmony(rng: Prng): Harmony {
  const key = rng.int(0, 11);
  const prog = rng.pick(PROGRESSIONS);
  const barsPerChord = rng.pick([1, 1, 2]);
  const at = (bar: number) => prog[Math.floor(bar / barsPerChord) % prog.length] as [number, boolean];
  const rootMidi = (bar: number) => 28 + ((key + at(bar)[0]) % 12); // E1 .. D#2
  return {
    bassRoot: (bar) => midiHz(rootMidi(bar)),
    chord: (bar) => {
      const [, minor] = at(bar);
      const r = rootMidi(bar) + 24;
      return [r, r + (minor ? 3 : 4), r + 7].map(midiHz);
    },
    melody: (bar, step) => {
      const [, minor] = at(bar);
      const scale = minor ? [0, 2, 3, 5, 7, 8, 10] : [0, 2, 4, 5, 7, 9, 11];
      const octave = Math.floor(step / 7);
      const s = ((step % 7) + 7) % 7;
      return midiHz(rootMidi(bar) + 36 + 12 * octave + (scale[s] as number));
    },
  };
}

/** Per-clip choices that stay fixed for the whole clip (the "arrangement"). */
export interface Arrangement {
  pattern: Pattern;
  beatsPerBar: 3 | 4;
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
    beatsPerBar: pattern === 'waltz' ? 3 : 4,
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

/** The events of one bar, `at` in beats from the start of the song. */
export function barEvents(arr: Arrangement, bar: number, h: Harmony, rng: Prng): NoteEvent[] {
  const b0 = bar * arr.beatsPerBar;
  const ev: NoteEvent[] = [];
  const lastOfPhrase = bar % arr.phrase === arr.phrase - 1;
  const firstOfPhrase = bar % arr.phrase === 0;
  const fill = arr.fills && lastOfPhrase && arr.pattern !== 'sparse';
  const v = (base: number, spread = 0.12) => Math.max(0.05, Math.min(1, base + rng.normal() * spread * base));
  const hats = (open: (pos: number) => boolean, accent: (pos: number) => number, upTo = arr.beatsPerBar) => {
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

  switch (arr.pattern) {
    case 'four-on-the-floor': {
      const cycle = bar % 16;
      const inBreak = cycle >= arr.breakFrom && cycle < arr.breakTo;
      if (!inBreak) {
        for (let k = 0; k < 4; k++) ev.push({ kind: 'kick', at: b0 + k, vel: v(0.95, 0.05) });
        for (const k of [1, 3])
          ev.push({ kind: arr.variant < 2 ? 'clap' : 'snare', at: b0 + k, vel: v(0.75) });
        for (const k of [0.5, 1.5, 2.5, 3.5])
          ev.push({
            kind: 'bass',
            at: b0 + k,
            vel: v(0.7, 0.05),
            beats: 0.4,
            freq: h.bassRoot(bar) * (k === 2.5 && arr.variant === 3 ? 2 : 1),
          });
      }
      if (arr.hatDiv === 4)
        hats(
          (p) => p % 1 === 0.5,
          (p) => (p % 1 === 0.5 ? 0.7 : 0.35),
        );
      else
        for (const k of [0.5, 1.5, 2.5, 3.5]) ev.push({ kind: 'hat', at: b0 + k, vel: v(0.7), open: true });
      if (inBreak) ev.push({ kind: 'pad', at: b0, vel: 1, beats: 4, freqs: h.chord(bar) });
      else chordPart();
      break;
    }
    case 'backbeat': {
      const kicks = [
        [0, 2],
        [0, 2, 2.5],
        [0, 1.5, 2],
        [0, 0.5, 2, 3.5],
      ][arr.variant] as number[];
      for (const k of kicks) ev.push({ kind: 'kick', at: b0 + k, vel: v(k % 1 === 0 ? 0.95 : 0.75) });
      ev.push({ kind: 'snare', at: b0 + 1, vel: v(0.85) });
      if (!fill) ev.push({ kind: 'snare', at: b0 + 3, vel: v(0.85) });
      else addFill(3);
      // Ghost notes in busier variants.
      if (arr.variant >= 2 && rng.chance(0.5)) ev.push({ kind: 'snare', at: b0 + 2.75, vel: v(0.2) });
      hats(
        (p) => arr.variant === 1 && p === 3.5,
        (p) => (p % 1 === 0 ? 0.6 : 0.4),
        fill ? 3 : 4,
      );
      for (let p = 0; p < 4; p += 0.5)
        ev.push({
          kind: 'bass',
          at: b0 + p,
          vel: v(p % 1 === 0 ? 0.75 : 0.6, 0.05),
          beats: 0.45,
          freq: h.bassRoot(bar),
        });
      chordPart();
      break;
    }
    case 'half-time': {
      const kicks = [
        [0, 2.5],
        [0, 0.75, 2.75],
        [0, 1.75, 2.5],
        [0, 3.5],
      ][arr.variant] as number[];
      for (const k of kicks) {
        ev.push({ kind: 'kick', at: b0 + k, vel: v(0.9) });
        ev.push({
          kind: 'sub',
          at: b0 + k,
          vel: v(0.7, 0.05),
          beats: k === 0 ? 1.5 : 1,
          freq: h.bassRoot(bar),
        });
      }
      ev.push({ kind: arr.variant === 2 ? 'clap' : 'snare', at: b0 + 2, vel: v(0.9) });
      if (fill) {
        // A hat roll in sixteenths across the last beat.
        hats(
          () => false,
          (p) => (p % 1 === 0 ? 0.55 : 0.4),
          3,
        );
        for (let p = 3; p < 4; p += 0.25)
          ev.push({ kind: 'hat', at: b0 + p, vel: v(0.35 + (p - 3) * 0.4), open: false });
      } else
        hats(
          (p) => p === 3.5 && arr.variant === 1,
          (p) => (p % 1 === 0 ? 0.55 : 0.4),
        );
      if (arr.chords !== 'none') ev.push({ kind: 'pad', at: b0, vel: 0.9, beats: 4, freqs: h.chord(bar) });
      break;
    }
    case 'swing': {
      const off = arr.swing;
      for (const p of [0, 1, 1 + off, 2, 3, 3 + off])
        ev.push({ kind: 'ride', at: b0 + p, vel: v(p % 1 === 0 ? 0.7 : 0.45) });
      for (const p of [1, 3]) ev.push({ kind: 'hat', at: b0 + p, vel: v(0.4), open: false });
      for (let p = 0; p < 4; p++) ev.push({ kind: 'kick', at: b0 + p, vel: v(0.22) });
      // Snare comping on swung off-beats, and a "bomb" now and then.
      for (let p = 0; p < 4; p++) {
        if (rng.chance(0.25)) ev.push({ kind: 'snare', at: b0 + p + off, vel: v(0.3) });
      }
      if (rng.chance(0.15)) ev.push({ kind: 'kick', at: b0 + 3 + off, vel: v(0.7) });
      // Walking bass: a chord tone or a neighbour on every beat.
      const root = h.bassRoot(bar);
      const steps = [
        1,
        Math.pow(2, rng.pick([3, 4, 7]) / 12),
        Math.pow(2, 7 / 12),
        Math.pow(2, rng.pick([10, 11, 13]) / 12),
      ];
      for (let p = 0; p < 4; p++)
        ev.push({ kind: 'bass', at: b0 + p, vel: v(0.7), beats: 0.9, freq: root * 2 * (steps[p] as number) });
      // Piano comping: the Charleston rhythm or a single push.
      const comp = arr.variant % 2 === 0 ? [0, 1 + off] : [rng.pick([1 + off, 2 + off, 3 + off])];
      for (const p of comp)
        for (const f of h.chord(bar))
          ev.push({ kind: 'piano', at: b0 + p, vel: v(0.35), beats: 0.6, freq: f });
      break;
    }
    case 'waltz': {
      if (arr.variant <= 1) {
        // Oom-pah-pah: bass and kick on one, chords on two and three.
        ev.push({ kind: 'kick', at: b0, vel: v(0.8) });
        ev.push({ kind: 'bass', at: b0, vel: v(0.8), beats: 1, freq: h.bassRoot(bar) * 2 });
        for (const p of [1, 2]) {
          ev.push({ kind: 'stab', at: b0 + p, vel: v(0.65), beats: 0.6, freqs: h.chord(bar) });
          ev.push({ kind: 'hat', at: b0 + p, vel: v(0.45), open: false });
        }
        if (arr.variant === 1) ev.push({ kind: 'snare', at: b0 + 2, vel: v(0.4) });
      } else if (arr.variant === 2) {
        // Pop 3/4: kick on one, snare on three, eighth hats.
        ev.push({ kind: 'kick', at: b0, vel: v(0.9) });
        if (rng.chance(0.4)) ev.push({ kind: 'kick', at: b0 + 1.5, vel: v(0.6) });
        ev.push({ kind: 'snare', at: b0 + 2, vel: v(0.8) });
        hats(
          () => false,
          (p) => (p % 1 === 0 ? 0.55 : 0.35),
        );
        ev.push({ kind: 'bass', at: b0, vel: v(0.75), beats: 1.5, freq: h.bassRoot(bar) });
        ev.push({ kind: 'bass', at: b0 + 2, vel: v(0.6), beats: 0.9, freq: h.bassRoot(bar) * 1.5 });
        chordPart();
      } else {
        // Jazz waltz: ride on every beat with a swung pickup, bass on one, comping on two or three.
        for (const p of [0, 1, 2, 2 + arr.swing + 0.12])
          ev.push({ kind: 'ride', at: b0 + p, vel: v(p === 0 ? 0.75 : 0.5) });
        ev.push({ kind: 'kick', at: b0, vel: v(0.5) });
        ev.push({ kind: 'hat', at: b0 + 1, vel: v(0.35), open: false });
        ev.push({ kind: 'bass', at: b0, vel: v(0.75), beats: 2, freq: h.bassRoot(bar) * 2 });
        ev.push({ kind: 'bass', at: b0 + 2, vel: v(0.6), beats: 0.9, freq: h.bassRoot(bar) * 3 });
        for (const f of h.chord(bar))
          ev.push({ kind: 'piano', at: b0 + rng.pick([1, 2]), vel: v(0.35), beats: 0.8, freq: f });
      }
      // A melody note on most beats.
      let step = rng.int(0, 4);
      for (let p = 0; p < 3; p++) {
        if (rng.chance(0.7))
          ev.push({ kind: 'piano', at: b0 + p, vel: v(0.4), beats: 0.95, freq: h.melody(bar, step) });
        step += rng.pick([-1, 1, 2, -2]);
      }
      break;
    }
    case 'sparse': {
      // Solo piano: a bass note, a chord and a few melody notes; rests, dotted rhythms and uneven
      // dynamics, no drums at all.
      const cells = [
        [0],
        [0, 2],
        [0, 1, 2, 3],
        [0, 1.5, 2],
        [0, 2, 3],
        [0, 0.5, 1, 2],
        [0, 3],
        [0, 1, 2],
        [2, 3],
      ];
      const bassBeats = rng.chance(0.6) ? [0] : [0, 2];
      for (const p of bassBeats)
        ev.push({
          kind: 'piano',
          at: b0 + p,
          vel: v(0.55),
          beats: bassBeats.length === 1 ? 3.8 : 1.9,
          freq: h.bassRoot(bar) * 2,
        });
      if (rng.chance(0.5))
        for (const f of h.chord(bar))
          ev.push({ kind: 'piano', at: b0 + rng.pick([0, 0, 1, 2]), vel: v(0.35), beats: 1.9, freq: f });
      let step = rng.int(2, 6);
      for (const p of rng.pick(cells)) {
        if (rng.chance(0.1)) continue;
        ev.push({ kind: 'piano', at: b0 + p, vel: v(0.55, 0.25), beats: 0.95, freq: h.melody(bar, step) });
        step += rng.pick([-2, -1, 1, 1, 2, 3]);
        step = Math.max(0, Math.min(10, step));
      }
      if (arr.chords === 'pad') ev.push({ kind: 'pad', at: b0, vel: 0.5, beats: 4, freqs: h.chord(bar) });
      break;
    }
  }
  return ev;
}
