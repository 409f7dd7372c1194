// Keys, chord progressions and melody notes for the synthesiser.
import type { Prng } from './prng.ts';

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
