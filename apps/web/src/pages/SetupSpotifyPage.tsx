import { SPOTIFY_CLIENT_ID_PATTERN, SETUP_TEXTS, type SpotifyAppSetupReply } from '@pacebeat/contract';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useEffect, useState, type FormEvent, type ReactNode } from 'react';
import { isApiError } from '../api/client.ts';
import { plainMessage } from '../api/plain-message.ts';
import { ConfirmDialog } from '../components/PaceTargets/ConfirmDialog.tsx';
import { RequireSignIn } from '../session/RequireSignIn.tsx';
import { SudoLink } from '../session/sudo-navigation.tsx';
import { MUSIC_SERVICE } from '../session/user-status.ts';
import { listenForResults, prepareCheck, type CheckResult } from '../setup/check-window.ts';
import { useIsSetupAdmin, useSetupWrites, useSpotifyAppSetup } from '../setup/setup-queries.ts';
import { SETUP_PAGE as T } from '../setup/setup-texts.ts';

type SetupData = SpotifyAppSetupReply['data'];

const DASHBOARD_URL = 'https://developer.spotify.com/dashboard';

/**
 * /setup/spotify (issue 26): the admin connects a real Spotify app. The steps in Spotify's dashboard, the
 * redirect URIs to paste (with copy buttons), the development-mode rules, the client id, and a check of
 * what Spotify says. Only the admin, not in sudo mode; the server checks it on every call.
 */
export function SetupSpotifyPage() {
  return (
    <RequireSignIn>
      <Setup />
    </RequireSignIn>
  );
}

function Setup() {
  const admin = useIsSetupAdmin();
  const q = useSpotifyAppSetup();
  const back = (
    <Link component={SudoLink} to="/" sx={{ alignSelf: 'flex-start' }}>
      Back to main page
    </Link>
  );
  if (!admin) {
    return (
      <Stack spacing={2}>
        {back}
        <Alert severity="info">This page is for the admin of this Pacebeat, signed in as themselves.</Alert>
      </Stack>
    );
  }
  const data = q.data?.data;
  return (
    <Stack spacing={3} sx={{ maxWidth: 760 }}>
      {back}
      <Typography variant="h1">{T.title}</Typography>
      {q.isError && <Alert severity="error">{plainMessage(q.error)}</Alert>}
      {!data && !q.isError && <CircularProgress size={24} aria-label="Loading" />}
      {data && <Steps data={data} />}
    </Stack>
  );
}

function Steps({ data }: { data: SetupData }) {
  return (
    <>
      <Alert severity={data.source === 'demo' ? 'info' : 'success'} role="status">
        {data.source === 'demo'
          ? T.demo
          : data.source === 'env'
            ? T.env(data.client_id ?? '')
            : T.database(data.client_id ?? '')}
      </Alert>
      <Typography>{T.intro}</Typography>
      <Section title={T.step1}>
        <Typography>{T.step1Body}</Typography>
        <Link href={DASHBOARD_URL} target="_blank" rel="noopener noreferrer">
          {T.dashboardLink}
        </Link>
      </Section>
      <Section title={T.step2}>
        <Typography>{T.step2Body}</Typography>
        <RedirectUris data={data} />
      </Section>
      <Section title={T.step3}>
        <Box component="ul" sx={{ m: 0, pl: 3 }}>
          {T.rules.map((r) => (
            <Typography component="li" key={r} sx={{ mb: 0.5 }}>
              {r}
            </Typography>
          ))}
        </Box>
      </Section>
      <Section title={T.step4}>
        <Typography>{T.step4Body}</Typography>
        <ClientIdForm data={data} />
      </Section>
      <Section title={T.step5}>
        <Typography>{T.step5Body}</Typography>
        <CheckPanel data={data} />
      </Section>
    </>
  );
}

function Section({ title, children }: { title: string; children: ReactNode }) {
  return (
    <Stack component="section" spacing={1.5} aria-label={title}>
      <Typography variant="h2" sx={{ fontSize: '1.25rem' }}>
        {title}
      </Typography>
      {children}
    </Stack>
  );
}

/** The connect page at the address this page is open at: the redirect URI the admin needs first. */
const pageRedirectUri = () => `${window.location.origin}/connect/spotify`;

