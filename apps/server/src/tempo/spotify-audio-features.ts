// Spotify audio-features as a tempo source, through the Spotify module's client (its budget, its
// remembered capabilities). A tempo-lookup job for a user's library uses that user's token: one
// `GET /audio-features?ids=` per 100 tracks, at the lowest priority. A development-mode app gets 403 on
// its first call; the client remembers it, and from then on no call is made (the source is 'unavailable').
import type { SpotifyAccountRepository } from '../spotify/account.repository.ts';
import { AUDIO_FEATURES_MAX_IDS, type SpotifyApi } from '../spotify/api.ts';
import type { CallContext } from '../spotify/client.ts';
import { SpotifyCapabilityMissingError } from '../spotify/errors.ts';
import { meterOfTimeSignature } from './meter.ts';
import type { AudioFeatures, SourceTempo } from './tempo.service.ts';

/** Adapts one user's Spotify API to the resolver's `audioFeatures` source (one call per 100 tracks). */
export function spotifyAudioFeatures(api: Pick<SpotifyApi, 'audioFeatures'>): AudioFeatures {
  return async (spotifyIds) => {
    const out = new Map<string, SourceTempo>();
    for (let i = 0; i < spotifyIds.length; i += AUDIO_FEATURES_MAX_IDS) {
      try {
        for (const f of await api.audioFeatures(spotifyIds.slice(i, i + AUDIO_FEATURES_MAX_IDS)))
          if (typeof f.tempo === 'number' && f.tempo > 0) {
            const meter = meterOfTimeSignature(f.time_signature);
            out.set(f.id, { bpm: f.tempo, ...(meter ? { meter } : {}) });
          }
      } catch (err) {
        if (err instanceof SpotifyCapabilityMissingError) return out.size > 0 ? out : 'unavailable';
        throw err; // deferred (budget, cooldown) or failed: the resolver notes it and asks the others
      }
    }
    return out;
  };
}

/**
 * The audio-features source for a user's tempo lookups; undefined when the user has no live Spotify
 * connection (none, or disabled), so no Spotify call is made for them.
 */
export function spotifyAudioFeaturesFor(spotify: {
  accounts: Pick<SpotifyAccountRepository, 'get'>;
  api: (ctx: CallContext) => Pick<SpotifyApi, 'audioFeatures'>;
}) {
  return async (userId: string): Promise<AudioFeatures | undefined> => {
    const account = await spotify.accounts.get(userId);
    if (!account || account.disabledReason !== null) return undefined;
    // Background work: it must never take budget from what a user is waiting for.
    return spotifyAudioFeatures(spotify.api({ userId, purpose: 'tempo', priority: 'catalog_expansion' }));
  };
}
