import type { SpotifyAppSetupReply } from '@pacebeat/contract';
import { SPOTIFY_CLIENT_ID_PATTERN, SETUP_TEXTS } from '@pacebeat/contract/rules';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { isApiError } from '../api/client.ts';
import { plainMessage } from '../api/plain-message.ts';
import { ConfirmDialog } from '../components/PaceTargets/ConfirmDialog.tsx';
import { SudoLink } from '../session/sudo-navigation.tsx';
import { MUSIC_SERVICE } from '../session/user-status.ts';
import { CheckPanel } from '../setup/CheckPanel.tsx';
import { RedirectUris } from '../setup/RedirectUris.tsx';
import { AdminOnlyPage, Section } from '../setup/AdminOnlyPage.tsx';
import { useSetupWrites, useSpotifyAppSetup } from '../setup/setup-queries.ts';
import { SETUP_PAGE as T } from '../setup/setup-texts.ts';

type SetupData = SpotifyAppSetupReply['data'];

const DASHBOARD_URL = 'https://developer.spotify.com/dashboard';

/**
 * /setup/spotify: the admin connects a real Spotify app. The steps in Spotify's dashboard, the
 * redirect URIs to paste (with copy buttons), the development-mode rules, the client id, and a check of
 * what Spotify says. Only the admin, not in sudo mode; the server checks it on every call.
 */
export function SetupSpotifyPage() {
  return (
    <AdminOnlyPage title={T.title} notAdmin={T.notAdmin} useData={useSpotifyAppSetup}>
      {(data) => <Steps data={data} />}
    </AdminOnlyPage>
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
