// Instrument voices for the synthesiser. Each voice adds one note into a mono buffer at a sample
// offset (which may be negative: a note that began before the clip starts rings into it). Noise comes
// from the caller's seeded generator, so every voice is deterministic.
import type { Prng } from './prng.ts';

type BiquadKind = 'lowpass' | 'highpass' | 'bandpass';

/** RBJ-cookbook biquad, direct form I. */
export class Biquad {
  private b0 = 0;
  private b1 = 0;
  private b2 = 0;
  private a1 = 0;
  private a2 = 0;
  private x1 = 0;
  private x2 = 0;
  private y1 = 0;
  private y2 = 0;

  constructor(kind: BiquadKind, freq: number, q: number, sampleRate: number) {
    const w = (2 * Math.PI * Math.min(freq, sampleRate * 0.45)) / sampleRate;
    const cos = Math.cos(w);
    const alpha = Math.sin(w) / (2 * q);
    const a0 = 1 + alpha;
    if (kind === 'lowpass') {
      this.b0 = (1 - cos) / 2 / a0;
      this.b1 = (1 - cos) / a0;
      this.b2 = this.b0;
    } else if (kind === 'highpass') {
      this.b0 = (1 + cos) / 2 / a0;
      this.b1 = -(1 + cos) / a0;
      this.b2 = this.b0;
    } else {
      this.b0 = alpha / a0;
      this.b1 = 0;
      this.b2 = -alpha / a0;
    }
    this.a1 = (-2 * cos) / a0;
    this.a2 = (1 - alpha) / a0;
  }

  step(x: number): number {
    const y = this.b0 * x + this.b1 * this.x1 + this.b2 * this.x2 - this.a1 * this.y1 - this.a2 * this.y2;
    this.x2 = this.x1;
    this.x1 = x;
    this.y2 = this.y1;
    this.y1 = y;
    return y;
  }
}

export interface VoiceContext {
  buf: Float32Array;
  sampleRate: number;
  rng: Prng;
}

function span(ctx: VoiceContext, start: number, seconds: number): { from: number; to: number } {
  const len = Math.ceil(seconds * ctx.sampleRate);
  return { from: Math.max(0, -start), to: Math.min(len, ctx.buf.length - start) };
}

/**
 * A decaying sine partial computed with a rotating phasor (no Math.sin per sample), with a short
 * linear attack.
 */
function addPartial(
  ctx: VoiceContext,
  start: number,
  seconds: number,
  freq: number,
  amp: number,
  decay: number,
  attack = 0.003,
): void {
  const sr = ctx.sampleRate;
  if (freq >= sr / 2) return;
  const { from, to } = span(ctx, start, seconds);
  if (to <= from) return;
  const w = (2 * Math.PI * freq) / sr;
  const d = Math.exp(-1 / (decay * sr));
  const c = Math.cos(w) * d;
  const s = Math.sin(w) * d;
  // Jump the phasor to the first audible sample.
  let x = Math.cos(w * from) * Math.pow(d, from) * amp;
  let y = Math.sin(w * from) * Math.pow(d, from) * amp;
  const att = Math.max(1, attack * sr);
  const fadeOut = Math.min(Math.floor(0.01 * sr), to);
  const end = Math.ceil(seconds * sr);
  for (let i = from; i < to; i++) {
    let g = i < att ? i / att : 1;
    if (i > end - fadeOut) g *= (end - i) / fadeOut;
    ctx.buf[start + i]! += y * g;
    const nx = x * c - y * s;
    y = x * s + y * c;
    x = nx;
  }
}

function addNoise(
  ctx: VoiceContext,
  start: number,
  seconds: number,
  amp: number,
  decay: number,
  filters: Biquad[],
  attack = 0.0005,
): void {
  const sr = ctx.sampleRate;
  const len = Math.ceil(seconds * sr);
  const d = Math.exp(-1 / (decay * sr));
  const att = Math.max(1, attack * sr);
  let env = amp;
  for (let i = 0; i < len; i++) {
    let v = ctx.rng.bipolar();
    for (const f of filters) v = f.step(v);
    const j = start + i;
    if (j >= ctx.buf.length) break;
    if (j >= 0) ctx.buf[j]! += v * env * (i < att ? i / att : 1);
    env *= d;
  }
}

export interface KickTone {
  /** Resting pitch, Hz. */
  low: number;
  /** Pitch at the attack, Hz. */
  high: number;
  pitchDecay: number;
  decay: number;
  click: number;
}

