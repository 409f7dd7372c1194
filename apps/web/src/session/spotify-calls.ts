// Connecting and disconnecting Spotify (spec §7): the connect and disconnect pages' server calls.
import type {
  SpotifyConnectDataReply,
  SpotifyConnectReply,
  SpotifyDisconnectReply,
} from '@pacebeat/contract';
import { typed, type ApiClient } from '../api/client.ts';

export const spotifyCalls = (api: ApiClient) => ({
  /** The authorize URL and PKCE data; the page names its own address (a dev proxy may rewrite Host). */
  connectData: (pageOrigin: string) =>
    api.get(
      `spotify/connect_data?page_origin=${encodeURIComponent(pageOrigin)}`,
      typed<SpotifyConnectDataReply>(),
    ),
  connect: (tokenInfo: unknown) =>
    api.put('spotify/connect', { token_info: tokenInfo }, typed<SpotifyConnectReply>()),
  disconnect: () => api.put('spotify/disconnect', undefined, typed<SpotifyDisconnectReply>()),
});
