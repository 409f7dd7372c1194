import { describe, expect, it } from 'vitest';
import { PATTERNS, synthesizeClip } from './synth.ts';

/** Autocorrelation of the clip's 10 ms energy envelope at the given lags (seconds), normalised. */
function envelopeAcf(pcm: Float32Array, sampleRate: number, lags: number[]): number[] {
  const hop = Math.round(sampleRate / 100);
  const env: number[] = [];
  for (let i = 0; i + hop <= pcm.length; i += hop) {
    let s = 0;
    for (let j = i; j < i + hop; j++) s += (pcm[j] as number) ** 2;
    env.push(Math.log(1e-6 + s));
  }
  const diff = env.slice(1).map((v, i) => Math.max(0, v - (env[i] as number)));
  const mean = diff.reduce((a, b) => a + b, 0) / diff.length;
  const x = diff.map((v) => v - mean);
  const at = (lag: number) => {
    let s = 0;
    for (let i = 0; i + lag < x.length; i++) s += (x[i] as number) * (x[i + lag] as number);
    return s / (x.length - lag);
  };
  const zero = at(0);
  return lags.map((l) => at(Math.round(l * 100)) / zero);
}

describe('synthesizeClip', () => {
  it('is deterministic in the seed and differs between seeds', () => {
    const a = synthesizeClip({ bpm: 128, pattern: 'backbeat', seconds: 4, seed: 7 });
    const b = synthesizeClip({ bpm: 128, pattern: 'backbeat', seconds: 4, seed: 7 });
    const c = synthesizeClip({ bpm: 128, pattern: 'backbeat', seconds: 4, seed: 8 });
    expect(Buffer.from(a.buffer).equals(Buffer.from(b.buffer))).toBe(true);
    expect(Buffer.from(a.buffer).equals(Buffer.from(c.buffer))).toBe(false);
  });

  it.each(PATTERNS)('%s gives a full-length, audible clip within [-1, 1]', (pattern) => {
    const pcm = synthesizeClip({
      bpm: 100,
      pattern,
      seconds: 6,
      sampleRate: 22050,
      seed: 3,
      noise: 0.05,
      reverb: 0.3,
    });
    expect(pcm.length).toBe(6 * 22050);
    let peak = 0;
    let energy = 0;
    for (const v of pcm) {
      peak = Math.max(peak, Math.abs(v));
      energy += v * v;
    }
    expect(peak).toBeLessThanOrEqual(1);
    expect(peak).toBeGreaterThan(0.5);
    expect(Math.sqrt(energy / pcm.length)).toBeGreaterThan(0.02);
  });

  it('puts its onsets on the beat grid of the requested tempo', () => {
    // 120 BPM: a beat every 0.5 s. The envelope must repeat at the beat, not at a dotted eighth.
    const pcm = synthesizeClip({
      bpm: 120,
      pattern: 'four-on-the-floor',
      seconds: 12,
      seed: 11,
      humanizeMs: 0,
    });
    const [beat, dotted] = envelopeAcf(pcm, 44100, [0.5, 0.375]);
    expect(beat).toBeGreaterThan(0.3);
    expect(beat).toBeGreaterThan((dotted as number) + 0.2);
  });

  it('applies drift, humanising, noise and reverb', () => {
    const base = { bpm: 140, pattern: 'swing' as const, seconds: 3, seed: 5 };
    const plain = synthesizeClip({ ...base, humanizeMs: 0, driftPct: 0, noise: 0, reverb: 0 });
    for (const extra of [{ humanizeMs: 15 }, { driftPct: 2 }, { noise: 0.2 }, { reverb: 0.5 }]) {
      const varied = synthesizeClip({ ...base, humanizeMs: 0, driftPct: 0, noise: 0, reverb: 0, ...extra });
      expect(Buffer.from(varied.buffer).equals(Buffer.from(plain.buffer))).toBe(false);
    }
  });

  it('rejects a bad tempo or pattern', () => {
    expect(() => synthesizeClip({ bpm: 0, pattern: 'waltz', seed: 1 })).toThrow(RangeError);
    expect(() => synthesizeClip({ bpm: 120, pattern: 'polka' as never, seed: 1 })).toThrow(RangeError);
  });
});
