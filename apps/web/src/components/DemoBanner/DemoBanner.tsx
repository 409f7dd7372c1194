import Alert from '@mui/material/Alert';
import { useSession } from '../../session/session-context.ts';
import { SPOTIFY_TEXTS } from '../../spotify/texts.ts';

/** Shown above every page while the server runs against its simulated Spotify (no client id set). */
export function DemoBanner() {
  const { services } = useSession();
  if (!Object.values(services).some((s) => s.demo)) return null;
  return (
    <Alert
      severity="info"
      variant="outlined"
      role="status"
      aria-label="Demo mode"
      sx={{ mb: { xs: 2, sm: 3 }, py: 0, '& .MuiAlert-message': { py: 0.75 } }}
    >
      {SPOTIFY_TEXTS.demoBanner}
    </Alert>
  );
}
