// Building blocks of the synthesiser's voices: a biquad filter, decaying sine partials and filtered
// noise bursts, each added into a mono buffer at a sample offset (which may be negative: a note that
// began before the clip starts rings into it). Noise comes from the caller's seeded generator.
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

export function span(ctx: VoiceContext, start: number, seconds: number): { from: number; to: number } {
  const len = Math.ceil(seconds * ctx.sampleRate);
  return { from: Math.max(0, -start), to: Math.min(len, ctx.buf.length - start) };
}

/**
 * A decaying sine partial computed with a rotating phasor (no Math.sin per sample), with a short
 * linear attack.
 */
export function addPartial(
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

export function addNoise(
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
