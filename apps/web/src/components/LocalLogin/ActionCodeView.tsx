import { AUTH_TEXTS, FIELD_LIMITS, FIELD_TEXTS, isStrongPassword } from '@pacebeat/contract/rules';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import type { ApiClient } from '../../api/client.ts';
import { accountCalls } from '../../session/session-queries.ts';
import { plainMessage } from '../../api/plain-message.ts';

export type ActionMode = 'verifyEmail' | 'resetPassword';

const message = plainMessage;

/** The links of the mails: `/login?mode=verifyEmail&code=…` and `/login?mode=resetPassword&code=…`. */
export function ActionCodeView({
  api,
  mode,
  code,
  onDone,
}: {
  api: ApiClient;
  mode: ActionMode;
  code: string;
  onDone: () => void;
}) {
  const [state, setState] = useState<'idle' | 'busy' | 'done'>('idle');
  const [error, setError] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const started = useRef(false);

  useEffect(() => {
    if (mode !== 'verifyEmail' || started.current) return;
    started.current = true;
    setState('busy');
    accountCalls(api)
      .verifyEmail(code)
      .then(() => setState('done'))
      .catch((err: unknown) => {
        setError(message(err));
        setState('idle');
      });
  }, [api, mode, code]);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (password === '') return setError(AUTH_TEXTS.passwordMissing);
    if (password.length > FIELD_LIMITS.password) return setError(FIELD_TEXTS.passwordTooLong);
    if (!isStrongPassword(password)) return setError(AUTH_TEXTS.weakPassword);
    setState('busy');
    setError(null);
    try {
      await accountCalls(api).confirmPasswordReset(code, password);
      setState('done');
    } catch (err) {
      setError(message(err));
      setState('idle');
    }
  }

  const back = (
    <Button variant="outlined" onClick={onDone}>
      Continue
    </Button>
  );

  if (mode === 'verifyEmail') {
    return (
      <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
        <Typography variant="h2">Verify your email</Typography>
        {state === 'busy' && <Typography>Verifying...</Typography>}
        {state === 'done' && (
          <Alert severity="success">
            Your email has been verified. You can now sign in with your new account.
          </Alert>
        )}
        {error && <Alert severity="error">{error}</Alert>}
        {state !== 'busy' && back}
      </Stack>
    );
  }
  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={2} sx={{ maxWidth: 420 }}>
      <Typography variant="h2">Reset your password</Typography>
      {state === 'done' ? (
        <>
          <Alert severity="success">Password changed. You can now sign in with your new password.</Alert>
          {back}
        </>
      ) : (
        <>
          <TextField
            label="New password"
            type="password"
            autoComplete="new-password"
            value={password}
            onChange={(e) => setPassword(e.target.value)}
            error={Boolean(error) || password.length > FIELD_LIMITS.password}
            helperText={
              error ?? (password.length > FIELD_LIMITS.password ? FIELD_TEXTS.passwordTooLong : undefined)
            }
          />
          <Button type="submit" variant="contained" disabled={state === 'busy'}>
            Save
          </Button>
        </>
      )}
    </Stack>
  );
}
