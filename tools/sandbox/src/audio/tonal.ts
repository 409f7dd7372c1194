// Pitched voices: bass, 808 sub, piano, organ stabs, pads and a sung lead.
import { kick } from './drums.ts';
import { addNoise, addPartial, Biquad, type VoiceContext } from './dsp.ts';

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
