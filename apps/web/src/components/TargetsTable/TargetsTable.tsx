import type { FirstFill, Target } from '@pacebeat/contract';
import { spotifyLink } from '@pacebeat/contract/rules';
import Alert from '@mui/material/Alert';
import Box from '@mui/material/Box';
import Card from '@mui/material/Card';
import CardContent from '@mui/material/CardContent';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import { useTheme } from '@mui/material/styles';
import Table from '@mui/material/Table';
import TableBody from '@mui/material/TableBody';
import TableCell from '@mui/material/TableCell';
import TableHead from '@mui/material/TableHead';
import TableRow from '@mui/material/TableRow';
import Typography from '@mui/material/Typography';
import useMediaQuery from '@mui/material/useMediaQuery';
import {
  bpmRange,
  firstFillText,
  lastJob,
  statOrNa,
  STATUS_TEXTS as T,
  targetNameState,
} from '../../status/status-format.ts';
import { SpotifyLogo } from '../SpotifyLogo/SpotifyLogo.tsx';
import { CardField } from '../CardField/CardField.tsx';
import { SudoLink } from '../../session/sudo-navigation.tsx';
import { TableFrame } from '../TableFrame/TableFrame.tsx';

/**
 * The target's name (spec §2): a link to its Spotify playlist with Spotify's logo once it has a public
 * URL; plain once a first job finished; otherwise followed by "(creating...)".
 */
export function TargetName({ target }: { target: Target }) {
  switch (targetNameState(target)) {
    case 'published':
      return (
        <Link
          href={spotifyLink(target.public_url)!}
          target="_blank"
          rel="noopener noreferrer"
          sx={{ display: 'inline-flex', alignItems: 'center', gap: 1, fontWeight: 600 }}
        >
          <SpotifyLogo />
          <bdi>{target.target}</bdi>
        </Link>
      );
    case 'plain':
      return <bdi>{target.target}</bdi>;
    case 'creating':
      return (
        <>
          <bdi>{target.target}</bdi>{' '}
          <Typography component="span" variant="inherit" color="text.secondary">
            {T.creating}
          </Typography>
        </>
      );
  }
}

/**
 * The "Tracks added" count (spec §2: the count, or N/A), linked (beyond the spec) to the target's page:
 * what was placed and why, what waits, what was skipped. The visible text stays the spec's.
 */
function TracksAdded({ target }: { target: Target }) {
  const text = statOrNa(target.stats?.tracks_added);
  return (
    <Link
      component={SudoLink}
      to={`/targets/${encodeURIComponent(target.target_id)}`}
      aria-label={`${text} tracks added to ${target.target}: see them`}
    >
      {text}
    </Link>
  );
}

const HEAD = ['Name', 'BPM', 'Last update', 'Tracks added', 'In 7 days'] as const;
/** What the counts count, on hover over the spec's column names. */
const HEAD_NOTES: Partial<Record<(typeof HEAD)[number], string>> = {
  'Tracks added': 'Songs Pacebeat added that the playlist holds now (not those removed since)',
  'In 7 days': 'Of those, the ones added in the last 7 days',
};

/** Before the first playlists exist: what is happening and how far it is. */
export function FirstFillNotice({ firstFill, targets }: { firstFill: FirstFill | null; targets: Target[] }) {
  const text = firstFillText(firstFill, targets);
  if (!text) return null;
  return (
    <Alert severity="info" role="status" aria-label="First playlists">
      {text}
    </Alert>
  );
}

/** The "Target playlists" table (spec §2): a table from 600 px up, a card per playlist on a phone. */
export function TargetsTable({ targets }: { targets: Target[] }) {
  const phone = useMediaQuery(useTheme().breakpoints.down('sm'));
  if (targets.length === 0) {
    return <Typography color="text.secondary">No target playlists yet.</Typography>;
  }
  if (phone) {
    return (
      <Stack spacing={1.5} component="ul" aria-label={T.targetsTitle} sx={{ p: 0, m: 0, listStyle: 'none' }}>
        {targets.map((t) => (
          <Card component="li" variant="outlined" key={t.target_id}>
            <CardContent sx={{ '&:last-child': { pb: 2 } }}>
              <Typography component="div" sx={{ mb: 1, overflowWrap: 'anywhere' }}>
                <TargetName target={t} />
              </Typography>
              <Box sx={{ display: 'grid', gridTemplateColumns: '1fr 1fr', gap: 1 }}>
                <CardField label="BPM" value={bpmRange(t)} />
                <CardField label="Last update" value={lastJob(t)} />
                <CardField label="Tracks added" value={<TracksAdded target={t} />} />
                <CardField label="In 7 days" value={statOrNa(t.stats?.tracks_added_7days)} />
              </Box>
            </CardContent>
          </Card>
        ))}
      </Stack>
    );
  }
  return (
    <TableFrame>
      <Table size="small" aria-label={T.targetsTitle}>
        <TableHead>
          <TableRow>
            {HEAD.map((h, i) => (
              <TableCell
                key={h}
                title={HEAD_NOTES[h]}
                align={i >= 3 ? 'right' : 'left'}
                sx={{ fontWeight: 600, whiteSpace: 'nowrap' }}
              >
                {h}
              </TableCell>
            ))}
          </TableRow>
        </TableHead>
        <TableBody>
          {targets.map((t) => (
            <TableRow key={t.target_id}>
              <TableCell sx={{ overflowWrap: 'anywhere' }}>
                <TargetName target={t} />
              </TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{bpmRange(t)}</TableCell>
              <TableCell sx={{ whiteSpace: 'nowrap' }}>{lastJob(t)}</TableCell>
              <TableCell align="right">
                <TracksAdded target={t} />
              </TableCell>
              <TableCell align="right">{statOrNa(t.stats?.tracks_added_7days)}</TableCell>
            </TableRow>
          ))}
        </TableBody>
      </Table>
    </TableFrame>
  );
}
