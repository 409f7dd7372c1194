import {
  AUTH_ERRORS,
  AUTH_TEXTS,
  EMAIL_PATTERN,
  emailLengthProblem,
  FIELD_LIMITS,
  FIELD_TEXTS,
  isStrongPassword,
} from '@pacebeat/contract/rules';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { isApiError, type ApiClient } from '../../api/client.ts';
import { accountCalls } from '../../session/session-queries.ts';
import { plainMessage } from '../../api/plain-message.ts';
import { PRIVACY_URL, TERMS_URL } from '../TermsAndPrivacy/TermsAndPrivacy.tsx';

/**
 * A field over its limit keeps what was typed or pasted and says so at once, under the field: a
 * `maxLength` would cut a paste without a word, and the runner would send a name they never wrote.
 */
const overLimit = (value: string, limit: number, text: string) => (value.length > limit ? text : undefined);

type Mode = 'signIn' | 'signUp' | 'reset';
type FieldErrors = { email?: string; name?: string; password?: string; form?: string };

export interface LocalLoginFormProps {
  api: ApiClient;
  /** Signed in: the page re-reads the session and goes to /. */
  onSignedIn: () => void;
  /** The server wants the email verified: the page sends a new mail with these credentials. */
  onEmailNotVerified: (email: string, password: string) => void;
  /** A new account whose verification mail already went out. */
  onVerificationSent: () => void;
  /** Sign-up is taken now (open, the first admin, or a working invitation); false hides it. */
  canSignUp?: boolean;
  /** The working invitation the page was opened with: the form starts on sign-up and sends it. */
  invitation?: string;
  /** The only address that invitation takes, filled in. */
  invitedEmail?: string | null;
}

/**
 * The same checks, in the same order and words, as the sign-in widget (spec §5), plus the contract's
 * length limits, so the form never sends what the server would refuse.
 */
function validate(mode: Mode, email: string, name: string, password: string): FieldErrors {
  const errors: FieldErrors = {};
  const address = email.trim();
  if (address === '') errors.email = AUTH_TEXTS.emailMissing;
  else if (emailLengthProblem(address)) errors.email = FIELD_TEXTS.emailTooLong;
  else if (!EMAIL_PATTERN.test(address)) errors.email = AUTH_TEXTS.emailInvalid;
  if (mode === 'signUp' && name.trim() === '') errors.name = AUTH_TEXTS.nameMissing;
  else if (mode === 'signUp' && name.trim().length > FIELD_LIMITS.name) errors.name = FIELD_TEXTS.nameTooLong;
  if (mode !== 'reset') {
    if (password === '') errors.password = AUTH_TEXTS.passwordMissing;
    else if (password.length > FIELD_LIMITS.password) errors.password = FIELD_TEXTS.passwordTooLong;
    else if (mode === 'signUp' && !isStrongPassword(password)) errors.password = AUTH_TEXTS.weakPassword;
  }
  return errors;
}

/** Where the server's error belongs on the form, in plain words (never a raw validation message). */
function placeError(error: unknown): FieldErrors {
  const message = plainMessage(error);
  if (!isApiError(error)) return { form: message };
  switch (error.code) {
    case AUTH_ERRORS.emailInUse:
    case AUTH_ERRORS.userNotFound:
      return { email: message };
    case AUTH_ERRORS.wrongPassword:
    case AUTH_ERRORS.weakPassword:
      return { password: message };
    default:
      return { form: message };
  }
}

const TITLES: Record<Mode, string> = {
  signIn: 'Sign in',
  signUp: 'Create account',
  reset: 'Recover password',
};

