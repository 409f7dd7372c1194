import type { Run, RunSong } from '@pacebeat/contract';
import { formatDuration } from '@pacebeat/contract/rules';
import Box from '@mui/material/Box';
import Chip from '@mui/material/Chip';
import Stack from '@mui/material/Stack';
import Typography from '@mui/material/Typography';

const clock = (s: number) => {
  const t = Math.max(0, Math.round(s));
  const h = Math.floor(t / 3600);
  const m = Math.floor((t % 3600) / 60);
  const sec = String(t % 60).padStart(2, '0');
  return h ? `${h}:${String(m).padStart(2, '0')}:${sec}` : `${m}:${sec}`;
};
const bpmText = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** The beat the runner steps to, and how the song's own tempo meets it. */
function tempoText(s: RunSong): string {
  if (s.fit === 'half_time') return `${bpmText(s.bpm)} BPM, half-time: ${bpmText(s.bpm * 2)} steps`;
  if (s.fit === 'double_time') return `${bpmText(s.bpm)} BPM, double time: ${bpmText(s.bpm / 2)} steps`;
  return `${bpmText(s.bpm)} BPM`;
}

function SongItem({ song }: { song: RunSong }) {
  return (
    <Box component="li" sx={{ py: 0.75, borderBottom: 1, borderColor: 'divider' }}>
      <Stack direction="row" spacing={1} sx={{ alignItems: 'baseline', flexWrap: 'wrap' }} useFlexGap>
        <Typography component="span" variant="body2" color="text.secondary" sx={{ minWidth: '3.5em' }}>
          {clock(song.start_s)}
        </Typography>
        <Box sx={{ flex: '1 1 12em', minWidth: 0 }}>
          <Typography component="span" sx={{ fontWeight: 500, overflowWrap: 'anywhere' }}>
            <bdi>{song.title}</bdi>
          </Typography>
          <Typography component="span" color="text.secondary" sx={{ overflowWrap: 'anywhere' }}>
            {' · '}
            <bdi>{song.artists.join(', ')}</bdi>
          </Typography>
        </Box>
        <Typography component="span" variant="body2">
          {tempoText(song)} · {clock(song.duration_ms / 1000)}
        </Typography>
        {song.fit === 'half_time' && <Chip size="small" label="half-time" variant="outlined" />}
        {song.spans && <Chip size="small" label="plays across the change" variant="outlined" />}
      </Stack>
    </Box>
  );
}

/** The run's parts in order, each with the songs that play in it (title, artist, tempo, duration). */
export function RunTimeline({ run }: { run: Run }) {
  const songs = run.build?.songs ?? [];
  return (
    <Stack component="ol" spacing={2} sx={{ listStyle: 'none', p: 0, m: 0 }} aria-label="The run's timeline">
      {run.segments.map((seg) => {
        const mine = songs.filter((s) => s.segment === seg.index);
        const title = seg.label || `Part ${seg.index + 1}`;
        return (
          <Box component="li" key={seg.index} aria-labelledby={`segment-${seg.index}`}>
            <Typography
              variant="h3"
              id={`segment-${seg.index}`}
              sx={{ fontSize: '1.05rem', fontWeight: 600 }}
            >
              {clock(seg.start_s)} · {title}
              {seg.round !== null ? ` (round ${seg.round})` : ''} · {formatDuration(seg.duration_s)} ·{' '}
              {bpmText(seg.min_bpm)}–{bpmText(seg.max_bpm)} BPM
            </Typography>
            <Typography variant="body2" color="text.secondary">
              {seg.pool === 1 ? '1 of your songs fits' : `${seg.pool} of your songs fit`}
            </Typography>
            {run.build &&
              (mine.length > 0 ? (
                <Box component="ol" sx={{ listStyle: 'none', p: 0, m: 0 }}>
                  {mine.map((s) => (
                    <SongItem key={`${s.track_id}-${s.start_s}`} song={s} />
                  ))}
                </Box>
              ) : (
                <Typography variant="body2">
                  No song of its own: the song before plays on, or the run moves up.
                </Typography>
              ))}
          </Box>
        );
      })}
    </Stack>
  );
}
