import type { SignupState } from '@pacebeat/contract';
import { AUTH_ERRORS, INVITATION_TOKEN_PATTERN, SIGNUP_TEXTS } from '@pacebeat/contract/rules';
import Alert from '@mui/material/Alert';
import Paper from '@mui/material/Paper';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useCallback, useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { isApiError } from '../api/client.ts';
import { plainMessage } from '../api/plain-message.ts';
import {
  EmailVerificationView,
  type VerificationState,
} from '../components/EmailVerification/EmailVerificationView.tsx';
import { FirebaseWidget, type WidgetUser } from '../components/FirebaseLogin/FirebaseWidget.tsx';
import { ActionCodeView, type ActionMode } from '../components/LocalLogin/ActionCodeView.tsx';
import { LocalLoginForm } from '../components/LocalLogin/LocalLoginForm.tsx';
import { accountCalls, useLoginData } from '../session/session-queries.ts';
import { useSession } from '../session/session-context.ts';
import { NEXT_PARAM, returnPath } from '../session/return-to.ts';
import { useSudoNavigate } from '../session/sudo-navigation.tsx';
import { useDelayedFlag } from '../session/use-delayed-flag.ts';
import { LOGIN_TEXTS } from './login-texts.ts';
import { STILL_LOADING_AFTER_MS } from '../timing.ts';

/** Errors the Firebase SDK raises carry an `auth/...` code. */
const isFirebaseError = (e: unknown) =>
  typeof e === 'object' && e !== null && typeof (e as { code?: unknown }).code === 'string';

/**
 * /login (spec §2, §4): the sign-in widget (Firebase) or the local form, the 1 s still-loading
 * notice, the error view with a retry after 10 s, and the email-verification view.
 */
