import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { lazy, Suspense } from 'react';
import { useSearchParams } from 'react-router';
import { AboutText } from '../components/AboutText/AboutText.tsx';
import { StillLoading } from '../components/StillLoading/StillLoading.tsx';
import { useSession } from '../session/session-context.ts';
import { SudoLink, SudoNavigate } from '../session/sudo-navigation.tsx';
import { useDelayedFlag } from '../session/use-delayed-flag.ts';
import { MUSIC_SERVICE } from '../session/user-status.ts';
import { STATUS_TEXTS } from '../status/status-format.ts';
import { STILL_LOADING_AFTER_MS } from '../timing.ts';

export const INTERNAL_ERROR_TEXT = STATUS_TEXTS.internalError;

const SignedInStatus = lazy(() => import('./SignedInStatus.tsx'));

/** The still-loading indicator, once 1 s has passed (spec §2, §4). */
function DelayedLoading() {
  return useDelayedFlag(true, STILL_LOADING_AFTER_MS) ? (
    <StillLoading text={STATUS_TEXTS.stillLoading} />
  ) : null;
}

function VisitorWelcome() {
  return (
    <Stack spacing={{ xs: 3, sm: 4 }}>
      <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 } }}>
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Typography variant="h1">Playlists at the tempo of your stride</Typography>
          <Typography color="text.secondary" sx={{ fontSize: '1.1rem' }}>
            One playlist per pace, built from your own music and growing as you listen.
          </Typography>
          <Button component={SudoLink} to="/login" variant="contained" size="large">
            Log in or register
          </Button>
        </Stack>
      </Paper>
      <Stack spacing={2}>
        <Typography variant="h2">About Pacebeat</Typography>
        <AboutText />
      </Stack>
    </Stack>
  );
}

/**
 * / (spec §2): the visitor's welcome, or the signed-in user's status. A user without a connected
 * music service is sent to /connect/{service}. While the user status loads, nothing for 1 s, then the
 * still-loading indicator; a backend error shows the spec's internal-error text.
 */
export function StatusPage() {
  const session = useSession();
  const [params] = useSearchParams();
  if (!session.dataReady) return <DelayedLoading />;
  if (session.errorBackend) {
    return <Typography color="text.secondary">{INTERNAL_ERROR_TEXT}</Typography>;
  }
  if (!session.isAuthenticated) return <VisitorWelcome />;
  if (!session.services[MUSIC_SERVICE]?.connected) {
    // Just connected (Proceed goes to /?refresh): the session read before the connect says "not connected"
    // until the re-read answers; sending the runner back to /connect/spotify now would be wrong.
    if (session.refresh || params.has('refresh')) return <DelayedLoading />;
    return <SudoNavigate to={`/connect/${MUSIC_SERVICE}`} />;
  }
  return (
    <Suspense fallback={<DelayedLoading />}>
      <SignedInStatus />
    </Suspense>
  );
}