function RedirectUris({ data }: { data: SetupData }) {
  const here = pageRedirectUri();
  const accepted = data.redirect_uris.filter((r) => r.accepted);
  const mine = accepted.filter((r) => r.uri === here);
  const others = accepted.filter((r) => r.uri !== here);
  const refused = data.redirect_uris.filter((r) => !r.accepted);
  return (
    <Stack spacing={1}>
      {(mine.length > 0 ? mine : others).map((r) => (
        <CopyLine key={r.uri} text={r.uri} />
      ))}
      {mine.length > 0 && others.length > 0 && (
        <>
          <Typography variant="body2" color="text.secondary">
            {T.otherAddresses}
          </Typography>
          {others.map((r) => (
            <CopyLine key={r.uri} text={r.uri} />
          ))}
        </>
      )}
      {refused.length > 0 && (
        <Box>
          <Typography variant="body2" color="text.secondary">
            {T.refusedTitle}:
          </Typography>
          <Box component="ul" sx={{ m: 0, pl: 3 }}>
            {refused.map((r) => (
              <Typography component="li" variant="body2" color="text.secondary" key={r.uri}>
                <Box component="code" sx={{ wordBreak: 'break-all' }}>
                  {r.uri}
                </Box>
                : {r.problem}
              </Typography>
            ))}
          </Box>
        </Box>
      )}
    </Stack>
  );
}

/** A value to paste elsewhere, with a copy button (the clipboard needs a secure context: else by hand). */
function CopyLine({ text }: { text: string }) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(text);
      setCopied('yes');
    } catch {
      setCopied('no');
    }
  }
  return (
    <Stack direction="row" spacing={1} sx={{ alignItems: 'center', flexWrap: 'wrap' }} useFlexGap>
      <Box
        component="code"
        sx={{
          px: 1,
          py: 0.5,
          bgcolor: 'action.hover',
          borderRadius: 1,
          fontSize: '0.95rem',
          wordBreak: 'break-all',
          userSelect: 'all',
        }}
      >
        {text}
      </Box>
      <Button
        size="small"
        variant="outlined"
        onClick={() => void copy()}
        aria-label={`${copied === 'yes' ? T.copied : T.copy} ${text}`}
      >
        {copied === 'yes' ? T.copied : T.copy}
      </Button>
      {copied === 'no' && (
        <Typography variant="body2" color="text.secondary">
          {T.copyByHand}
        </Typography>
      )}
    </Stack>
  );
}

function ClientIdForm({ data }: { data: SetupData }) {
  const { save } = useSetupWrites();
  const [value, setValue] = useState(data.saved_client_id ?? '');
  const [asking, setAsking] = useState(false);
  const [touched, setTouched] = useState(false);
  const fromEnv = data.source === 'env';
  const trimmed = value.trim();
  const wellFormed = SPOTIFY_CLIENT_ID_PATTERN.test(trimmed);
  const unchanged = data.source === 'database' && trimmed === data.client_id;
  const serverRefusal =
    save.error && isApiError(save.error)
      ? (save.error.fields.find((f) => f.field === 'client_id')?.message ?? save.error.message)
      : save.error
        ? plainMessage(save.error)
        : null;
  const mustConfirm = data.source === 'demo' || data.connected_runners > 0;

  function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (!wellFormed || unchanged) return;
    if (mustConfirm) setAsking(true);
    else save.mutate({ client_id: trimmed });
  }
  function confirm() {
    save.mutate({ client_id: trimmed, confirm: true }, { onSettled: () => setAsking(false) });
  }

  return (
    <Stack component="form" spacing={1.5} onSubmit={submit} noValidate sx={{ alignItems: 'flex-start' }}>
      <TextField
        label={T.clientIdLabel}
        value={value}
        onChange={(e) => {
          setValue(e.target.value);
          save.reset();
        }}
        onBlur={() => setTouched(true)}
        disabled={fromEnv}
        error={(touched && trimmed !== '' && !wellFormed) || serverRefusal !== null}
        helperText={
          touched && trimmed !== '' && !wellFormed ? SETUP_TEXTS.badClientId : (serverRefusal ?? ' ')
        }
        slotProps={{ htmlInput: { spellCheck: false, autoComplete: 'off', maxLength: 200 } }}
        sx={{ width: '100%', maxWidth: 480 }}
      />
      <Button
        type="submit"
        variant="contained"
        disabled={fromEnv || save.isPending || trimmed === '' || unchanged}
      >
        {data.source === 'demo' ? T.leaveDemo : T.save}
      </Button>
      {save.isSuccess && (
        <Alert severity="success" role="status">
          {T.saved(save.data.data.demo_connections_ended ?? 0)}{' '}
          <Link component={SudoLink} to={`/connect/${MUSIC_SERVICE}`}>
            {T.nextConnect}
          </Link>
        </Alert>
      )}
      <ConfirmDialog
        open={asking}
        title={data.source === 'demo' ? T.confirmTitle : T.confirmChangeTitle}
        confirm={data.source === 'demo' ? 'Leave demo mode' : 'Change client id'}
        busy={save.isPending}
        onConfirm={confirm}
        onClose={() => setAsking(false)}
      >
        {data.source === 'demo'
          ? T.confirmBody(data.connected_runners)
          : T.confirmChangeBody(data.connected_runners)}
      </ConfirmDialog>
    </Stack>
  );
}

