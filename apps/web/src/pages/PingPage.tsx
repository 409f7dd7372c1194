import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import { useEffect } from 'react';
import { usePing } from '../session/session-queries.ts';
import { useSession } from '../session/session-context.ts';
import { SudoLink } from '../session/sudo-navigation.tsx';

/**
 * /ping (spec §2): a button labelled with the ping message; clicking it pings again. Ping answers only
 * signed-in users, so a visitor is told so (and offered the way in) instead of a button without a label.
 */
export function PingPage() {
  const { dataReady, isAuthenticated } = useSession();
  const ping = usePing(isAuthenticated);

  useEffect(() => {
    // Spec §8: a ping failure is only logged.
    if (ping.error) console.error('GET /api/ping failed:', ping.error);
  }, [ping.error]);

  if (!dataReady) return null;
  if (!isAuthenticated) {
    return (
      <Alert
        severity="info"
        action={
          <Button component={SudoLink} to="/login" color="inherit" size="small">
            Log in
          </Button>
        }
      >
        Ping answers signed-in users only: log in first.
      </Alert>
    );
  }
  return (
    <Button variant="contained" onClick={() => void ping.refetch()} disabled={ping.isFetching}>
      {ping.data?.message ?? '…'}
    </Button>
  );
}
