import type { Source } from '@pacebeat/contract';
import Box from '@mui/material/Box';
import LinearProgress from '@mui/material/LinearProgress';
import Typography from '@mui/material/Typography';
import { progressPercent, progressText, tempoLine } from '../../status/status-format.ts';
import { ServerHtmlTooltip } from '../ServerHtmlTooltip/ServerHtmlTooltip.tsx';

/**
 * A source's name with its info tooltip (spec §2), and below it where its scan stands (beyond the spec):
 * "1,240 of 10,000 read" with a bar, "waiting for Spotify until 14:05", "Scan failed: …".
 */
export function SourceName({ source }: { source: Source }) {
  const p = source.progress;
  const line = progressText(p, source.kind);
  const percent = progressPercent(p);
  const tempo = tempoLine(p, source.stats.known_tracks);
  const failed = p.state === 'failed';
  return (
    <Box sx={{ minWidth: 0 }}>
      <Box sx={{ display: 'flex', alignItems: 'center', overflowWrap: 'anywhere' }}>
        <bdi>{source.name}</bdi>
        {source.front_tooltip ? (
          <ServerHtmlTooltip html={source.front_tooltip} label={`About ${source.name}`} />
        ) : null}
      </Box>
      {(line || tempo) && (
        <Typography variant="body2" color="text.secondary" data-testid="source-progress">
          {line && (
            <Box component="span" sx={failed ? { color: 'error.main' } : undefined}>
              {line}
            </Box>
          )}
          {line && tempo ? ' · ' : null}
          {tempo}
        </Typography>
      )}
      {percent !== null && (
        <LinearProgress
          variant="determinate"
          value={percent}
          aria-label={`${source.name}: ${percent} % read`}
          sx={{ mt: 0.5, maxWidth: 240, borderRadius: 1 }}
        />
      )}
    </Box>
  );
}
