// A deterministic music synthesiser: a few bars of drums, bass and chords in one of six patterns at a
// known tempo, with optional human timing, slow tempo drift, background noise and room reverb. The
// same options and seed always give the same samples.
import {
  makeArrangement,
  makeHarmony,
  barEvents,
  PATTERNS,
  type NoteEvent,
  type Pattern,
} from './patterns.ts';
import { Prng } from './prng.ts';
import type { VoiceContext } from './dsp.ts';
import * as drums from './drums.ts';
import * as tonal from './tonal.ts';

export { PATTERNS, type Pattern };

export interface SynthOptions {
  /** True tempo: quarter notes per minute (the beat a runner steps to). */
  bpm: number;
  pattern: Pattern;
  /** Clip length; default 30. */
  seconds?: number;
  /** Default 44100. */
  sampleRate?: number;
  seed: number;
  /** Standard deviation of each note's timing error, ms; default 5. */
  humanizeMs?: number;
  /** Largest slow tempo deviation from `bpm`, percent; default 0. */
  driftPct?: number;
  /** Background noise level as a ratio of noise RMS to music RMS (0.1 = 20 dB below); default 0. */
  noise?: number;
  /** Reverb wet amount, 0..1; default 0.1. */
  reverb?: number;
}

/**
 * Beat position → seconds since the song started, with a smooth tempo deviation of at most
 * `driftPct` percent around `bpm` (two slow sine waves of random phase).
 */
function makeClock(bpm: number, driftPct: number, rng: Prng, beats: number): (beat: number) => number {
  const p1 = rng.range(24, 64);
  const p2 = rng.range(8, 20);
  const f1 = rng.range(0, 2 * Math.PI);
  const f2 = rng.range(0, 2 * Math.PI);
  const dev = (b: number) =>
    ((driftPct / 100) *
      (Math.sin((2 * Math.PI * b) / p1 + f1) + 0.5 * Math.sin((2 * Math.PI * b) / p2 + f2))) /
    1.5;
  const steps = 12;
  const times = new Float64Array(beats + 2);
  let t = 0;
  for (let k = 0; k <= beats; k++) {
    times[k] = t;
    for (let s = 0; s < steps; s++) t += 60 / (bpm * (1 + dev(k + (s + 0.5) / steps))) / steps;
  }
  times[beats + 1] = t;
  return (beat) => {
    const k = Math.max(0, Math.min(beats, Math.floor(beat)));
    const frac = beat - k;
    return (times[k] as number) + frac * ((times[k + 1] as number) - (times[k] as number));
  };
}

/** Freeverb-style room: eight damped feedback combs in parallel, then four allpasses. */
function addReverb(buf: Float32Array, sampleRate: number, amount: number): void {
  if (amount <= 0) return;
  const scale = sampleRate / 44100;
  const combs = [1116, 1188, 1277, 1356, 1422, 1491, 1557, 1617].map((d) => Math.round(d * scale));
  const allpasses = [556, 441, 341, 225].map((d) => Math.round(d * scale));
  const feedback = 0.7 + 0.26 * Math.min(1, amount);
  const damp = 0.25;
  const wet = new Float32Array(buf.length);
  for (const d of combs) {
    const line = new Float32Array(d);
    let idx = 0;
    let store = 0;
    for (let i = 0; i < buf.length; i++) {
      const out = line[idx] as number;
      store = out * (1 - damp) + store * damp;
      line[idx] = (buf[i] as number) * 0.015 + store * feedback;
      wet[i]! += out;
      idx = idx + 1 === d ? 0 : idx + 1;
    }
  }
  for (const d of allpasses) {
    const line = new Float32Array(d);
    let idx = 0;
    for (let i = 0; i < buf.length; i++) {
      const delayed = line[idx] as number;
      const input = wet[i] as number;
      line[idx] = input + delayed * 0.5;
      wet[i] = delayed - input;
      idx = idx + 1 === d ? 0 : idx + 1;
    }
  }
  const dry = 1 - 0.4 * Math.min(1, amount);
  for (let i = 0; i < buf.length; i++) buf[i] = (buf[i] as number) * dry + (wet[i] as number) * amount * 3;
}

function rms(buf: Float32Array): number {
  let s = 0;
  for (let i = 0; i < buf.length; i++) s += (buf[i] as number) ** 2;
  return Math.sqrt(s / Math.max(1, buf.length));
}

/** Pink noise (equal energy per octave, Paul Kellet's filter), as room, crowd or tape noise. */
function addNoise(buf: Float32Array, level: number, rng: Prng): void {
  if (level <= 0) return;
  const target = rms(buf) * level;
  if (target <= 0) return;
  const n = new Float32Array(buf.length);
  let b0 = 0;
  let b1 = 0;
  let b2 = 0;
  for (let i = 0; i < n.length; i++) {
    const w = rng.bipolar();
    b0 = 0.99765 * b0 + w * 0.099046;
    b1 = 0.963 * b1 + w * 0.2965164;
    b2 = 0.57 * b2 + w * 1.0526913;
    n[i] = b0 + b1 + b2 + w * 0.1848;
  }
  const g = target / rms(n);
  for (let i = 0; i < buf.length; i++) buf[i]! += (n[i] as number) * g;
}

const GAIN: Record<NoteEvent['kind'], number> = {
  kick: 0.5,
  snare: 0.8,
  clap: 0.8,
  crash: 0.35,
  hat: 0.45,
  ride: 0.7,
  tom: 0.5,
  bass: 0.3,
  sub: 0.3,
  piano: 0.8,
  lead: 0.6,
  stab: 0.8,
  pad: 0.7,
};

