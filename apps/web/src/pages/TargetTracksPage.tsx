import type { TrackList } from '@pacebeat/contract';
import { spotifyLink } from '@pacebeat/contract/rules';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Tab from '@mui/material/Tab';
import Tabs from '@mui/material/Tabs';
import Typography from '@mui/material/Typography';
import { useEffect } from 'react';
import { useParams, useSearchParams } from 'react-router';
import { isApiError } from '../api/client.ts';
import { lastPageOffset, PAGE_SIZE, useTargetTracks } from '../choices/choices-queries.ts';
import { LISTS, pastTheEnd } from '../choices/choices-texts.ts';
import { UndoSnackbarProvider } from '../choices/UndoSnackbar.tsx';
import { Pager } from '../components/Pager/Pager.tsx';
import { SpotifyLogo } from '../components/SpotifyLogo/SpotifyLogo.tsx';
import { StillLoading } from '../components/StillLoading/StillLoading.tsx';
import { TrackActions } from '../components/TrackList/TrackActions.tsx';
import { TrackRow } from '../components/TrackList/TrackRow.tsx';
import { READ_ONLY_REASON } from '../session/read-only.ts';
import { RequireSignIn } from '../session/RequireSignIn.tsx';
import { useSession } from '../session/session-context.ts';
import { SudoLink } from '../session/sudo-navigation.tsx';
import { useDelayedFlag } from '../session/use-delayed-flag.ts';
import { STILL_LOADING_AFTER_MS } from '../timing.ts';

/** The lists, in tab order (the contract's TrackList; kept here so the page ships no zod). */
const ORDER: readonly TrackList[] = ['placed', 'waiting', 'skipped'];
const asList = (v: string | null): TrackList => ORDER.find((l) => l === v) ?? 'placed';

/**
 * /targets/:targetId: what Pacebeat placed in one target and why, what fits and waits,
 * and what it skips; each track's tempo can be fixed and a track or artist excluded (not in sudo mode).
 * The list and the page are in the address (`?list=waiting&offset=25`), so a reload or a link keeps them;
 * an offset past the end of the list goes to its last page. A visitor is sent to /login.
 */
export function TargetTracksPage() {
  return (
    <RequireSignIn>
      <UndoSnackbarProvider>
        <TargetTracks />
      </UndoSnackbarProvider>
    </RequireSignIn>
  );
}

function TargetTracks() {
  const { targetId = '' } = useParams();
  const [params, setParams] = useSearchParams();
  const { sudo } = useSession();
  const list = asList(params.get('list'));
  const offset = Math.max(0, Math.floor(Number(params.get('offset')) || 0));
  const q = useTargetTracks(targetId, list, offset);
  const slow = useDelayedFlag(q.isPending, STILL_LOADING_AFTER_MS);
  const go = (next: { list?: TrackList; offset?: number }) =>
    setParams((p) => {
      const out = new URLSearchParams(p);
      out.set('list', next.list ?? list);
      out.set('offset', String(next.offset ?? 0));
      return out;
    });

  const data = q.data?.data;
  // This page's own answer (not the previous page kept while it loads) says the offset is past the end.
  const beyond = data && !q.isPlaceholderData && data.tracks.length === 0 && data.total > 0 && offset > 0;
  const last = data ? lastPageOffset(data.total, PAGE_SIZE) : 0;
  useEffect(() => {
    if (!beyond) return;
    setParams(
      (p) => {
        const out = new URLSearchParams(p);
        out.set('offset', String(last));
        return out;
      },
      { replace: true },
    );
  }, [beyond, last, setParams]);
  const title = data?.target.target ?? 'Target playlist';
  return (
    <Stack spacing={2}>
      <Link component={SudoLink} to="/" sx={{ alignSelf: 'flex-start' }}>
        Back to main page
      </Link>
      <Box>
        <Typography variant="h1" sx={{ overflowWrap: 'anywhere' }}>
          <bdi>{title}</bdi>
        </Typography>
        {data && (
          <Stack
            direction="row"
            useFlexGap
            spacing={2}
            sx={{ alignItems: 'center', flexWrap: 'wrap', rowGap: 0.5, mt: 0.5 }}
          >
            <Typography color="text.secondary">
              {data.target.bpms.min}-{data.target.bpms.max} BPM
            </Typography>
            {spotifyLink(data.target.public_url) && (
              <Link
                href={spotifyLink(data.target.public_url)!}
                target="_blank"
                rel="noopener noreferrer"
                sx={{ display: 'inline-flex', alignItems: 'center', gap: 1 }}
              >
                <SpotifyLogo />
                Open in Spotify
              </Link>
            )}
            <Link component={SudoLink} to="/excluded">
              Excluded tracks and artists
            </Link>
          </Stack>
        )}
      </Box>
      <Tabs
        value={list}
        onChange={(_e, v: TrackList) => go({ list: v })}
        aria-label="Lists of this playlist"
        variant="fullWidth"
      >
        {ORDER.map((l) => (
          <Tab key={l} value={l} label={LISTS[l].tab} id={`tab-${l}`} aria-controls="track-list" />
        ))}
      </Tabs>
      <Box role="tabpanel" id="track-list" aria-labelledby={`tab-${list}`}>
        <Typography variant="body2" color="text.secondary" sx={{ mb: 1 }}>
          {LISTS[list].about}
        </Typography>
        {q.error && (
          <Alert severity="error">
            {isApiError(q.error) && q.error.status === 404 ? 'No such target playlist.' : q.error.message}
          </Alert>
        )}
        {slow && <StillLoading text="Please wait... Still trying to load page..." />}
        {sudo && (
          <Alert severity="info" sx={{ mb: 1 }}>
            {READ_ONLY_REASON}
          </Alert>
        )}
        {data && data.tracks.length === 0 && (
          <Typography color="text.secondary">
            {data.total === 0 ? LISTS[list].empty : pastTheEnd(data.total)}
          </Typography>
        )}
        {data && data.tracks.length > 0 && (
          <Box
            component="ul"
            aria-label={`${LISTS[list].tab} tracks`}
            sx={{
              p: 0,
              m: 0,
              border: 1,
              borderColor: 'divider',
              borderRadius: 1,
              bgcolor: 'background.paper',
            }}
          >
            {data.tracks.map((t) => (
              <TrackRow
                key={t.recording_key}
                track={t}
                actions={sudo ? undefined : <TrackActions track={t} />}
              />
            ))}
          </Box>
        )}
        {data && (
          <Box sx={{ mt: 1 }}>
            <Pager
              label={`Pages of ${LISTS[list].tab.toLowerCase()} tracks`}
              offset={offset}
              shown={data.tracks.length}
              total={data.total}
              pageSize={PAGE_SIZE}
              nextOffset={data.next_offset}
              onOffset={(o) => go({ offset: o })}
            />
          </Box>
        )}
      </Box>
    </Stack>
  );
}