export function kick(ctx: VoiceContext, start: number, vel: number, tone: KickTone): void {
  const sr = ctx.sampleRate;
  const len = Math.ceil(tone.decay * 5 * sr);
  let phase = 0;
  for (let i = 0; i < len; i++) {
    const t = i / sr;
    const f = tone.low + (tone.high - tone.low) * Math.exp(-t / tone.pitchDecay);
    phase += (2 * Math.PI * f) / sr;
    const env = Math.exp(-t / tone.decay) * Math.min(1, i / (0.001 * sr));
    const j = start + i;
    if (j >= ctx.buf.length) break;
    if (j >= 0) ctx.buf[j]! += Math.sin(phase) * env * vel;
  }
  if (tone.click > 0) {
    addNoise(ctx, start, 0.012, vel * tone.click, 0.003, [new Biquad('highpass', 1500, 0.7, sr)]);
  }
}

export interface SnareTone {
  pitch: number;
  noiseDecay: number;
  bright: number;
}

export function snare(ctx: VoiceContext, start: number, vel: number, tone: SnareTone): void {
  const sr = ctx.sampleRate;
  addPartial(ctx, start, 0.25, tone.pitch, vel * 0.5, 0.05, 0.001);
  addPartial(ctx, start, 0.2, tone.pitch * 1.62, vel * 0.25, 0.03, 0.001);
  addNoise(ctx, start, tone.noiseDecay * 5, vel * 0.55, tone.noiseDecay, [
    new Biquad('highpass', 900 + 1500 * tone.bright, 0.7, sr),
    new Biquad('lowpass', 7000 + 5000 * tone.bright, 0.7, sr),
  ]);
}

/** A hand clap: three quick bursts, then a short tail. */
export function clap(ctx: VoiceContext, start: number, vel: number): void {
  const sr = ctx.sampleRate;
  for (let k = 0; k < 3; k++) {
    addNoise(ctx, start + Math.round(k * 0.011 * sr), 0.02, vel * 0.5, 0.006, [
      new Biquad('bandpass', 1200, 1.2, sr),
    ]);
  }
  addNoise(ctx, start + Math.round(0.033 * sr), 0.4, vel * 0.45, 0.07, [
    new Biquad('bandpass', 1100, 0.9, sr),
  ]);
}

export function hat(ctx: VoiceContext, start: number, vel: number, open: boolean): void {
  const sr = ctx.sampleRate;
  const decay = open ? 0.18 : 0.025;
  addNoise(ctx, start, decay * 5, vel * 0.35, decay, [
    new Biquad('highpass', 6000, 0.8, sr),
    new Biquad('highpass', 4000, 0.6, sr),
  ]);
}

/** A ride cymbal: inharmonic metallic partials plus a bright noise ping. */
export function ride(ctx: VoiceContext, start: number, vel: number, base: number): void {
  const sr = ctx.sampleRate;
  const ratios = [1, 1.483, 1.932, 2.546, 2.63, 3.897];
  for (const r of ratios) addPartial(ctx, start, 1.2, base * r, (vel * 0.05) / Math.sqrt(r), 0.45, 0.0005);
  addNoise(ctx, start, 0.5, vel * 0.12, 0.09, [new Biquad('highpass', 5000, 0.7, sr)]);
}

export function crash(ctx: VoiceContext, start: number, vel: number): void {
  const sr = ctx.sampleRate;
  addNoise(ctx, start, 2.5, vel * 0.3, 0.6, [new Biquad('highpass', 4000, 0.6, sr)]);
}

export function tom(ctx: VoiceContext, start: number, vel: number, pitch: number): void {
  kick(ctx, start, vel * 0.7, { low: pitch, high: pitch * 1.5, pitchDecay: 0.04, decay: 0.12, click: 0.2 });
}

/** A plucked or picked bass: a few harmonics through a decaying envelope, released at `seconds`. */
export function bass(
  ctx: VoiceContext,
  start: number,
  seconds: number,
  freq: number,
  vel: number,
  bright: number,
): void {
  const n = 5;
  for (let k = 1; k <= n; k++) {
    const amp = (vel * 0.6 * Math.pow(bright, k - 1)) / k;
    addPartial(ctx, start, seconds, freq * k, amp, 0.5 / Math.sqrt(k), 0.004);
  }
}

/** A long sine bass with a gentle pitch drop (808 style). */
export function subBass(ctx: VoiceContext, start: number, seconds: number, freq: number, vel: number): void {
  kick(ctx, start, vel * 0.8, {
    low: freq,
    high: freq * 1.25,
    pitchDecay: 0.03,
    decay: Math.max(0.2, seconds / 3),
    click: 0,
  });
}

