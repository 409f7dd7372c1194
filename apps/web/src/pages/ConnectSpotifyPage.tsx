import { SPOTIFY_ERRORS } from '@pacebeat/contract/rules';
import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import CircularProgress from '@mui/material/CircularProgress';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';
import { isApiError } from '../api/client.ts';
import { plainMessage } from '../api/plain-message.ts';
import { DisabledServiceAlert } from '../components/DisabledServiceAlerts/DisabledServiceAlerts.tsx';
import { PRIVACY_URL, TERMS_URL } from '../components/TermsAndPrivacy/TermsAndPrivacy.tsx';
import {
  clearConnecting,
  CONNECT_SETTLES_MS,
  connectingSince,
  forgetRefusal,
  markConnecting,
  readRefusal,
  rememberRefusal,
} from '../session/connect-memory.ts';
import { useSession } from '../session/session-context.ts';
import { SudoLink, SudoNavigate, useSudoNavigate } from '../session/sudo-navigation.tsx';
import { MUSIC_SERVICE } from '../session/user-status.ts';
import { useDelayedFlag } from '../session/use-delayed-flag.ts';
import { SLOW_CONNECT_MS } from '../timing.ts';
import { SpotifyLogo } from '../components/SpotifyLogo/SpotifyLogo.tsx';
import { spotifyCalls, useConnectData } from '../spotify/spotify-queries.ts';
import {
  authorizeUrl,
  challengeOf,
  clearPending,
  exchangeCode,
  randomVerifier,
  readPending,
  savePending,
} from '../spotify/pkce.ts';
import { AFTER_PAGE, SPOTIFY_TEXTS as T } from '../spotify/texts.ts';
import { isCheckState } from '../setup/check-window.ts';
import { SetupCheckReturn } from '../setup/SetupCheckReturn.tsx';

type View = 'initial' | 'got_code' | 'success' | 'error' | 'unknown';
/** Why PUT connect failed: Spotify refused the account (shown as the disabled-service alert), or else. */
type Problem = { refused: boolean; message: string };
type Returned = { code: string | null; error: string | null; state: string | null };

/** Parameters Spotify adds on the way back; they are removed from the URL (spec §4). */
const RETURN_PARAMS = ['code', 'error', 'error_description', 'state'];
/** Codes already taken in (an authorization code works once; React may run an effect twice). */
const handledCodes = new Set<string>();

function viewOf(r: Returned): View {
  if (r.code !== null && r.error === null) {
    // Only the answer to this tab's own request is taken in (`state` checked).
    const pending = readPending();
    return pending && pending.state === r.state ? 'got_code' : 'unknown';
  }
  if (r.error !== null && r.code === null) return 'error';
  if (r.code === null && r.error === null) return 'initial';
  return 'unknown';
}

/**
 * /connect/spotify (spec §2, §4, §5, §7): starts the authorization-code flow with PKCE, and on the way
 * back exchanges the code from the browser and hands the token reply to the server (PUT connect). Spotify
 * also sends the admin's setup check back here (the same redirect URI): its `state` tells it apart.
 */
export function ConnectSpotifyPage() {
  const [params] = useSearchParams();
  const [check] = useState(() => {
    const state = params.get('state');
    return isCheckState(state)
      ? {
          state,
          code: params.get('code'),
          error: params.get('error'),
          description: params.get('error_description'),
        }
      : null;
  });
  return check ? <SetupCheckReturn {...check} /> : <RunnerConnect />;
}

