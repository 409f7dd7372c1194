import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useSession } from '../../session/session-context.ts';
import { SudoLink } from '../../session/sudo-navigation.tsx';

type DisabledServiceAlertProps = {
  service: string;
  reason: string;
  /** On the connect page itself the link restarts the flow instead of navigating to the same page. */
  onReconnect?: () => void;
};

/** The spec's red alert for a disabled service (spec §2), with its "reconnect to it" link. */
export function DisabledServiceAlert({ service, reason, onReconnect }: DisabledServiceAlertProps) {
  // The reason is a sentence of its own; the spec's template adds the full stop.
  const why = reason.trim().replace(/\.$/, '');
  return (
    <Alert severity="error">
      Service &quot;{service}&quot; is in disabled state in your account. Reason: {why}. You may try to{' '}
      {onReconnect ? (
        <Link component="button" onClick={onReconnect} color="inherit" sx={{ verticalAlign: 'baseline' }}>
          reconnect to it
        </Link>
      ) : (
        <Link component={SudoLink} to={`/connect/${service}`} color="inherit">
          reconnect to it
        </Link>
      )}
      .
    </Alert>
  );
}

/** One red alert per disabled service of the signed-in user (spec §2). */
export function DisabledServiceAlerts() {
  const { disabled_services } = useSession();
  if (disabled_services.length === 0) return null;
  return (
    <Stack spacing={2}>
      {disabled_services.map(({ service, reason }) => (
        <DisabledServiceAlert key={service} service={service} reason={reason} />
      ))}
    </Stack>
  );
}
