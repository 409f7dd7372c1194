import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { isApiError } from '../api/client.ts';
import { plainMessage } from '../api/plain-message.ts';
import { useSession } from '../session/session-context.ts';
import { announceResult, clearPendingCheck, readPendingCheck, type CheckResult } from './check-window.ts';
import { setupCalls } from './setup-queries.ts';
import { SETUP_PAGE as T } from './setup-texts.ts';

/** Checks already handed to the server (a code works once; React may run an effect twice). */
const handled = new Set<string>();

/**
 * The connect page in the setup check's window: Spotify sent it back here, so it accepted the
 * redirect URI. The code goes to the server (POST check_account), which asks Spotify about the account;
 * the outcome shows here and on the setup page.
 */
export function SetupCheckReturn(props: {
  code: string | null;
  error: string | null;
  state: string;
  description: string | null;
}) {
  const { api, dataReady } = useSession();
  const [params, setParams] = useSearchParams();
  // Read once: the check this window answers (started from the setup page of this browser).
  const [pending] = useState(() => readPendingCheck(props.state));
  // Spotify sent the window back without a code: refused or cancelled, nothing to ask the server.
  const [refusal] = useState<CheckResult | null>(() =>
    props.error !== null || props.code === null
      ? {
          ok: false,
          problem: props.error === 'access_denied' ? 'denied' : 'refused',
          explanation: props.error === 'access_denied' ? T.denied : T.otherError,
          spotify_says: props.description ?? props.error,
          account: null,
        }
      : null,
  );
  const [answer, setAnswer] = useState<CheckResult | null>(null);

  // The code and state leave the URL at once.
  useEffect(() => {
    if (params.size > 0) setParams(new URLSearchParams(), { replace: true });
  }, [params, setParams]);

  useEffect(() => {
    if (!pending || !dataReady || handled.has(props.state)) return;
    handled.add(props.state);
    clearPendingCheck();
    if (refusal || props.code === null) {
      if (refusal) announceResult(refusal);
      return;
    }
    const finish = (r: CheckResult) => {
      announceResult(r);
      setAnswer(r);
    };
    setupCalls(api)
      .checkAccount({ code: props.code, code_verifier: pending.verifier, redirect_uri: pending.redirect_uri })
      .then(
        (reply) => finish(reply.data),
        (error: unknown) =>
          finish({
            ok: false,
            problem: 'refused',
            explanation:
              isApiError(error) && error.code === 'SpotifyBusy' ? error.message : plainMessage(error),
            spotify_says: null,
            account: null,
          }),
      );
  }, [pending, refusal, dataReady, api, props.state, props.code]);

  const result: CheckResult | 'lost' | null = pending ? (refusal ?? answer) : 'lost';

  return (
    <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
      <Typography variant="h1">{T.checkWindowTitle}</Typography>
      {result === null && (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <CircularProgress size={20} />
          <Typography>{T.checkWindowWorking}</Typography>
        </Stack>
      )}
      {result === 'lost' && <Alert severity="warning">{T.checkWindowLost}</Alert>}
      {result !== null && result !== 'lost' && (
        <Alert severity={result.ok ? 'success' : 'error'} role={result.ok ? 'status' : 'alert'}>
          {result.explanation}
          {result.spotify_says && (
            <Typography variant="body2" sx={{ mt: 0.5 }}>
              Spotify says: “{result.spotify_says}”
            </Typography>
          )}
        </Alert>
      )}
      {result !== null && (
        <Button variant="outlined" onClick={() => window.close()}>
          {T.checkWindowClose}
        </Button>
      )}
    </Stack>
  );
}
