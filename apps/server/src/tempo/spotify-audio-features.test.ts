import { describe, expect, it } from 'vitest';
import { SpotifyCapabilityMissingError } from '../spotify/errors.ts';
import { spotifyAudioFeatures } from './spotify-audio-features.ts';

describe('spotifyAudioFeatures', () => {
  it('maps tempos by track id and skips tracks without one', async () => {
    const tempos: Record<string, number | null> = { a: 171.2, b: null, c: 88 };
    const af = spotifyAudioFeatures({ audioFeatures: async (id: string) => ({ tempo: tempos[id] ?? null }) });
    expect(await af(['a', 'b', 'c'])).toEqual(
      new Map([
        ['a', 171.2],
        ['c', 88],
      ]),
    );
  });

  it('answers "unavailable" when the app lost audio-features (403 remembered by the client)', async () => {
    let calls = 0;
    const af = spotifyAudioFeatures({
      audioFeatures: async () => {
        calls++;
        throw new SpotifyCapabilityMissingError('audio-features', '403');
      },
    });
    expect(await af(['a', 'b'])).toBe('unavailable');
    expect(calls).toBe(1);
  });
});
