import { describe, expect, it } from 'vitest';
import { encodeMp3 } from '@pacebeat/sandbox/audio/mp3';
import { synthesizeClip } from '@pacebeat/sandbox/audio/synth';
import { decodePreview, PreviewDecodeError } from './decode.ts';

const mp3 = encodeMp3(synthesizeClip({ bpm: 120, pattern: 'backbeat', seed: 9, seconds: 4 }), 44100, 128);

describe('decodePreview', () => {
  it('decodes an MP3 to mono PCM at its sample rate', async () => {
    const { pcm, sampleRate } = await decodePreview(mp3);
    expect(sampleRate).toBe(44100);
    expect(pcm.length / sampleRate).toBeGreaterThan(3.9);
    expect(pcm.length / sampleRate).toBeLessThan(4.2);
    expect(pcm.some((v) => Math.abs(v) > 0.1)).toBe(true);
  });

  it('rejects bytes that are not an MP3 with a PreviewDecodeError', async () => {
    const junk = new Uint8Array(20_000).map((_, i) => (i * 131 + 7) % 256);
    await expect(decodePreview(junk)).rejects.toBeInstanceOf(PreviewDecodeError);
  });

  it('rejects an empty body and a preview cut off after a few frames', async () => {
    await expect(decodePreview(new Uint8Array(0))).rejects.toThrow(/empty/);
    await expect(decodePreview(mp3.subarray(0, 600))).rejects.toBeInstanceOf(PreviewDecodeError);
  });
});
