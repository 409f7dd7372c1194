import type { TrackRow as Row } from '@pacebeat/contract';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Link from '@mui/material/Link';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';
import { Fragment, type ReactNode } from 'react';
import { bpmText, SKIP_REASONS, sourceText, tempoText } from '../../choices/choices-texts.ts';
import { shortTime } from '../../status/status-format.ts';
import { SpotifyLogo } from '../SpotifyLogo/SpotifyLogo.tsx';

const spotifyUrl = (kind: 'track' | 'artist', id: string) =>
  `https://open.spotify.com/${kind}/${encodeURIComponent(id)}`;

/**
 * The runner's own tempo leads once they set one: what the sources said, and (a track placed before the
 * correction) the tempo it was placed with, follow in grey.
 */
function CorrectedTempo({ track, corrected }: { track: Row; corrected: number }) {
  const placedBefore = track.bpm !== null && track.bpm !== corrected;
  return (
    <>
      <Typography variant="body2" data-testid="track-tempo" sx={{ mt: 0.5 }}>
        <strong>Your tempo: {tempoText({ bpm: corrected, fold: placedBefore ? null : track.fold })}</strong>
        {track.resolver_bpm !== null && track.resolver_bpm !== corrected && (
          <Typography component="span" variant="body2" color="text.secondary">
            {' '}
            (the sources said {bpmText(track.resolver_bpm)} BPM)
          </Typography>
        )}
      </Typography>
      {placedBefore && (
        <Typography variant="body2" color="text.secondary">
          Placed here at {tempoText(track)}, before you corrected it
        </Typography>
      )}
    </>
  );
}

/**
 * One track of a target's lists: its title and artists linked to Spotify with Spotify's logo (their
 * branding rules: metadata from Spotify is attributed and links back), the tempo, where it came from, how it
 * meets the range, and why it is skipped. Every name is text that React escapes.
 */
export function TrackRow({
  track,
  actions,
  listIsPlaced = false,
}: {
  track: Row;
  actions?: ReactNode;
  /** In the Placed list, a track without an added time is being added right now. */
  listIsPlaced?: boolean;
}) {
  const source = sourceText(track);
  return (
    <Box
      component="li"
      data-testid="track-row"
      sx={{ py: 1.5, px: { xs: 1.5, sm: 2 }, borderBottom: 1, borderColor: 'divider', listStyle: 'none' }}
    >
      <Stack direction="row" spacing={1.5} sx={{ alignItems: 'flex-start' }}>
        <Link
          href={spotifyUrl('track', track.track_id)}
          target="_blank"
          rel="noopener noreferrer"
          aria-label={`${track.title} on Spotify`}
          sx={{ display: 'inline-flex', mt: 0.25 }}
        >
          <SpotifyLogo />
        </Link>
        <Box sx={{ minWidth: 0, flex: 1 }}>
          <Link
            href={spotifyUrl('track', track.track_id)}
            target="_blank"
            rel="noopener noreferrer"
            sx={{ fontWeight: 600, overflowWrap: 'anywhere' }}
          >
            <bdi>{track.title}</bdi>
          </Link>
          <Typography variant="body2" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {track.artists.map((a, i) => (
              <Fragment key={a.id}>
                {i > 0 && ', '}
                <Link
                  href={spotifyUrl('artist', a.id)}
                  target="_blank"
                  rel="noopener noreferrer"
                  color="inherit"
                >
                  <bdi>{a.name}</bdi>
                </Link>
              </Fragment>
            ))}
          </Typography>
          {track.corrected_bpm !== null ? (
            <CorrectedTempo track={track} corrected={track.corrected_bpm} />
          ) : (
            <Typography variant="body2" data-testid="track-tempo" sx={{ mt: 0.5 }}>
              {tempoText(track)}
              {source && (
                <Typography component="span" variant="body2" color="text.secondary">
                  {' '}
                  {source}
                </Typography>
              )}
            </Typography>
          )}
          <Stack direction="row" spacing={1} sx={{ mt: 0.5, flexWrap: 'wrap', rowGap: 0.5 }}>
            {track.reason && <Chip size="small" label={SKIP_REASONS[track.reason]} />}
            {!track.reason && track.excluded && (
              <Chip size="small" color="warning" label={`Excluded (${track.excluded}) since it was added`} />
            )}
            {track.added_at !== null && (
              <Typography variant="caption" color="text.secondary">
                Added {shortTime(track.added_at)}
              </Typography>
            )}
            {listIsPlaced && track.added_at === null && (
              <Typography variant="caption" color="text.secondary">
                Being added
              </Typography>
            )}
          </Stack>
          {actions}
        </Box>
      </Stack>
    </Box>
  );
}
