import Alert from '@mui/material/Alert';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { useState } from 'react';
import CircularProgress from '@mui/material/CircularProgress';
import { plainMessage } from '../api/plain-message.ts';
import { useSession } from '../session/session-context.ts';
import { SudoLink, SudoNavigate, useSudoNavigate } from '../session/sudo-navigation.tsx';
import { MUSIC_SERVICE } from '../session/user-status.ts';
import { spotifyCalls } from '../spotify/spotify-queries.ts';
import { AFTER_PAGE, SPOTIFY_TEXTS as T } from '../spotify/texts.ts';

type View = 'initial' | 'disconnecting' | 'success';

/** /disconnect/spotify (spec §2, §4): PUT disconnect erases the music-account data; Spotify is not touched. */
export function DisconnectSpotifyPage() {
  const session = useSession();
  const { api, sudo, requestRefresh } = session;
  const navigate = useSudoNavigate();
  const [view, setView] = useState<View>('initial');
  const [problem, setProblem] = useState<string | null>(null);

  async function disconnect() {
    setView('disconnecting');
    setProblem(null);
    try {
      await spotifyCalls(api).disconnect();
      setView('success');
      requestRefresh();
    } catch (error) {
      console.error('PUT /api/spotify/disconnect failed:', error);
      setProblem(plainMessage(error));
      setView('initial');
    }
  }

  // Disconnect is for signed-in users; with nothing connected there is nothing to disconnect.
  if (!session.dataReady) return null;
  if (!session.isAuthenticated) return <SudoNavigate to="/login" />;
  const connected = session.services[MUSIC_SERVICE]?.connected ?? false;

  switch (view) {
    case 'initial':
      if (!connected) {
        return (
          <Stack spacing={3} sx={{ alignItems: 'flex-start' }}>
            <Typography variant="h1">{T.disconnectButton}</Typography>
            <Alert severity="info">{T.notConnected}</Alert>
            <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
              <Button variant="contained" component={SudoLink} to={`/connect/${MUSIC_SERVICE}`}>
                Connect Spotify
              </Button>
              <Button variant="outlined" component={SudoLink} to="/about">
                About Pacebeat
              </Button>
            </Stack>
          </Stack>
        );
      }
      return (
        <Stack spacing={3} sx={{ alignItems: 'flex-start' }}>
          <Typography variant="h1">{T.disconnectButton}</Typography>
          <Typography>{T.disconnectExplanation}</Typography>
          <Typography color="text.secondary">{T.reconnectCost}</Typography>
          {sudo ? (
            <Link component={SudoLink} to="/">
              {T.sudoNote}
            </Link>
          ) : (
            <Stack direction="row" spacing={2} useFlexGap sx={{ flexWrap: 'wrap' }}>
              <Button variant="contained" color="error" onClick={() => void disconnect()}>
                {T.disconnectButton}
              </Button>
              <Button variant="outlined" onClick={() => void navigate(AFTER_PAGE)}>
                {T.cancelDisconnect}
              </Button>
            </Stack>
          )}
          {problem && <Alert severity="error">{problem}</Alert>}
        </Stack>
      );
    case 'disconnecting':
      return (
        <Stack direction="row" spacing={2} sx={{ alignItems: 'center' }}>
          <CircularProgress size={20} />
          <Typography>{T.disconnecting}</Typography>
        </Stack>
      );
    case 'success':
      return (
        <Stack spacing={2} sx={{ alignItems: 'flex-start' }}>
          <Alert severity="success">{T.disconnected}</Alert>
          <Button variant="contained" onClick={() => void navigate(AFTER_PAGE)}>
            {T.proceed}
          </Button>
        </Stack>
      );
    default:
      return <Alert severity="error">{T.unknownState}</Alert>;
  }
}
