// Connecting and disconnecting Spotify (spec §7): the connect and disconnect pages' server calls.
import type { SpotifyTokenInfo } from '@pacebeat/contract';
import { useQuery } from '@tanstack/react-query';
import type { ApiClient } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { useSession } from '../session/session-context.ts';

export const spotifyCalls = (api: ApiClient) => ({
  /** The authorize URL and PKCE data; the page names its own address (a dev proxy may rewrite Host). */
  connectData: (pageOrigin: string) =>
    api.call('spotify.connectData', { query: { page_origin: pageOrigin } }),
  /** The token reply as the browser received it from Spotify: the server checks it (SpotifyTokenInfo). */
  connect: (tokenInfo: unknown) =>
    api.call('spotify.connect', { body: { token_info: tokenInfo as SpotifyTokenInfo } }),
  disconnect: () => api.call('spotify.disconnect'),
});

/** What the connect page needs to start the PKCE flow, read at the address the page is open at. */
export function useConnectData(enabled: boolean) {
  const { api, sudo } = useSession();
  return useQuery({
    queryKey: queryKeys.spotify.connectData(sudo),
    // The page names its own address: a dev server's proxy may rewrite the Host header on the way.
    queryFn: () => spotifyCalls(api).connectData(window.location.origin),
    enabled,
  });
}
