import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import { useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { queryKeys } from '../api/query-keys.ts';
import { accountCalls } from '../session/account-calls.ts';
import { useSession } from '../session/session-context.ts';
import { useSudoNavigate } from '../session/sudo-navigation.tsx';
import { useDelayedFlag } from '../session/use-delayed-flag.ts';
import { LOGIN_TEXTS } from './login-texts.ts';
import { RETRY_AFTER_ERROR_MS, STILL_LOADING_AFTER_MS } from '../timing.ts';

/**
 * /logout (spec §2, §4): ends the session (GET /api/logout), then marks the user signed out, requests
 * a refresh and goes to /. After 1 s a still-working notice; a failure shows the error view and retries after 10 s.
 */
export function LogoutPage() {
  const { api, markUnauthenticated, requestRefresh } = useSession();
  const navigate = useSudoNavigate();
  const logout = useQuery({
    queryKey: queryKeys.logout,
    queryFn: () => accountCalls(api).logout(),
    retry: false,
    gcTime: 0,
    refetchInterval: (query) => (query.state.status === 'error' ? RETRY_AFTER_ERROR_MS : false),
  });
  const stillWorking = useDelayedFlag(logout.isPending, STILL_LOADING_AFTER_MS);

  useEffect(() => {
    if (!logout.isSuccess) return;
    markUnauthenticated();
    requestRefresh();
    void navigate('/', { replace: true });
  }, [logout.isSuccess, markUnauthenticated, requestRefresh, navigate]);
  useEffect(() => {
    if (logout.error) console.error('GET /api/logout failed:', logout.error);
  }, [logout.error]);

  if (logout.isError) return <Alert severity="error">{LOGIN_TEXTS.error}</Alert>;
  if (stillWorking) return <Typography>{LOGIN_TEXTS.stillLoggingOut}</Typography>;
  return null;
}
