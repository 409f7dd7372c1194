import { describe, expect, it } from 'vitest';
import { decodeMp3, encodeMp3 } from './mp3.ts';
import { synthesizeClip } from './synth.ts';

describe('encodeMp3 / decodeMp3', () => {
  it('round-trips a clip with its length, rate and waveform', async () => {
    const pcm = synthesizeClip({ bpm: 124, pattern: 'four-on-the-floor', seconds: 3, seed: 2 });
    const mp3 = encodeMp3(pcm, 44100, 128);
    // 128 kbit/s for 3 s is about 48 kB; the file starts with an MPEG frame sync.
    expect(mp3.length).toBeGreaterThan(40_000);
    expect(mp3.length).toBeLessThan(56_000);
    expect(mp3[0]).toBe(0xff);
    expect((mp3[1] as number) & 0xe0).toBe(0xe0);

    const out = await decodeMp3(mp3);
    expect(out.sampleRate).toBe(44100);
    expect(Math.abs(out.pcm.length - pcm.length)).toBeLessThan(4 * 1152);
    // Find the codec delay, then the waveforms must match closely.
    let best = -1;
    for (let lag = 0; lag < 3000; lag++) {
      let sxy = 0;
      let sxx = 0;
      let syy = 0;
      for (let i = 10_000; i < 60_000; i += 3) {
        const x = pcm[i] as number;
        const y = out.pcm[i + lag] as number;
        sxy += x * y;
        sxx += x * x;
        syy += y * y;
      }
      best = Math.max(best, sxy / Math.sqrt(sxx * syy));
    }
    expect(best).toBeGreaterThan(0.95);
  });

  it('rejects bytes that hold no MPEG audio', async () => {
    const junk = new Uint8Array(5000).map((_, i) => (i * 37) % 251);
    await expect(decodeMp3(junk)).rejects.toThrow(/no MPEG audio/);
  });
});
