// Spotify audio-features as a tempo source, through the Spotify client (its budget, its remembered
// capabilities). Apps created after 2024-11-27 get 403: then the source is 'unavailable' for good
// (the client remembers it and does not call again). Not wired yet: a lookup job would need the
// user whose token pays for the calls (see the report).
import type { SpotifyApi } from '../spotify/api.ts';
import { SpotifyCapabilityMissingError } from '../spotify/errors.ts';

/** Adapts one user's Spotify API to the resolver's `audioFeatures` dependency (one call per track). */
export function spotifyAudioFeatures(api: Pick<SpotifyApi, 'audioFeatures'>) {
  return async (spotifyIds: string[]): Promise<Map<string, number> | 'unavailable'> => {
    const out = new Map<string, number>();
    for (const id of spotifyIds) {
      try {
        const f = await api.audioFeatures(id);
        if (typeof f.tempo === 'number' && f.tempo > 0) out.set(id, f.tempo);
      } catch (err) {
        if (err instanceof SpotifyCapabilityMissingError) return out.size > 0 ? out : 'unavailable';
        throw err;
      }
    }
    return out;
  };
}