/**
 * A piano-like note: slightly stretched harmonics, the higher ones dying faster, a soft hammer
 * noise; released (damped) at `seconds`.
 */
export function piano(ctx: VoiceContext, start: number, seconds: number, freq: number, vel: number): void {
  const sr = ctx.sampleRate;
  const inharm = 0.0004;
  const baseDecay = 1.6 * Math.min(1.5, 220 / freq + 0.5);
  for (let k = 1; k <= 7; k++) {
    const f = freq * k * Math.sqrt(1 + inharm * k * k);
    const amp = (vel * 0.22 * Math.pow(0.55 + 0.25 * vel, k - 1)) / k;
    addPartial(ctx, start, seconds, f, amp, baseDecay / (0.6 + 0.4 * k), 0.002);
  }
  addNoise(ctx, start, 0.03, vel * 0.04, 0.008, [new Biquad('bandpass', 2500, 0.8, sr)]);
}

/** A soft electric-organ style chord stab (no hammer), used for off-beat stabs and waltz chords. */
export function stab(
  ctx: VoiceContext,
  start: number,
  seconds: number,
  freqs: readonly number[],
  vel: number,
): void {
  for (const f of freqs) {
    addPartial(ctx, start, seconds, f, vel * 0.12, 0.35, 0.006);
    addPartial(ctx, start, seconds, f * 2, vel * 0.05, 0.25, 0.006);
    addPartial(ctx, start, seconds, f * 3, vel * 0.025, 0.15, 0.006);
  }
}

/** A slow-attack pad that adds harmony without onsets (two slightly detuned voices per note). */
export function pad(
  ctx: VoiceContext,
  start: number,
  seconds: number,
  freqs: readonly number[],
  vel: number,
): void {
  const sr = ctx.sampleRate;
  const len = Math.ceil(seconds * sr);
  const attack = 0.4 * sr;
  const release = 0.4 * sr;
  const from = Math.max(0, -start);
  const to = Math.min(len, ctx.buf.length - start);
  for (const f of freqs) {
    for (const [freq, a] of [
      [f, 1],
      [f * 1.003, 1],
      [f * 2, 0.4],
      [f * 3, 0.2],
    ] as const) {
      const w = (2 * Math.PI * freq) / sr;
      const c = Math.cos(w);
      const s = Math.sin(w);
      const amp = (0.025 * a * vel) / freqs.length;
      let x = Math.cos(w * from) * amp;
      let y = Math.sin(w * from) * amp;
      for (let i = from; i < to; i++) {
        ctx.buf[start + i]! += y * Math.min(1, i / attack, (len - i) / release);
        const nx = x * c - y * s;
        y = x * s + y * c;
        x = nx;
      }
    }
  }
}

/**
 * A sung or bowed lead line: a bright harmonic tone with a soft attack and a delayed vibrato, so its
 * notes change without sharp onsets (as a vocal does).
 */
export function lead(
  ctx: VoiceContext,
  start: number,
  seconds: number,
  freq: number,
  vel: number,
  vibratoRate: number,
): void {
  const sr = ctx.sampleRate;
  const len = Math.ceil((seconds + 0.08) * sr);
  const attack = 0.04 * sr;
  const release = 0.08 * sr;
  const hold = seconds * sr;
  const partials = Math.max(1, Math.min(8, Math.floor(5000 / freq)));
  let phase = 0;
  for (let i = 0; i < len; i++) {
    const j = start + i;
    if (j >= ctx.buf.length) break;
    const t = i / sr;
    const vib =
      1 + 0.006 * Math.min(1, Math.max(0, (t - 0.15) / 0.2)) * Math.sin(2 * Math.PI * vibratoRate * t);
    phase += (2 * Math.PI * freq * vib) / sr;
    if (j < 0) continue;
    const env = Math.min(1, i / attack) * (i > hold ? Math.max(0, 1 - (i - hold) / release) : 1);
    // sin(k·phase) by the Chebyshev recurrence: one sin and one cos per sample for all partials.
    const s1 = Math.sin(phase);
    const c2 = 2 * Math.cos(phase);
    let prev = 0;
    let cur = s1;
    let sum = 0;
    for (let k = 1; k <= partials; k++) {
      sum += cur / k;
      const next = c2 * cur - prev;
      prev = cur;
      cur = next;
    }
    ctx.buf[j]! += sum * env * vel * 0.08;
  }
}