/** Local accounts: sign in, sign up and password reset, with the widget's texts. */
export function LocalLoginForm({
  api,
  onSignedIn,
  onEmailNotVerified,
  onVerificationSent,
  canSignUp = true,
  invitation,
  invitedEmail,
}: LocalLoginFormProps) {
  const [mode, setMode] = useState<Mode>(invitation ? 'signUp' : 'signIn');
  const [email, setEmail] = useState(invitedEmail ?? '');
  const [name, setName] = useState('');
  const [password, setPassword] = useState('');
  const [errors, setErrors] = useState<FieldErrors>({});
  const [busy, setBusy] = useState(false);
  const [resetSent, setResetSent] = useState(false);

  const switchTo = (next: Mode) => {
    setMode(next);
    setErrors({});
    setResetSent(false);
  };

  async function submit(event: FormEvent) {
    event.preventDefault();
    const found = validate(mode, email, name, password);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setBusy(true);
    try {
      if (mode === 'signIn') {
        await accountCalls(api).loginLocal(email, password);
        onSignedIn();
      } else if (mode === 'signUp') {
        const reply = await accountCalls(api).signup(email, name, password, invitation);
        if (reply.data.signed_in) onSignedIn();
        else onVerificationSent();
      } else {
        await accountCalls(api).passwordReset(email);
        setResetSent(true);
      }
    } catch (error) {
      if (isApiError(error) && error.code === AUTH_ERRORS.emailNotVerified) {
        onEmailNotVerified(email, password);
        return;
      }
      console.error(`local ${mode} failed:`, error);
      setErrors(placeError(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Stack component="form" noValidate onSubmit={submit} spacing={2} sx={{ maxWidth: 420 }}>
      <Typography variant="h2">{TITLES[mode]}</Typography>
      <TextField
        label="Email"
        type="email"
        autoComplete="email"
        value={email}
        onChange={(e) => setEmail(e.target.value)}
        error={Boolean(errors.email)}
        helperText={errors.email ?? overLimit(email, FIELD_LIMITS.email, FIELD_TEXTS.emailTooLong)}
      />
      {mode === 'signUp' && (
        <TextField
          label="First & last name"
          autoComplete="name"
          value={name}
          onChange={(e) => setName(e.target.value)}
          error={Boolean(errors.name)}
          helperText={errors.name ?? overLimit(name, FIELD_LIMITS.name, FIELD_TEXTS.nameTooLong)}
        />
      )}
      {mode !== 'reset' && (
        <TextField
          label={mode === 'signUp' ? 'Choose password' : 'Password'}
          type="password"
          autoComplete={mode === 'signUp' ? 'new-password' : 'current-password'}
          value={password}
          onChange={(e) => setPassword(e.target.value)}
          error={Boolean(errors.password)}
          helperText={
            errors.password ?? overLimit(password, FIELD_LIMITS.password, FIELD_TEXTS.passwordTooLong)
          }
        />
      )}
      {errors.form && <Alert severity="error">{errors.form}</Alert>}
      {resetSent && (
        <Alert severity="success">
          If an account uses {email}, a link to choose a new password is on its way. Follow it, then sign in
          here.
        </Alert>
      )}
      <Button type="submit" variant="contained" disabled={busy}>
        {mode === 'signIn' ? 'Sign in' : mode === 'signUp' ? 'Sign up' : 'Send'}
      </Button>
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
        {mode !== 'signIn' && (
          <Link component="button" type="button" onClick={() => switchTo('signIn')}>
            Sign in instead
          </Link>
        )}
        {mode !== 'signUp' && canSignUp && (
          <Link component="button" type="button" onClick={() => switchTo('signUp')}>
            Create an account
          </Link>
        )}
        {mode === 'signIn' && (
          <Link component="button" type="button" onClick={() => switchTo('reset')}>
            Trouble signing in?
          </Link>
        )}
      </Stack>
      {/* Spec §2: the sign-in offers links to the terms of service and the privacy policy. */}
      <Typography variant="body2" color="text.secondary">
        By continuing, you are indicating that you accept our <Link href={TERMS_URL}>Terms of Service</Link>{' '}
        and <Link href={PRIVACY_URL}>Privacy Policy</Link>.
      </Typography>
    </Stack>
  );
}
