import Alert from '@mui/material/Alert';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useLogout } from '../session/session-queries.ts';
import { useSession } from '../session/session-context.ts';
import { useSudoNavigate } from '../session/sudo-navigation.tsx';
import { useDelayedFlag } from '../session/use-delayed-flag.ts';
import { LOGIN_TEXTS } from './login-texts.ts';
import { STILL_LOADING_AFTER_MS } from '../timing.ts';

/**
 * /logout (spec §2, §4): ends the session (GET /api/logout), then marks the user signed out, requests
 * a refresh and goes to /. After 1 s a still-working notice; a failure shows the error view and retries after 10 s.
 */
export function LogoutPage() {
  const { markUnauthenticated, requestRefresh } = useSession();
  const navigate = useSudoNavigate();
  const logout = useLogout();
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