type CheckState =
  | { step: 'idle' }
  | { step: 'redirects' }
  | { step: 'waiting'; blockedUrl: string | null }
  | { step: 'done'; result: CheckResult | null };

function CheckPanel({ data }: { data: SetupData }) {
  const { checkRedirects } = useSetupWrites();
  const [state, setState] = useState<CheckState>({ step: 'idle' });
  const here = pageRedirectUri();
  const mine = data.redirect_uris.find((r) => r.uri === here && r.accepted);
  const firstAccepted = data.redirect_uris.find((r) => r.accepted);

  // The check window tells its outcome (a BroadcastChannel message).
  useEffect(() => listenForResults((result) => setState({ step: 'done', result })), []);

  if (data.source === 'demo' || data.client_id === null) {
    return <Alert severity="info">{T.checkNeedsClientId}</Alert>;
  }
  if (!mine) {
    return <Alert severity="warning">{T.notHere(firstAccepted?.uri ?? here)}</Alert>;
  }
  const clientId = data.client_id;

  async function run() {
    // Opened now, within the click (a window opened after the awaits below would be blocked).
    const win = window.open('about:blank', 'pacebeat-setup-check', 'popup,width=560,height=760');
    setState({ step: 'redirects' });
    let checks;
    try {
      checks = (await checkRedirects.mutateAsync()).data.checks;
    } catch {
      win?.close();
      setState({ step: 'idle' });
      return;
    }
    const ours = checks.find((c) => c.uri === here);
    if (!ours || !ours.ok) {
      win?.close();
      setState({ step: 'done', result: null });
      return;
    }
    const url = await prepareCheck({ accountsUrl: data.accounts_url, clientId, redirectUri: here });
    if (win && !win.closed) {
      win.location.href = url;
      setState({ step: 'waiting', blockedUrl: null });
    } else {
      setState({ step: 'waiting', blockedUrl: url });
    }
  }

  const redirectChecks = checkRedirects.data?.data.checks ?? [];
  return (
    <Stack spacing={1.5} sx={{ alignItems: 'flex-start' }}>
      <Button
        variant="contained"
        onClick={() => void run()}
        disabled={state.step === 'redirects'}
        sx={{ bgcolor: '#1DB954', color: '#000', '&:hover': { bgcolor: '#1ed760' } }}
      >
        {T.checkButton}
      </Button>
      {checkRedirects.isError && <Alert severity="error">{plainMessage(checkRedirects.error)}</Alert>}
      {/* This page's address first; another one Spotify refuses matters only to whoever opens Pacebeat there. */}
      {[...redirectChecks.filter((c) => c.uri === here), ...redirectChecks.filter((c) => c.uri !== here)].map(
        (c) => (
          <Outcome
            key={c.uri}
            ok={c.ok}
            optional={c.uri !== here && !c.ok ? T.onlyIfOpenedAt(new URL(c.uri).origin) : undefined}
            explanation={c.explanation}
            says={c.spotify_says}
          />
        ),
      )}
      {state.step === 'redirects' && <CircularProgress size={20} aria-label="Checking" />}
      {state.step === 'waiting' && (
        <Alert severity="info" role="status">
          {state.blockedUrl ? (
            <>
              {T.popupBlocked}{' '}
              <Link href={state.blockedUrl} target="_blank" rel="opener">
                Spotify
              </Link>
            </>
          ) : (
            T.checkWaiting
          )}
        </Alert>
      )}
      {state.step === 'done' && state.result && (
        <Outcome
          ok={state.result.ok}
          explanation={state.result.explanation}
          says={state.result.spotify_says}
        />
      )}
    </Stack>
  );
}

function Outcome(props: { ok: boolean; explanation: string; says: string | null; optional?: string }) {
  const { ok, explanation, says, optional } = props;
  const severity = ok ? 'success' : optional ? 'warning' : 'error';
  return (
    <Alert severity={severity} role={ok || optional ? 'status' : 'alert'} sx={{ width: '100%' }}>
      {optional && `${optional} `}
      {explanation}
      {says && (
        <Typography variant="body2" sx={{ mt: 0.5 }}>
          Spotify says: “{says}”
        </Typography>
      )}
    </Alert>
  );
}
