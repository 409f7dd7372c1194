// The setup page's calls: which Spotify is in force, saving a client id, and the checks.
// Admins only: the server refuses everyone else (and sudo mode), so the page asks only for an admin.
import type { SetupAccountCheckBody, SpotifyAppBody } from '@pacebeat/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { ApiClient } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { useSession } from '../session/session-context.ts';

/** The calls themselves (the check window's page uses `checkAccount` outside React Query). */
export const setupCalls = (api: ApiClient) => ({
  state: () => api.call('setup.spotifyApp'),
  save: (body: SpotifyAppBody) => api.call('setup.saveSpotifyApp', { body }),
  checkRedirects: () => api.call('setup.checkRedirects', { body: {} }),
  checkAccount: (body: SetupAccountCheckBody) => api.call('setup.checkAccount', { body }),
});

/** True for the signed-in admin acting as themselves: the only one who sees the setup page. */
export function useIsSetupAdmin(): boolean {
  const { user, sudo } = useSession();
  return Boolean(user?.is_admin) && !sudo;
}

export function useSpotifyAppSetup() {
  const { api } = useSession();
  const admin = useIsSetupAdmin();
  return useQuery({
    queryKey: queryKeys.setup.spotifyApp,
    queryFn: () => setupCalls(api).state(),
    enabled: admin,
  });
}

export function useSetupWrites() {
  const { api, requestRefresh } = useSession();
  const client = useQueryClient();
  return {
    save: useMutation({
      mutationFn: (body: SpotifyAppBody) => setupCalls(api).save(body),
      onSuccess: (reply) => {
        client.setQueryData(queryKeys.setup.spotifyApp, { data: { ...reply.data } });
        // The banner and the status page follow: whoami says demo or not, and who is connected.
        requestRefresh();
        void client.invalidateQueries({ queryKey: ['spotify'] });
        // The tempo services follow the Spotify in force (demo mode's simulated GetSongBPM has a key).
        void client.invalidateQueries({ queryKey: queryKeys.tempoCredits });
      },
    }),
    checkRedirects: useMutation({ mutationFn: () => setupCalls(api).checkRedirects() }),
  };
}
