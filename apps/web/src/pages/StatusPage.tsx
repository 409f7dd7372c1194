import Button from '@mui/material/Button';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Link as RouterLink } from 'react-router';
import { AboutText } from '../components/AboutText/AboutText.tsx';
import { DisabledServiceAlerts } from '../components/DisabledServiceAlerts/DisabledServiceAlerts.tsx';
import { useSession } from '../session/session-context.ts';

export const INTERNAL_ERROR_TEXT = '(Internal error occured! should not be here!)';

/** / (spec §2): the visitor's welcome, or the signed-in user's status. */
export function StatusPage() {
  const session = useSession();

  if (!session.dataReady || session.errorBackend) {
    return <Typography color="text.secondary">{INTERNAL_ERROR_TEXT}</Typography>;
  }

  if (!session.isAuthenticated) {
    return (
      <Stack spacing={{ xs: 3, sm: 4 }}>
        <Paper variant="outlined" sx={{ p: { xs: 3, sm: 5 } }}>
          <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
            <Typography variant="h1">Playlists at the tempo of your stride</Typography>
            <Typography color="text.secondary" sx={{ fontSize: '1.1rem' }}>
              One playlist per pace, built from your own music and growing as you listen.
            </Typography>
            <Button component={RouterLink} to="/login" variant="contained" size="large">
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

  // Signed in: the disabled-service alerts, the "Target playlists" and "Sources" tables, and the
  // redirect to /connect/{service} when no music service is connected arrive with the playlists
  // issue; until then the page shows only the navigation.
  return (
    <Stack spacing={3}>
      <DisabledServiceAlerts />
      <Stack
        direction="row"
        component="nav"
        aria-label="Account"
        spacing={1}
        sx={{ flexWrap: 'wrap' }}
        useFlexGap
      >
        <Button component={RouterLink} to="/logout" variant="outlined">
          Log out
        </Button>
        <Button component={RouterLink} to="/login" variant="outlined">
          Log in
        </Button>
        <Button component={RouterLink} to="/disconnect/spotify" variant="outlined">
          Disconnect Spotify
        </Button>
      </Stack>
    </Stack>
  );
}
