import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { LOGIN_TEXTS } from '../../pages/login-texts.ts';

/** The sub-states of the email-verification view (spec §2, §4). */
export type VerificationState = 'SENDING' | 'SENT' | 'TOO_MANY' | 'FAILED';

const TEXT: Record<VerificationState, string> = {
  SENDING: LOGIN_TEXTS.sending,
  SENT: LOGIN_TEXTS.sent,
  TOO_MANY: LOGIN_TEXTS.tooMany,
  FAILED: LOGIN_TEXTS.sendFailed,
};

export function EmailVerificationView({ state, onBack }: { state: VerificationState; onBack: () => void }) {
  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
      <Typography variant="h2">{LOGIN_TEXTS.verifyHeading}</Typography>
      <Alert severity={state === 'SENT' ? 'success' : state === 'SENDING' ? 'info' : 'warning'} role="status">
        {TEXT[state]}
      </Alert>
      <Button variant="outlined" onClick={onBack}>
        {LOGIN_TEXTS.backToLogin}
      </Button>
    </Stack>
  );
}
