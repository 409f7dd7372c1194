import type { Source } from '@pacebeat/contract';
import Alert from '@mui/material/Alert';
import AlertTitle from '@mui/material/AlertTitle';
import { useEffect } from 'react';
import { useSession } from '../../session/session-context.ts';
import { formatTime } from '../../status/status-format.ts';

/**
 * When the call budget is spent or Spotify asked us to wait, says when Spotify work resumes; when it is the
 * runner's own fair share of the day that is used, says so.
 */
export function SpotifyPausedNotice() {
  const { services, disabled_services } = useSession();
  const spotify = services['spotify'];
  const resumes = spotify?.work_resumes_at;
  // A disabled connection resumes nothing by itself: its red alert says what to do instead.
  if (!resumes || disabled_services.some((d) => d.service === 'spotify')) return null;
  const when = formatTime(resumes);
  return (
    <Alert severity="warning" variant="outlined" sx={{ mb: 3 }} role="status" aria-label="Spotify paused">
      {spotify.work_waits_for === 'share'
        ? `Your share of today's Spotify calls is used: the runners here share Spotify's daily limit, each an equal part. Your scans and playlist updates resume at ${when}; what your playlists hold stays.`
        : `Spotify asked Pacebeat to slow down: scans and playlist updates resume at ${when}.`}
    </Alert>
  );
}

/** A wait longer than this is Spotify's daily limit (rate waits last seconds, a 429 minutes). */
const DAILY_LIMIT_WAIT_S = 10 * 60;
const CATALOG_KINDS: ReadonlyArray<Source['kind']> = ['followed_artists', 'artist_catalogs'];

/**
 * Near the top of the status page: when Spotify's daily limit stops reading sources, what waits,
 * why, until when, and what goes on meanwhile. From the sources' own waits (`progress.resumes_at`).
 */
export function DailyLimitNotice({ sources }: { sources: Source[] }) {
  const { disabled_services, services, requestRefresh } = useSession();
  // The runner's own part of the day for reading catalogs is used, not Spotify's limit for everyone.
  const share = services['spotify']?.catalogs_wait_for === 'share';
  const text = dailyLimitText(sources, { share });
  // Why the catalogs wait comes with the session, read once per page: when the sources' waits change (the
  // page polls them), read it again, so the title says what holds now.
  const waits = waitingKey(sources);
  useEffect(() => {
    if (waits) requestRefresh();
  }, [waits, requestRefresh]);
  // "Nothing to do on your side" would contradict the red alert of a disabled (revoked) connection.
  if (!text || disabled_services.some((d) => d.service === 'spotify')) return null;
  // The runner's own share of the day is used, not Spotify's limit: the paused notice says so, and that
  // their playlist updates wait too (they stop before the share's last calls), which this text would deny.
  if (services['spotify']?.work_waits_for === 'share') return null;
  if (share)
    return (
      <Alert severity="info" role="status" aria-label="Your share of Spotify's calls">
        <AlertTitle>Your share of today&apos;s Spotify calls is used</AlertTitle>
        {text}
      </Alert>
    );
  // Only the catalogs wait: the part of the day Pacebeat gives them is used (it keeps the rest for the
  // runners' own libraries and playlists), which is not Spotify's limit.
  const onlyCatalogs = longWaits(sources).every((s) => CATALOG_KINDS.includes(s.kind));
  return (
    <Alert severity="info" role="status" aria-label="Spotify's daily limit">
      <AlertTitle>
        {onlyCatalogs ? "Reading artists' catalogs is paused" : "Spotify's daily limit reached"}
      </AlertTitle>
      {text}
    </Alert>
  );
}

/** The enabled sources that wait longer than a rate wait: for Spotify's day (or the runner's part of it). */
function longWaits(sources: Source[], now = Date.now()): Source[] {
  return sources.filter(
    (s) =>
      s.enabled &&
      s.progress.state === 'waiting' &&
      s.progress.resumes_at !== null &&
      s.progress.resumes_at * 1000 - now > DAILY_LIMIT_WAIT_S * 1000,
  );
}

/** What waits, and until when: changes when a source starts or stops waiting (null when none waits). */
const waitingKey = (sources: Source[]): string | null => {
  const key = longWaits(sources)
    .map((s) => `${s.kind}:${s.progress.resumes_at}`)
    .sort()
    .join(',');
  return key || null;
};

/**
 * The notice's text, or null when no source waits for the daily limit. `share`: what is used is the
 * runner's own equal part of the day, not the installation's whole day.
 */
export function dailyLimitText(
  sources: Source[],
  { now = Date.now(), share = false }: { now?: number; share?: boolean } = {},
): string | null {
  const waiting = longWaits(sources, now);
  if (waiting.length === 0) return null;
  const until = formatTime(Math.max(...waiting.map((s) => s.progress.resumes_at!)));
  const libraryWaits = waiting.some((s) => !CATALOG_KINDS.includes(s.kind));
  const why = share
    ? `Spotify allows Pacebeat only so many calls a day, shared equally by the runners here, and your part ` +
      `for reading is used today, so reading `
    : libraryWaits
      ? `Spotify allows Pacebeat only so many calls a day, shared equally by the runners here, so reading `
      : `Spotify allows Pacebeat only so many calls a day, and Pacebeat keeps part of them for the runners' ` +
        `own libraries and playlists, so reading `;
  if (!libraryWaits)
    return (
      `${why}` +
      `your artists' catalogs waits until ` +
      `${until}. Meanwhile your liked songs and playlists are still read, tempos are still found, and ` +
      `new matches still go into your playlists. Nothing to do on your side.`
    );
  return (
    `${why}your library waits until ${until}. ` +
    `Meanwhile tempos are still found for the songs already read, and new matches still go into your ` +
    `playlists. Nothing to do on your side.`
  );
}
