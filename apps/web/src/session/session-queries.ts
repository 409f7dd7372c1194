// The session feature's server calls (spec §7 and the local-account extras): every page and component
// that signs in, signs up, logs out, pings or reads the user status goes through these.
import { useQuery } from '@tanstack/react-query';
import { isApiError, type ApiClient } from '../api/client.ts';
import { queryKeys } from '../api/query-keys.ts';
import { RETRY_AFTER_ERROR_MS } from '../timing.ts';
import { useSession } from './session-context.ts';
import { VISITOR, type WhoamiData } from './user-status.ts';

/** The time zone the server formats a runner's times in. */
const timeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;

export const accountCalls = (api: ApiClient) => ({
  loginData: (invitation?: string) =>
    api.call('loginData', {
      body: { kinds: ['firebase', 'local'], ...(invitation ? { invitation } : {}) },
    }),
  whoami: () => api.call('whoami'),
  loginWithFirebase: (token: string, invitation?: string) =>
    api.call('login', {
      body: { provider: 'firebase', token, time_zone: timeZone(), ...(invitation ? { invitation } : {}) },
    }),
  loginLocal: (email: string, password: string) =>
    api.call('login', { body: { provider: 'local', email, password, time_zone: timeZone() } }),
  signup: (email: string, name: string, password: string, invitation?: string) =>
    api.call('signup', {
      body: { email, name, password, time_zone: timeZone(), ...(invitation ? { invitation } : {}) },
    }),
  sendVerification: (email: string, password: string) =>
    api.call('sendVerification', { body: { email, password } }),
  verifyEmail: (code: string) => api.call('verifyEmail', { body: { code } }),
  passwordReset: (email: string) => api.call('passwordReset', { body: { email } }),
  confirmPasswordReset: (code: string, password: string) =>
    api.call('passwordReset.confirm', { body: { code, password } }),
  logout: () => api.call('logout.get'),
  ping: () => api.call('ping'),
});

/** GET /api/whoami; a 401 is not a failure but the answer "visitor". */
export async function readWhoami(api: ApiClient): Promise<WhoamiData> {
  try {
    return (await api.call('whoami')).data;
  } catch (error) {
    if (isApiError(error) && error.status === 401) return VISITOR;
    throw error;
  }
}

/**
 * Which sign-in providers the login page offers, who may sign up, and whether the page's invitation link
 * works (read again 10 s after a failure).
 */
export function useLoginData(enabled: boolean, invitation?: string) {
  const { api } = useSession();
  return useQuery({
    queryKey: [...queryKeys.loginData, invitation ?? null],
    enabled,
    queryFn: () => accountCalls(api).loginData(invitation),
    retry: false,
    refetchInterval: (query) => (query.state.status === 'error' ? RETRY_AFTER_ERROR_MS : false),
  });
}

/** Ends the session as the logout page opens (GET /api/logout), trying again 10 s after a failure. */
export function useLogout() {
  const { api } = useSession();
  return useQuery({
    queryKey: queryKeys.logout,
    queryFn: () => accountCalls(api).logout(),
    retry: false,
    gcTime: 0,
    refetchInterval: (query) => (query.state.status === 'error' ? RETRY_AFTER_ERROR_MS : false),
  });
}

/** GET /api/ping, for a signed-in user only. */
export function usePing(enabled: boolean) {
  const { api, sudo } = useSession();
  return useQuery({
    queryKey: queryKeys.ping(sudo),
    queryFn: () => accountCalls(api).ping(),
    retry: false,
    enabled,
  });
}
