import { describe, expect, it } from 'vitest';
import { SpotifyCapabilityMissingError, SpotifyDeferredError } from '../spotify/errors.ts';
import { spotifyAudioFeatures, spotifyAudioFeaturesFor } from './spotify-audio-features.ts';

describe('spotifyAudioFeatures', () => {
  it('asks once per 100 tracks, maps tempos by track id and skips tracks without one', async () => {
    const batches: number[] = [];
    const af = spotifyAudioFeatures({
      audioFeatures: async (ids: string[]) => {
        batches.push(ids.length);
        return ids.map((id) => ({ id, tempo: id === 't1' ? null : id === 't2' ? 0 : 170 }));
      },
    });
    const ids = Array.from({ length: 250 }, (_, i) => `t${i}`);
    const got = await af(ids);
    expect(batches).toEqual([100, 100, 50]);
    expect(got).toBeInstanceOf(Map);
    expect((got as Map<string, number>).size).toBe(248);
    expect((got as Map<string, number>).get('t0')).toBe(170);
    expect((got as Map<string, number>).has('t1')).toBe(false);
  });

  it('answers "unavailable" when the app lost audio-features (403 remembered by the client)', async () => {
    let calls = 0;
    const af = spotifyAudioFeatures({
      audioFeatures: async () => {
        calls++;
        throw new SpotifyCapabilityMissingError('audio-features', '403');
      },
    });
    expect(await af(Array.from({ length: 150 }, (_, i) => `t${i}`))).toBe('unavailable');
    expect(calls).toBe(1);
  });

  it('stops at the first deferral and lets the resolver note it', async () => {
    let calls = 0;
    const af = spotifyAudioFeatures({
      audioFeatures: async () => {
        calls++;
        throw new SpotifyDeferredError('quota', new Date());
      },
    });
    await expect(af(Array.from({ length: 150 }, (_, i) => `t${i}`))).rejects.toBeInstanceOf(
      SpotifyDeferredError,
    );
    expect(calls).toBe(1);
  });
});

describe('spotifyAudioFeaturesFor', () => {
  const accounts = {
    get: async (userId: string) =>
      ({ live: { disabledReason: null }, off: { disabledReason: 'revoked' } })[userId] as never,
  };
  it('uses the user’s live connection at the lowest priority, and nothing otherwise', async () => {
    const contexts: unknown[] = [];
    const api = (ctx: unknown) => {
      contexts.push(ctx);
      return { audioFeatures: async () => [] };
    };
    const forUser = spotifyAudioFeaturesFor({ accounts, api });
    expect(await forUser('live')).toBeTypeOf('function');
    expect(contexts).toEqual([{ userId: 'live', purpose: 'tempo', priority: 'catalog_expansion' }]);
    expect(await forUser('off')).toBeUndefined();
    expect(await forUser('none')).toBeUndefined();
    expect(contexts).toHaveLength(1);
  });
});
