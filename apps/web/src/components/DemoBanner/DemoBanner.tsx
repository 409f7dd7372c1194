import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import { useSession } from '../../session/session-context.ts';
import { SudoLink } from '../../session/sudo-navigation.tsx';
import { SETUP_PAGE } from '../../setup/setup-texts.ts';
import { SPOTIFY_TEXTS } from '../../spotify/texts.ts';

/**
 * Shown above every page while the server runs against its simulated Spotify (no client id set). The
 * admin, as themselves, finds the setup page here; no one else sees the link.
 */
export function DemoBanner() {
  const { services, user, sudo } = useSession();
  if (!Object.values(services).some((s) => s.demo)) return null;
  const admin = Boolean(user?.is_admin) && !sudo;
  return (
    <Alert
      severity="info"
      variant="outlined"
      role="status"
      aria-label="Demo mode"
      sx={{ mb: { xs: 2, sm: 3 }, py: 0, '& .MuiAlert-message': { py: 0.75 } }}
    >
      {SPOTIFY_TEXTS.demoBanner}
      {admin && (
        <>
          {' '}
          <Link component={SudoLink} to="/setup/spotify">
            {SETUP_PAGE.bannerLink}
          </Link>
        </>
      )}
    </Alert>
  );
}
