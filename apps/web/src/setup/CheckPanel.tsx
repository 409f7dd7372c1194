import type { SpotifyAppSetupReply } from '@pacebeat/contract';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { plainMessage } from '../api/plain-message.ts';
import { listenForResults, prepareCheck, type CheckResult } from './check-window.ts';
import { pageRedirectUri } from './RedirectUris.tsx';
import { useSetupWrites } from './setup-queries.ts';
import { SETUP_PAGE as T } from './setup-texts.ts';

type SetupData = SpotifyAppSetupReply['data'];

type CheckState =
  | { step: 'idle' }
  | { step: 'redirects' }
  | { step: 'waiting'; blockedUrl: string | null }
  | { step: 'done'; result: CheckResult | null };

/** Step 5: the redirect URIs asked of Spotify, then its sign-in in a window of its own (check-window.ts). */
export function CheckPanel({ data }: { data: SetupData }) {
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
