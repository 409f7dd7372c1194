import Alert from '@mui/material/Alert';
import { useSession } from '../../session/session-context.ts';

/** When the call budget is spent or Spotify asked us to wait, says when Spotify work resumes. */
export function SpotifyPausedNotice() {
  const { services } = useSession();
  const resumes = services['spotify']?.work_resumes_at;
  if (!resumes) return null;
  const at = new Date(resumes * 1000);
  return (
    <Alert severity="warning" variant="outlined" sx={{ mb: 3 }} role="status" aria-label="Spotify paused">
      Spotify asked Pacebeat to slow down: scans and playlist updates resume at{' '}
      {at.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' })}.
    </Alert>
  );
}