export function LoginPage() {
  const session = useSession();
  const { api, requestRefresh, markUnauthenticated } = session;
  const navigate = useSudoNavigate();
  const [params] = useSearchParams();
  // The page a signed-in-only page sent the visitor here from (RequireSignIn); the main page otherwise.
  const afterSignIn = returnPath(params.get(NEXT_PARAM));
  const [verification, setVerification] = useState<VerificationState | null>(null);
  const [widgetError, setWidgetError] = useState(false);
  /** Bumped to start the widget afresh after a refused sign-in (it shows nothing once it has signed in). */
  const [widgetRun, setWidgetRun] = useState(0);

  // An already signed-in user goes to / (spec §2). The spec checks with GET ping; the session's whoami
  // answers the same question without a 401 for visitors, so a visitor's page logs no error.
  const alreadySignedIn = session.dataReady && session.isAuthenticated;
  useEffect(() => {
    if (alreadySignedIn) void navigate(afterSignIn, { replace: true });
  }, [alreadySignedIn, navigate, afterSignIn]);

  const actionMode = params.get('mode');
  const actionCode = params.get('code');
  const isActionLink =
    (actionMode === 'verifyEmail' || actionMode === 'resetPassword') && Boolean(actionCode);

  // An invitation link (`/login?invite=…`): asked about only when it has the shape of one.
  const inviteParam = params.get('invite');
  const invitation =
    inviteParam !== null && INVITATION_TOKEN_PATTERN.test(inviteParam) ? inviteParam : undefined;
  const malformedInvite = inviteParam !== null && invitation === undefined;
  /** A sign-up the server refused through the widget (Firebase): its sentence. */
  const [refusal, setRefusal] = useState<string | null>(null);

  const loginData = useLoginData(!isActionLink, invitation);
  useEffect(() => {
    if (loginData.error) console.error('POST /api/login_data failed:', loginData.error);
  }, [loginData.error]);

  const stillLoading = useDelayedFlag(loginData.isPending, STILL_LOADING_AFTER_MS);
  const data = loginData.data?.data;
  const webConfig = data?.firebase?.data.web_config;
  // Spec §5: the page needs a web config in the reply (unless the server offers local accounts).
  const configMissing = loginData.isSuccess && !data?.local && !webConfig;
  useEffect(() => {
    if (configMissing) console.error(LOGIN_TEXTS.noWebConfig);
  }, [configMissing]);

  const signup = data?.signup;
  const validInvitation = signup?.invitation?.valid ? invitation : undefined;

  const signedIn = useCallback(async () => {
    await accountCalls(api).whoami();
    requestRefresh();
    await navigate(afterSignIn);
  }, [api, requestRefresh, navigate, afterSignIn]);

  const backToLogin = useCallback(() => {
    setVerification(null);
    requestRefresh();
  }, [requestRefresh]);

  /** After the widget's sign-in: the backend login, then whoami (spec §4). */
  const afterWidgetSignIn = useCallback(
    async (user: WidgetUser) => {
      try {
        const token = await user.getIdToken();
        await accountCalls(api).loginWithFirebase(token, validInvitation);
        await user.signOut(); // the server's session is the session from here on
        await signedIn();
      } catch (error) {
        if (isApiError(error) && error.status === 401 && error.code === AUTH_ERRORS.emailNotVerified) {
          setVerification('SENDING');
          try {
            await user.sendEmailVerification();
            setVerification('SENT');
          } catch (sendError) {
            console.error('sending the verification email failed:', sendError);
            // Spec §4: any failure of the identity service shows TOO_MANY; anything else, "send failed".
            setVerification(isFirebaseError(sendError) ? 'TOO_MANY' : 'FAILED');
          }
          await user.signOut().catch(() => undefined);
        } else if (isApiError(error) && error.status === 403) {
          // A new identity where sign-up is closed or by invitation: the server's sentence says which.
          setRefusal(plainMessage(error));
          await user.signOut().catch(() => undefined);
          setWidgetRun((n) => n + 1);
        } else if (isApiError(error) && error.status === 401) {
          markUnauthenticated();
          requestRefresh();
          await user.signOut().catch(() => undefined);
          setWidgetRun((n) => n + 1);
        } else {
          console.error('login failed:', error);
          await user.signOut().catch(() => undefined);
          setWidgetRun((n) => n + 1);
        }
      }
    },
    [api, signedIn, markUnauthenticated, requestRefresh, validInvitation],
  );

  /** Local accounts: the server refused an unverified email; send a new link. */
  const resendLocal = useCallback(
    async (email: string, password: string) => {
      setVerification('SENDING');
      try {
        await accountCalls(api).sendVerification(email, password);
        setVerification('SENT');
      } catch (error) {
        console.error('sending the verification email failed:', error);
        setVerification(isApiError(error) && error.status === 429 ? 'TOO_MANY' : 'FAILED');
      }
    },
    [api],
  );

  if (isActionLink && actionCode) {
    return (
      <ActionCodeView
        api={api}
        mode={actionMode as ActionMode}
        code={actionCode}
        onDone={() => void navigate('/login', { replace: true })}
      />
    );
  }

  if (verification) return <EmailVerificationView state={verification} onBack={backToLogin} />;

  if (loginData.isPending) {
    return stillLoading ? <Typography>{LOGIN_TEXTS.stillLoading}</Typography> : null;
  }

  if (loginData.isError || configMissing || widgetError) {
    return <Alert severity="error">{LOGIN_TEXTS.error}</Alert>;
  }

  // A card in the middle of the page on a desktop, the full width on a phone.
  return (
    <Paper
      variant="outlined"
      sx={{
        maxWidth: 480,
        mx: 'auto',
        p: { xs: 2.5, sm: 4 },
        border: { xs: 0, sm: 1 },
        borderColor: { sm: 'divider' },
        bgcolor: { xs: 'transparent', sm: 'background.paper' },
      }}
    >
      <Stack spacing={3}>
        <Typography variant="h1">Log in or register</Typography>
        <SignupNotice state={signup} malformedInvite={malformedInvite} />
        {refusal && <Alert severity="warning">{refusal}</Alert>}
        {data?.local ? (
          <LocalLoginForm
            api={api}
            onSignedIn={() => void signedIn()}
            onEmailNotVerified={(email, password) => void resendLocal(email, password)}
            onVerificationSent={() => setVerification('SENT')}
            canSignUp={signup === undefined || signup.allowed || validInvitation !== undefined}
            invitation={validInvitation}
            invitedEmail={signup?.invitation?.email ?? null}
          />
        ) : (
          <FirebaseWidget
            key={widgetRun}
            webConfig={webConfig!}
            emulatorUrl={data?.firebase?.data.auth_emulator_url}
            onSignedIn={(user) => void afterWidgetSignIn(user)}
            onError={(error) => {
              console.error('sign-in widget failed:', error);
              setWidgetError(true);
            }}
          />
        )}
      </Stack>
    </Paper>
  );
}

/**
 * Who may sign up, said plainly: the invitation the page was opened with (or why it does not
 * work), else, when a new account needs one, that sign-up is by invitation or closed.
 */
function SignupNotice({ state, malformedInvite }: { state?: SignupState; malformedInvite: boolean }) {
  if (malformedInvite) return <Alert severity="warning">{SIGNUP_TEXTS.invitationUnknown}</Alert>;
  if (!state) return null;
  const invitation = state.invitation;
  if (invitation?.valid) {
    return (
      <Alert severity="info">
        {invitation.makes_admin
          ? 'This is the setup link of this Pacebeat: the account you create now becomes its admin.'
          : invitation.email
            ? `You are invited to this Pacebeat: create your account with ${invitation.email}.`
            : 'You are invited to this Pacebeat: create your account.'}
      </Alert>
    );
  }
  if (invitation) return <Alert severity="warning">{invitation.problem}</Alert>;
  if (state.allowed) return null;
  return (
    <Alert severity="info">{state.mode === 'closed' ? SIGNUP_TEXTS.closed : SIGNUP_TEXTS.inviteOnly}</Alert>
  );
}
