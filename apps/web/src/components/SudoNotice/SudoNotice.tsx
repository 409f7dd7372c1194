import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import Button from '@mui/material/Button';
import { useSession } from '../../session/session-context.ts';
import { LeaveSudoLink } from '../../session/sudo-navigation.tsx';

/** The way out of sudo mode: the current page without `?sudo=`. */
export function LeaveSudoButton({ variant = 'outlined' }: { variant?: 'outlined' | 'contained' }) {
  return (
    <Button component={LeaveSudoLink} variant={variant} size="small" color="inherit">
      Leave sudo mode
    </Button>
  );
}

/**
 * Above every page while an admin views as another user (spec §6): who is being viewed, and the way
 * back to their own account.
 */
export function SudoBanner() {
  const { sudo, sudoRefused, isAuthenticated, user } = useSession();
  if (!sudo || sudoRefused || !isAuthenticated || !user) return null;
  const who = user.name ? `${user.name} (${user.email})` : user.email;
  return (
    <Alert
      severity="info"
      role="status"
      aria-label="Sudo mode"
      sx={{ mb: 3, alignItems: 'center' }}
      action={<LeaveSudoButton />}
    >
      Viewing as {who}. Connect and disconnect are off in this mode.
    </Alert>
  );
}

/** Instead of the page when the server refused `?sudo=` (spec walk-through: say so, offer the way out). */
export function SudoRefused() {
  const { sudo, sudoRefused } = useSession();
  return (
    <Alert severity="error" sx={{ alignItems: 'flex-start' }}>
      <AlertTitle>You cannot view Pacebeat as &quot;{sudo}&quot;</AlertTitle>
      <p style={{ marginTop: 0 }}>{sudoRefused}</p>
      <LeaveSudoButton variant="contained" />
    </Alert>
  );
}
