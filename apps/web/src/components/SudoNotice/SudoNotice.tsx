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
  const who = user.name ? (
    <>
      <bdi>{user.name}</bdi> (<bdi>{user.email}</bdi>)
    </>
  ) : (
    <bdi>{user.email}</bdi>
  );
  return (
    <Alert
      severity="info"
      role="status"
      aria-label="Sudo mode"
      // At 360 px a long address wraps, and "Leave sudo mode" goes below the text instead of clipping it.
      sx={{
        mb: 3,
        alignItems: 'center',
        flexWrap: 'wrap',
        '& .MuiAlert-message': { minWidth: 0, flex: '1 1 12rem', overflowWrap: 'anywhere' },
        '& .MuiAlert-action': { ml: { xs: 0, sm: 'auto' }, pl: { xs: 4.5, sm: 2 } },
      }}
      action={<LeaveSudoButton />}
    >
      Viewing as {who}. Read-only: nothing can be changed in this mode.
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
