import Alert from '@mui/material/Alert';
import { useSession } from '../../session/session-context.ts';
import { SPOTIFY_TEXTS } from '../../spotify/texts.ts';

/** Shown above every page while the server runs against its simulated Spotify (no client id set). */
export function DemoBanner() {
  const { services } = useSession();
  if (!Object.values(services).some((s) => s.demo)) return null;
  return (
    <Alert severity="info" variant="outlined" sx={{ mb: 3 }} role="status" aria-label="Demo mode">
      {SPOTIFY_TEXTS.demoBanner}
    </Alert>
  );
}
