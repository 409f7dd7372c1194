import type { FirstFill, Source, SourceProgress, Target } from '@pacebeat/contract';
import { spotifyLink } from '@pacebeat/contract/rules';

/** The status page's texts (spec §2), word for word where the spec quotes them. */
export const STATUS_TEXTS = {
  targetsTitle: 'Target playlists',
  sourcesTitle: 'Sources',
  creating: '(creating...)',
  noTimestamp: '-',
  noStats: 'N/A',
  stillLoading: 'Please wait... Still trying to load page...',
  internalError: '(Internal error occured! should not be here!)',
} as const;

const numberFormat = new Intl.NumberFormat();
/** Counts as a runner reads them, in their locale: 10,000 rather than 10000. */
export const count = (n: number) => numberFormat.format(n);

/** BPM as min-max (spec §2). */
export const bpmRange = (t: Target) => `${t.bpms.min}-${t.bpms.max}`;

/** A preformatted time string, or '-' when the timestamp is absent (spec §2). */
export const lastJob = (row: Pick<Target | Source, 'timestamp_last_job_finished_str'>) =>
  row.timestamp_last_job_finished_str ?? STATUS_TEXTS.noTimestamp;

/** A count, or N/A when the stats are missing (spec §2). */
export const statOrNa = (n: number | undefined) => (n === undefined ? STATUS_TEXTS.noStats : count(n));

/** How the Name cell of a target reads (spec §2, §4): a link once published, else plain or "creating". */
export type TargetNameState = 'published' | 'plain' | 'creating';
export function targetNameState(t: Target): TargetNameState {
  if (spotifyLink(t.public_url)) return 'published';
  return t.timestamp_last_job_finished !== null ? 'plain' : 'creating';
}

/**
 * One time format everywhere: the options the server formats the tables' times with
 * (apps/server/src/http/format-time.ts, in the locale the browser sends), in the browser's zone and locale.
 */
const timeFormat = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
});
export const formatTime = (unixSeconds: number) => timeFormat.format(new Date(unixSeconds * 1000));

/** The same format (kept for the pages that call it by this name). */
export const shortTime = (unixSeconds: number, _now?: number): string => formatTime(unixSeconds);

/**
 * One line on where a source's scan stands (beyond the spec): "1,240 of 10,000 read", "waiting for
 * Spotify until 14:05", "failed: …". Null when there is nothing to say beyond the counts.
 */
export function progressText(p: SourceProgress, kind?: Source['kind'], now = Date.now()): string | null {
  // Artist catalogs count releases (albums, singles); the other sources count what their list holds.
  const unit = kind === 'artist_catalogs' ? ' releases' : '';
  const read =
    p.items_total !== null
      ? `${count(p.items_read)} of ${count(p.items_total)}${unit} read`
      : p.items_read > 0
        ? `${count(p.items_read)}${unit} read so far`
        : null;
  switch (p.state) {
    case 'scanning':
      return read ?? 'Scan starting...';
    case 'waiting': {
      const until = p.resumes_at !== null ? ` until ${shortTime(p.resumes_at, now)}` : '';
      return `${read ? `${read}; ` : ''}waiting for Spotify${until}`;
    }
    case 'failed':
      return `Scan failed: ${p.error ?? 'no reason given'}`;
    case 'unreadable':
      return 'Spotify does not let Pacebeat read this one';
    case 'idle':
      return null;
  }
}

/** Share of a source's scan done, 0-100, when its total is known and it is still running. */
export function progressPercent(p: SourceProgress): number | null {
  if (p.state !== 'scanning' && p.state !== 'waiting') return null;
  if (!p.items_total) return null;
  return Math.min(100, Math.round((p.items_read / p.items_total) * 100));
}

/** "812 with a known tempo" (of the source's songs, as the summary and the chart count), for a source with songs. */
export const tempoLine = (p: SourceProgress, known: number | undefined) =>
  known ? `${count(p.tracks_with_tempo)} with a known tempo` : null;

/**
 * What happens before the first playlists exist: how many songs at the runner's paces were found
 * so far and at how many the playlists appear. Null once a playlist exists (or with no targets).
 */
export function firstFillText(firstFill: FirstFill | null, targets: Target[]): string | null {
  if (targets.length === 0 || targets.some((t) => t.public_url !== null)) return null;
  if (firstFill === null) {
    // The writer has not planned yet (the library's first pages and tempos are on their way).
    if (targets.some((t) => t.timestamp_last_job_finished !== null)) return null;
    return 'Finding songs at your paces: reading your library first.';
  }
  // The writer fills at `needed` matches, or a few seconds after the first match (firstFillWaitMs).
  if (firstFill.matches >= firstFill.needed)
    return `Found ${count(firstFill.matches)} songs at your paces: creating your playlists in Spotify...`;
  if (firstFill.matches === 0)
    return 'Finding songs at your paces: none so far; your playlists appear a few seconds after the first.';
  return `Finding songs at your paces: ${count(firstFill.matches)} so far; your playlists appear in a few seconds.`;
}
