import type { AdminSignupReply, Invitation, SignupMode } from '@pacebeat/contract';
import { EMAIL_PATTERN, FIELD_LIMITS, SIGNUP_MODES } from '@pacebeat/contract/rules';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Button from '@mui/material/Button';
import FormControl from '@mui/material/FormControl';
import FormControlLabel from '@mui/material/FormControlLabel';
import FormLabel from '@mui/material/FormLabel';
import Radio from '@mui/material/Radio';
import RadioGroup from '@mui/material/RadioGroup';
import Stack from '@mui/material/Stack';
import TextField from '@mui/material/TextField';
import Typography from '@mui/material/Typography';
import { useState, type FormEvent } from 'react';
import { isApiError } from '../api/client.ts';
import { plainMessage } from '../api/plain-message.ts';
import { useAdminSignup, useAdminWrites } from '../admin/admin-queries.ts';
import { ADMIN_PAGE as T } from '../admin/admin-texts.ts';
import { CopyLine } from '../setup/RedirectUris.tsx';
import { AdminOnlyPage, Section } from '../setup/AdminOnlyPage.tsx';

type AdminData = AdminSignupReply['data'];

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });

/**
 * /admin: who may sign up (open, by invitation, closed), invitation links, and the runners
 * against development mode's 5. Only the admin, not in sudo mode; the server checks it on every call.
 */
export function AdminPage() {
  return (
    <AdminOnlyPage title={T.title} notAdmin={T.notAdmin} useData={useAdminSignup}>
      {(data) => (
        <>
          <Counts data={data} />
          <SignupModeForm data={data} />
          <InviteForm data={data} />
          <Invitations list={data.invitations} />
        </>
      )}
    </AdminOnlyPage>
  );
}

function Counts({ data }: { data: AdminData }) {
  const full = !data.demo && data.connected_runners >= data.runner_limit;
  return (
    <Section title={T.countsTitle}>
      <Typography>
        {data.demo
          ? T.connectedDemo(data.connected_runners)
          : T.connected(data.connected_runners, data.runner_limit)}
      </Typography>
      <Typography>{T.accounts(data.accounts, data.admins)}</Typography>
      {full && <Alert severity="warning">{T.full}</Alert>}
    </Section>
  );
}

function SignupModeForm({ data }: { data: AdminData }) {
  const { setMode } = useAdminWrites();
  const fromEnv = data.source === 'env';
  return (
    <Section title={T.modeTitle}>
      {fromEnv && <Alert severity="info">{T.fromEnv(T.modes[data.mode].label)}</Alert>}
      {data.source === 'default' && (
        <Typography color="text.secondary">
          {T.defaultIs(T.modes[data.default_mode].label.toLowerCase())}
        </Typography>
      )}
      <FormControl disabled={fromEnv || setMode.isPending}>
        <FormLabel id="signup-mode-label">{T.modeLabel}</FormLabel>
        <RadioGroup
          aria-labelledby="signup-mode-label"
          value={setMode.isPending && setMode.variables ? setMode.variables : data.mode}
          onChange={(e) => setMode.mutate(e.target.value as SignupMode)}
        >
          {SIGNUP_MODES.map((m) => (
            <FormControlLabel
              key={m}
              value={m}
              control={<Radio slotProps={{ input: { 'aria-describedby': `signup-mode-${m}-help` } }} />}
              label={
                <Box>
                  <Typography component="span">{T.modes[m].label}</Typography>
                  <Typography
                    id={`signup-mode-${m}-help`}
                    variant="body2"
                    color="text.secondary"
                    component="span"
                    sx={{ display: 'block' }}
                  >
                    {T.modes[m].help}
                  </Typography>
                </Box>
              }
              sx={{ alignItems: 'flex-start', mb: 1, '& .MuiRadio-root': { pt: 0.5 } }}
            />
          ))}
        </RadioGroup>
      </FormControl>
      {setMode.isError && <Alert severity="error">{plainMessage(setMode.error)}</Alert>}
      {setMode.isSuccess && (
        <Typography role="status" color="text.secondary">
          {T.saved}
        </Typography>
      )}
    </Section>
  );
}

