import { describe, expect, it } from 'vitest';
import { SpotifyCapabilityMissingError, SpotifyDeferredError } from '../spotify/errors.ts';
import { spotifyAudioFeatures, spotifyAudioFeaturesFor } from './spotify-audio-features.ts';
import type { SourceTempo } from './tempo.service.ts';

describe('spotifyAudioFeatures', () => {
  it('asks once per 100 tracks, maps tempos and time signatures by track id and skips tracks without a tempo', async () => {
    const batches: number[] = [];
    const af = spotifyAudioFeatures({
      audioFeatures: async (ids: string[]) => {
        batches.push(ids.length);
        return ids.map((id) => ({
          id,
          tempo: id === 't1' ? null : id === 't2' ? 0 : 170,
          time_signature: id === 't3' ? 3 : id === 't4' ? 4 : id === 't5' ? 6 : id === 't6' ? 1 : undefined,
        }));
      },
    });
    const ids = Array.from({ length: 250 }, (_, i) => `t${i}`);
    const got = await af(ids);
    expect(batches).toEqual([100, 100, 50]);
    expect(got).toBeInstanceOf(Map);
    const map = got as Map<string, SourceTempo>;
    expect(map.size).toBe(248);
    expect(map.get('t0')).toEqual({ bpm: 170 });
    expect(map.has('t1')).toBe(false);
    // time_signature is beats a bar (3 to 7): 3 is 3/4, 6 a 6/8; 1 (Spotify's "unclear") is no meter.
    expect(map.get('t3')).toEqual({ bpm: 170, meter: '3/4' });
    expect(map.get('t4')).toEqual({ bpm: 170, meter: '4/4' });
    expect(map.get('t5')).toEqual({ bpm: 170, meter: '6/8' });
    expect(map.get('t6')).toEqual({ bpm: 170 });
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
