import type { SourcesReply } from '@pacebeat/contract';
import Typography from '@mui/material/Typography';
import { count } from '../../status/status-format.ts';

type Summary = SourcesReply['data']['summary'];

/**
 * The library at a glance (beyond the spec): songs of the enabled sources and how many have a tempo Pacebeat
 * trusts, the same figures as the tempo chart's on /paces (a song on several records counts once).
 */
export function LibrarySummary({ summary }: { summary: Summary }) {
  if (summary.tracks_known === 0) {
    return (
      <Typography color="text.secondary" data-testid="library-summary">
        Reading your library: no songs found yet.
      </Typography>
    );
  }
  const percent = Math.floor((summary.tracks_with_tempo / summary.tracks_known) * 100);
  // "11 with a known tempo (0 %)" reads as a contradiction: under 1 % says so.
  const share = percent === 0 && summary.tracks_with_tempo > 0 ? '<1' : String(percent);
  return (
    <Typography color="text.secondary" data-testid="library-summary">
      Your library: {count(summary.tracks_known)} songs, {count(summary.tracks_with_tempo)} with a known tempo
      ({share} %)
      {summary.tracks_without_tempo > 0 ? `, ${count(summary.tracks_without_tempo)} still without one` : ''}.
    </Typography>
  );
}
