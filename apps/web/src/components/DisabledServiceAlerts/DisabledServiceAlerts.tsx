import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useSession } from '../../session/session-context.ts';
import { SudoLink } from '../../session/sudo-navigation.tsx';

/** One red alert per disabled service, with the "reconnect to it" link (spec §2). */
export function DisabledServiceAlerts() {
  const { disabled_services } = useSession();
  if (disabled_services.length === 0) return null;
  return (
    <Stack spacing={2}>
      {disabled_services.map(({ service, reason }) => (
        <Alert key={service} severity="error">
          Service &quot;{service}&quot; is in disabled state in your account. Reason: {reason}. You may try to{' '}
          <Link component={SudoLink} to={`/connect/${service}`} color="inherit">
            reconnect to it
          </Link>
          .
        </Alert>
      ))}
    </Stack>
  );
}