function InviteForm({ data }: { data: AdminData }) {
  const { invite } = useAdminWrites();
  const [email, setEmail] = useState('');
  const [touched, setTouched] = useState(false);
  const trimmed = email.trim();
  const wellFormed = trimmed === '' || EMAIL_PATTERN.test(trimmed);
  const serverRefusal =
    invite.error && isApiError(invite.error)
      ? (invite.error.fields.find((f) => f.field === 'email')?.message ?? invite.error.message)
      : invite.error
        ? plainMessage(invite.error)
        : null;

  function submit(e: FormEvent) {
    e.preventDefault();
    setTouched(true);
    if (!wellFormed) return;
    invite.mutate({ email: trimmed === '' ? null : trimmed });
  }

  const made = invite.data?.data;
  return (
    <Section title={T.inviteTitle}>
      <Typography>
        {T.inviteBody}
        {data.demo ? '' : ` ${T.inviteSpotifyNote}`}
      </Typography>
      {data.mode === 'closed' && <Alert severity="info">{T.closedNote}</Alert>}
      <Stack component="form" spacing={1.5} onSubmit={submit} noValidate sx={{ alignItems: 'flex-start' }}>
        <TextField
          label={T.emailLabel}
          type="email"
          autoComplete="off"
          value={email}
          onChange={(e) => {
            setEmail(e.target.value);
            invite.reset();
          }}
          onBlur={() => setTouched(true)}
          error={(touched && !wellFormed) || serverRefusal !== null}
          helperText={
            touched && !wellFormed ? "That email address isn't correct" : (serverRefusal ?? T.emailHint)
          }
          slotProps={{ htmlInput: { maxLength: FIELD_LIMITS.email } }}
          sx={{ width: '100%', maxWidth: 480 }}
        />
        <Button type="submit" variant="contained" disabled={invite.isPending}>
          {T.makeLink}
        </Button>
      </Stack>
      {made && (
        <Alert severity="success" role="status" sx={{ '& .MuiAlert-message': { minWidth: 0 } }}>
          <Stack spacing={1}>
            <Typography>{T.newLink}</Typography>
            <CopyLine text={made.link} />
            {made.mailed && made.invitation.email && (
              <Typography>{T.mailed(made.invitation.email)}</Typography>
            )}
          </Stack>
        </Alert>
      )}
    </Section>
  );
}

function Invitations({ list }: { list: Invitation[] }) {
  const { revoke } = useAdminWrites();
  return (
    <Section title={T.listTitle}>
      {list.length === 0 ? (
        <Typography color="text.secondary">{T.none}</Typography>
      ) : (
        <Box component="ul" sx={{ m: 0, pl: 0, listStyle: 'none' }}>
          {list.map((i) => {
            const who = i.email ?? T.anyone;
            return (
              <Stack
                component="li"
                key={i.id}
                direction="row"
                spacing={1.5}
                useFlexGap
                sx={{
                  alignItems: 'center',
                  flexWrap: 'wrap',
                  py: 1,
                  borderBottom: 1,
                  borderColor: 'divider',
                }}
              >
                <Typography component="span" sx={{ fontWeight: 500, wordBreak: 'break-all' }}>
                  <bdi>{who}</bdi>
                </Typography>
                <Typography component="span" color="text.secondary">
                  {/* "used by …" alone: "used, used by …" said it twice (seen in the container walk). */}
                  {i.used_by ? (
                    <bdi>{T.usedBy(i.used_by)}</bdi>
                  ) : (
                    <>
                      {T.status[i.status]}
                      {i.status === 'open' && `, ${T.expires(dateFormat.format(new Date(i.expires_at)))}`}
                    </>
                  )}
                </Typography>
                {i.status === 'open' && (
                  <Button
                    size="small"
                    variant="outlined"
                    color="error"
                    disabled={revoke.isPending}
                    onClick={() => revoke.mutate(i.id)}
                    aria-label={T.revokeLabel(who)}
                  >
                    {T.revoke}
                  </Button>
                )}
              </Stack>
            );
          })}
        </Box>
      )}
      {revoke.isError && <Alert severity="error">{plainMessage(revoke.error)}</Alert>}
    </Section>
  );
}