/**
 * Synthesise a mono clip (samples in [-1, 1]) of the given pattern at the given tempo. Deterministic:
 * all randomness comes from `seed`.
 */
export function synthesizeClip(opts: SynthOptions): Float32Array {
  const { bpm, pattern, seed } = opts;
  const seconds = opts.seconds ?? 30;
  const sampleRate = opts.sampleRate ?? 44100;
  const humanizeMs = opts.humanizeMs ?? 5;
  const driftPct = opts.driftPct ?? 0;
  if (!(bpm > 0 && bpm < 1000)) throw new RangeError(`bpm out of range: ${bpm}`);
  if (!PATTERNS.includes(pattern)) throw new RangeError(`unknown pattern: ${pattern}`);
  if (!(seconds > 0) || !(sampleRate >= 8000))
    throw new RangeError('seconds and sampleRate must be positive');

  const rng = new Prng(seed, pattern, 'arrangement');
  const arr = makeArrangement(pattern, bpm, rng);
  const harmony = makeHarmony(rng);
  const kickTone: drums.KickTone = {
    low: rng.range(42, 58),
    high: rng.range(110, 190),
    pitchDecay: rng.range(0.025, 0.05),
    decay: rng.range(0.12, 0.3),
    click: rng.range(0.2, 0.8),
  };
  const snareTone: drums.SnareTone = {
    pitch: rng.range(160, 230),
    noiseDecay: rng.range(0.05, 0.12),
    bright: rng.next(),
  };
  const rideBase = rng.range(380, 520);
  const bassBright = rng.range(0.5, 0.8);
  const vibratoRate = rng.range(4.5, 6.5);
  const mix = Object.fromEntries(
    Object.entries(GAIN).map(([k, g]) => [k, g * rng.range(0.75, 1.25)]),
  ) as Record<NoteEvent['kind'], number>;
  const laidBack: Partial<Record<NoteEvent['kind'], number>> = {
    snare: rng.range(0, 12),
    clap: rng.range(0, 8),
  };

  // Previews start anywhere in a song: begin somewhere in the first phrases, mid-bar.
  const startBeat = rng.range(arr.beatsPerBar * 2, arr.beatsPerBar * 18);
  const totalBeats = Math.ceil(startBeat + (seconds * bpm * 1.2) / 60) + 2 * arr.beatsPerBar;
  const clock = makeClock(bpm, driftPct, new Prng(seed, 'clock'), totalBeats);
  const t0 = clock(startBeat);

  const length = Math.round(seconds * sampleRate);
  const buf = new Float32Array(length);
  const noteRng = new Prng(seed, 'notes');
  const ctx: VoiceContext = { buf, sampleRate, rng: new Prng(seed, 'voices') };
  const firstBar = Math.floor(startBeat / arr.beatsPerBar) - 1;
  const lastBar = Math.ceil(totalBeats / arr.beatsPerBar);
  const beatSec = 60 / bpm;
  for (let bar = Math.max(0, firstBar); bar < lastBar; bar++) {
    for (const e of barEvents(arr, bar, harmony, noteRng)) {
      const jitter = Math.max(-2.5, Math.min(2.5, noteRng.normal())) * humanizeMs + (laidBack[e.kind] ?? 0);
      const t = clock(e.at) - t0 + jitter / 1000;
      if (t < -4 || t >= seconds) continue;
      const start = Math.round(t * sampleRate);
      const g = mix[e.kind];
      switch (e.kind) {
        case 'kick':
          drums.kick(ctx, start, e.vel * g, kickTone);
          break;
        case 'snare':
          drums.snare(ctx, start, e.vel * g, snareTone);
          break;
        case 'clap':
          drums.clap(ctx, start, e.vel * g);
          break;
        case 'crash':
          drums.crash(ctx, start, e.vel * g);
          break;
        case 'hat':
          drums.hat(ctx, start, e.vel * g, e.open);
          break;
        case 'ride':
          drums.ride(ctx, start, e.vel * g, rideBase);
          break;
        case 'tom':
          drums.tom(ctx, start, e.vel * g, e.pitch);
          break;
        case 'bass':
          tonal.bass(ctx, start, e.beats * beatSec, e.freq, e.vel * g, bassBright);
          break;
        case 'sub':
          tonal.subBass(ctx, start, e.beats * beatSec, e.freq, e.vel * g);
          break;
        case 'piano':
          tonal.piano(ctx, start, e.beats * beatSec, e.freq, e.vel * g);
          break;
        case 'lead':
          tonal.lead(ctx, start, e.beats * beatSec, e.freq, e.vel * g, vibratoRate);
          break;
        case 'stab':
          tonal.stab(ctx, start, e.beats * beatSec, e.freqs, e.vel * g);
          break;
        case 'pad':
          tonal.pad(ctx, start, e.beats * beatSec, e.freqs, e.vel * g);
          break;
      }
    }
  }

  addReverb(buf, sampleRate, opts.reverb ?? 0.1);
  addNoise(buf, opts.noise ?? 0, new Prng(seed, 'noise'));

  // Normalise to a peak of 0.89 with a soft knee, as mastered previews are.
  let peak = 0;
  for (let i = 0; i < length; i++) peak = Math.max(peak, Math.abs(buf[i] as number));
  if (peak > 0) {
    const g = 1.1 / peak;
    for (let i = 0; i < length; i++) buf[i] = Math.tanh((buf[i] as number) * g) * (0.89 / Math.tanh(1.1));
  }
  return buf;
}
