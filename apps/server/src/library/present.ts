// A source as the status page shows it (contract `Source`): the spec's fields, the tooltip HTML (every
// name that came from Spotify or the user escaped), the time in the user's zone, and scan progress.
import type { Source, SourceProgress } from '@pacebeat/contract';
import type { SourceRow } from './library.repository.ts';
import type { CatalogCounts, SourceCounts } from './source-stats.repository.ts';
import { unixSeconds } from './scan-context.ts';
import { formatLocalTime } from '../http/format-time.ts';

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => HTML_ESCAPES[c] as string);

/** Spotify's own page of a source (the link back its policy asks for next to its metadata). */
const OPEN = 'https://open.spotify.com';
const link = (url: string) =>
  `<a href="${escapeHtml(url)}" target="_blank" rel="noopener noreferrer">Open in Spotify</a>`;

export const NOT_READABLE =
  'Spotify lets this app read only playlists you own or collaborate on, so this one cannot be enabled.';

function tooltip(row: SourceRow, catalog: CatalogCounts | undefined): string {
  let html: string;
  switch (row.kind) {
    case 'liked_songs':
      html = `Your <b>Liked Songs</b>, read newest first. ${link(`${OPEN}/collection/tracks`)}`;
      break;
    case 'playlist': {
      const by = row.ownerName ? ` by ${escapeHtml(row.ownerName)}` : '';
      html = `Playlist <b>${escapeHtml(row.name)}</b>${by}. ${row.readable ? '' : `${NOT_READABLE} `}${link(
        `${OPEN}/playlist/${encodeURIComponent(row.sourceId)}`,
      )}`;
      break;
    }
    case 'followed_artists':
      html = `Every track of the artists you follow${catalog ? ` (${catalog.artists} artists)` : ''}.`;
      break;
    case 'artist_catalogs':
      html = `Every track of every artist in your enabled Liked Songs and playlists${
        catalog ? `: ${catalog.artistsRead} of ${catalog.artists} catalogs read so far` : ''
      }.`;
      break;
  }
  if (row.state === 'failed' && row.error) html += `<br>Last scan stopped: ${escapeHtml(row.error)}`;
  return html;
}

/**
 * The next moment a source's state changes by the clock alone (`progress`: a "waiting" whose resume time
 * passes, a rescan that falls due), so a cached read of the rows is read anew then.
 */
export function nextClockChange(rows: readonly SourceRow[], now: number): number | undefined {
  const times = rows
    .flatMap((r) => [r.resumesAt?.getTime(), r.dueAt?.getTime()])
    .filter((t): t is number => t !== undefined && t > now);
  return times.length > 0 ? Math.min(...times) : undefined;
}

function progress(
  row: SourceRow,
  counts: SourceCounts | undefined,
  catalog: CatalogCounts | undefined,
  now: number,
): SourceProgress {
  const catalogKind = row.kind === 'followed_artists' || row.kind === 'artist_catalogs';
  const catalogsLeft =
    row.kind === 'artist_catalogs' && catalog !== undefined && catalog.artistsRead < catalog.artists;
  let state: SourceProgress['state'];
  if (!row.readable || row.state === 'unreadable') state = 'unreadable';
  else if (row.state === 'failed') state = 'failed';
  else if (!row.enabled) state = 'idle';
  else if (row.resumesAt && row.resumesAt.getTime() > now) state = 'waiting';
  else if (row.cursor !== null || row.state === 'scanning' || catalogsLeft) state = 'scanning';
  else if (row.kind === 'playlist' && row.readSnapshot !== (row.snapshot ?? '')) state = 'scanning';
  else if (row.kind !== 'playlist' && row.dueAt !== null && row.dueAt.getTime() <= now) state = 'scanning';
  else state = 'idle';
  return {
    state,
    pages_read: row.pagesRead,
    pages_total: row.kind === 'artist_catalogs' ? null : row.pagesTotal,
    // Artist catalogs count releases: the scan reads every artist's listing and albums before anyone's
    // singles, so whole catalogs finish late (hours of "0 of 84" while thousands of tracks arrive). The
    // releases' total is known once every artist's listing is read.
    items_read: row.kind === 'artist_catalogs' ? (catalog?.releasesRead ?? 0) : row.itemsRead,
    items_total:
      row.kind === 'artist_catalogs'
        ? catalog && catalog.artistsListed >= catalog.artists
          ? catalog.releases
          : null
        : row.total,
    tracks_with_tempo: (catalogKind ? catalog?.tracksWithTempo : counts?.tracksWithTempo) ?? 0,
    resumes_at: state === 'waiting' ? unixSeconds(row.resumesAt) : null,
    error: state === 'failed' ? row.error : null,
  };
}

/** One row of the Sources table. */
export function presentSource(
  row: SourceRow,
  counts: SourceCounts | undefined,
  catalog: CatalogCounts | undefined,
  o: { timeZone: string | null; now: number },
): Source {
  const catalogKind = row.kind === 'followed_artists' || row.kind === 'artist_catalogs';
  const known = catalogKind ? catalog?.knownTracks : counts?.knownTracks;
  // Known once something was read (a source read empty holds 0 tracks, which is known).
  const readSomething = row.lastFinishedAt !== null || row.pagesRead > 0 || (known ?? 0) > 0;
  return {
    kind: row.kind,
    source_id: row.sourceId,
    name: row.name,
    front_tooltip: tooltip(row, catalog),
    enabled: row.enabled,
    can_enable: row.readable,
    timestamp_last_job_finished: unixSeconds(row.lastFinishedAt),
    timestamp_last_job_finished_str: row.lastFinishedAt
      ? formatLocalTime(row.lastFinishedAt, o.timeZone)
      : null,
    stats: readSomething ? { known_tracks: known ?? 0 } : {},
    progress: progress(row, counts, catalog, o.now),
  };
}
