// Drum voices: kick, snare, clap, hats, ride, crash, toms.
import { addNoise, addPartial, Biquad, type VoiceContext } from './dsp.ts';

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
