import Alert from '@mui/material/Alert';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import type { ReactNode } from 'react';
import { DisabledServiceAlerts } from '../components/DisabledServiceAlerts/DisabledServiceAlerts.tsx';
import { LibrarySummary } from '../components/LibrarySummary/LibrarySummary.tsx';
import { SourcesTable } from '../components/SourcesTable/SourcesTable.tsx';
import { DailyLimitNotice } from '../components/SpotifyPausedNotice/SpotifyPausedNotice.tsx';
import { StillLoading } from '../components/StillLoading/StillLoading.tsx';
import { FirstFillNotice, TargetsTable } from '../components/TargetsTable/TargetsTable.tsx';
import { useReadOnlyReason } from '../session/read-only.ts';
import { useSession } from '../session/session-context.ts';
import { SudoLink } from '../session/sudo-navigation.tsx';
import { useDelayedFlag } from '../session/use-delayed-flag.ts';
import { STATUS_TEXTS as T } from '../status/status-format.ts';
import { useStatusData } from '../status/status-queries.ts';
import { STILL_LOADING_AFTER_MS } from '../timing.ts';

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replaceAll(' ', '-')}`;
  return (
    <Stack component="section" spacing={1.5} aria-labelledby={id}>
      <Typography variant="h2" id={id}>
        {title}
      </Typography>
      {children}
    </Stack>
  );
}

/** Who the page is about: the runner, or (sudo) the user an admin is viewing. */
function Greeting() {
  const { user, sudo } = useSession();
  const who = user?.name.trim() || user?.email || '';
  return (
    <Stack spacing={0.5}>
      <Typography variant="h1">
        {sudo ? `Running playlists of ${who}` : `Hello${who ? `, ${who.split(/\s+/)[0]}` : ''}!`}
      </Typography>
      <Typography color="text.secondary">
        Pacebeat fills these playlists from your library on its own, one per pace. This page updates by
        itself.
      </Typography>
    </Stack>
  );
}

/**
 * The signed-in side of / (spec §2, §4): disabled-service alerts, the "Target playlists" and "Sources"
 * tables, the still-loading indicator after 1 s, and (beyond the spec) the library summary and each
 * source's progress. Loaded on demand: a visitor's first load does not need it.
 */
export default function SignedInStatus() {
  const status = useStatusData();
  const stillLoading = useDelayedFlag(status.isLoading && !status.errorBackend, STILL_LOADING_AFTER_MS);
  const hasData = Boolean(status.targets || status.sources);
  const readOnly = useReadOnlyReason();

  return (
    <Stack spacing={{ xs: 3, sm: 4 }}>
      <Greeting />
      <DisabledServiceAlerts />
      {status.sources && <DailyLimitNotice sources={status.sources} />}
      {status.errorBackend &&
        (hasData ? (
          <Alert severity="warning">{T.internalError}</Alert>
        ) : (
          <Typography color="text.secondary">{T.internalError}</Typography>
        ))}
      {stillLoading && <StillLoading text={T.stillLoading} />}
      {status.summary && <LibrarySummary summary={status.summary} />}
      {status.targets && (
        <Section title={T.targetsTitle}>
          <FirstFillNotice firstFill={status.firstFill} targets={status.targets} />
          <TargetsTable targets={status.targets} />
          <Link component={SudoLink} to="/paces" sx={{ alignSelf: 'flex-start' }}>
            Edit paces and filters, see your library&apos;s tempo
          </Link>
          <Link component={SudoLink} to="/runs" sx={{ alignSelf: 'flex-start' }}>
            Runs: a playlist for today&apos;s workout, part by part
          </Link>
        </Section>
      )}
      {status.sources && (
        <Section title={T.sourcesTitle}>
          {readOnly && (
            <Typography variant="body2" color="text.secondary" data-testid="read-only-reason">
              {readOnly}
            </Typography>
          )}
          <SourcesTable sources={status.sources} />
        </Section>
      )}
    </Stack>
  );
}