function RunnerConnect() {
  const session = useSession();
  const { api, sudo, requestRefresh } = session;
  const userId = session.user?.id;
  const dataReady = session.dataReady;
  const navigate = useSudoNavigate();
  const [params, setParams] = useSearchParams();
  const [returned] = useState<Returned>(() => ({
    code: params.get('code'),
    error: params.get('error'),
    state: params.get('state'),
  }));
  const [view, setView] = useState<View>(() => viewOf(returned));
  const [problem, setProblem] = useState<Problem | null>(null);
  const [leaving, setLeaving] = useState(false);
  // The server waits a few seconds for a free call when Spotify's rate is full (connect.service.ts).
  const [working, setWorking] = useState(false);
  const slow = useDelayedFlag(working, SLOW_CONNECT_MS);
  // Reloaded while "Processing…": the connect may still finish on the server; whoami says when.
  const [resuming, setResuming] = useState(() => view === 'initial' && connectingSince() !== null);
  const connectedNow = session.services[MUSIC_SERVICE]?.connected ?? false;

  // Once whoami says connected, the reloaded page shows the success it missed.
  const resumed = resuming && connectedNow;
  useEffect(() => {
    if (!resuming) return;
    if (connectedNow) {
      clearConnecting();
      forgetRefusal();
      return;
    }
    const since = connectingSince() ?? 0;
    const poll = setInterval(requestRefresh, 2_000);
    const stop = setTimeout(
      () => {
        clearConnecting();
        setResuming(false);
      },
      Math.max(0, since + CONNECT_SETTLES_MS - Date.now()),
    );
    return () => {
      clearInterval(poll);
      clearTimeout(stop);
    };
  }, [resuming, connectedNow, requestRefresh]);

  const connectData = useConnectData(view === 'initial' && !resuming && session.isAuthenticated);

  // The code or error (and state) leave the URL at once.
  useEffect(() => {
    if (!RETURN_PARAMS.some((p) => params.has(p))) return;
    const next = new URLSearchParams(params);
    for (const p of RETURN_PARAMS) next.delete(p);
    setParams(next, { replace: true });
  }, [params, setParams]);

  useEffect(() => {
    if (view === 'error' || view === 'unknown') clearPending();
    if (view !== 'got_code' || returned.code === null || handledCodes.has(returned.code)) return;
    // Who is connecting is known first: a refusal is remembered for this user only.
    if (!dataReady) return;
    const code = returned.code;
    handledCodes.add(code);
    const pending = readPending();
    if (!pending) return;
    markConnecting();
    void (async () => {
      setWorking(true);
      let tokenInfo: unknown;
      try {
        tokenInfo = await exchangeCode(pending, code);
      } catch (error) {
        console.error('Spotify token exchange failed:', error); // spec §8: only logged
        clearConnecting();
        setWorking(false);
        return;
      } finally {
        clearPending();
      }
      try {
        await spotifyCalls(api).connect(tokenInfo);
        forgetRefusal();
        setView('success');
        requestRefresh();
      } catch (error) {
        console.error('PUT /api/spotify/connect failed:', error);
        const refused = isApiError(error) && error.code === SPOTIFY_ERRORS.accountRefused;
        // The server links no account it was refused: this browser keeps why, for the Welcome page.
        if (refused && userId) rememberRefusal(userId, error.message);
        setProblem({ refused, message: refused ? error.message : plainMessage(error) });
      } finally {
        clearConnecting();
        setWorking(false);
      }
    })();
  }, [view, returned, api, requestRefresh, userId, dataReady]);

  async function connect() {
    const data = connectData.data?.data;
    if (!data) return;
    setLeaving(true);
    const verifier = randomVerifier();
    const state = randomVerifier(32);
    // This page's URL, as the server names it: never one Spotify refuses (connect_data answers 400 then,
    // with what to open instead, shown below the button).
    const redirectUri = data.redirect_uri;
    savePending({
      verifier,
      client_id: data.client_id,
      state,
      token_url: data.token_url,
      redirect_uri: redirectUri,
    });
    const url = authorizeUrl(data.authorize_url, {
      client_id: data.client_id,
      scopes: data.scopes,
      challenge: await challengeOf(verifier),
      redirect_uri: redirectUri,
      state,
    });
    window.location.assign(url);
  }

  const proceed = (
    <Button variant="contained" onClick={() => void navigate(AFTER_PAGE)} sx={{ alignSelf: 'flex-start' }}>
      {T.proceed}
    </Button>
  );
  const tryAgain = () => {
    setProblem(null);
    setView('initial');
  };

  // Connect is for signed-in users: a visitor goes to sign in first.
  if (session.dataReady && !session.isAuthenticated) return <SudoNavigate to="/login" />;

  const connected = connectedNow;
  const disabledReason =
    session.disabled_services.find((d) => d.service === MUSIC_SERVICE)?.reason ??
    (connected ? null : readRefusal(userId));
  const disabled = disabledReason !== null;
  const processing = (
    <Stack spacing={1}>
      <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
        <CircularProgress size={20} />
        <Typography>{T.processing}</Typography>
      </Stack>
      {slow && (
        <Typography variant="body2" color="text.secondary" role="status">
          {T.waitingForSlot}
        </Typography>
      )}
    </Stack>
  );

  switch (resumed ? 'success' : view) {
    case 'initial':
      if (!session.dataReady) return null;
      if (resuming) return processing;
      if (connected && !disabled) return <AlreadyConnected />;
      return (
        <Stack spacing={3} sx={{ alignItems: 'flex-start' }}>
          <Typography variant="h1">{T.welcome}</Typography>
          {disabledReason !== null && (
            <DisabledServiceAlert
              service={MUSIC_SERVICE}
              reason={disabledReason}
              onReconnect={sudo || !connectData.data ? undefined : () => void connect()}
            />
          )}
          <Typography>{T.explanation}</Typography>
          {sudo ? (
            <Link component={SudoLink} to="/">
              {T.sudoNote}
            </Link>
          ) : (
            <Button
              variant="contained"
              size="large"
              disabled={!connectData.data || leaving}
              onClick={() => void connect()}
              startIcon={<SpotifyLogo titleAccess={undefined} sx={{ color: '#000' }} />}
              sx={{ bgcolor: '#1DB954', color: '#000', '&:hover': { bgcolor: '#1ed760' } }}
            >
              {T.connectButton}
            </Button>
          )}
          {connectData.isError && <Alert severity="error">{plainMessage(connectData.error)}</Alert>}
          <Typography variant="body2" color="text.secondary">
            <Link href={TERMS_URL}>Terms of service</Link> · <Link href={PRIVACY_URL}>Privacy policy</Link>
          </Typography>
        </Stack>
      );
    case 'got_code':
      if (problem) {
        return (
          <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
            {problem.refused ? (
              <DisabledServiceAlert service={MUSIC_SERVICE} reason={problem.message} onReconnect={tryAgain} />
            ) : (
              <Alert severity="error">{problem.message}</Alert>
            )}
            <Stack direction="row" spacing={2}>
              {!problem.refused && (
                <Button variant="outlined" onClick={tryAgain}>
                  Try again
                </Button>
              )}
              {proceed}
            </Stack>
          </Stack>
        );
      }
      return processing;
    case 'success':
      return (
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Alert severity="success">{T.connected}</Alert>
          {proceed}
        </Stack>
      );
    case 'error':
      return (
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Alert severity="error">{T.connectError}</Alert>
          {proceed}
        </Stack>
      );
    default:
      return (
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Alert severity="error">{T.unknownState}</Alert>
          {proceed}
        </Stack>
      );
  }
}

/** /connect/spotify when Spotify is already connected and working: nothing to connect. */
function AlreadyConnected() {
  return (
    <Stack spacing={3} sx={{ alignItems: 'flex-start' }}>
      <Typography variant="h1">Spotify is connected</Typography>
      <Alert severity="success">{T.alreadyConnected}</Alert>
      <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
        <Button variant="contained" component={SudoLink} to="/">
          See your playlists
        </Button>
        <Button variant="outlined" component={SudoLink} to={`/disconnect/${MUSIC_SERVICE}`}>
          Disconnect Spotify
        </Button>
      </Stack>
    </Stack>
  );
}
