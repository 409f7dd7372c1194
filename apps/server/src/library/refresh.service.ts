// "Refresh now" and the tempo chart. A refresh is the library's own rescan, queued as a
// library-scan job like any other, so it keeps the budget rules: it runs at the scans' priority, and when
// Spotify's call budget is spent it waits, and the answer says until when.
import type { RefreshBody, RefreshReply, TempoHistogramReply } from '@pacebeat/contract';
import { TEMPO_FOLD } from '@pacebeat/contract';
import { formatLocalTime } from '../http/format-time.ts';
import { conflict, notFound } from '../errors.ts';
import type { LibraryRepository } from './library.repository.ts';
import { foldHistogram } from './tempo-histogram.ts';
import type { TempoHistogramRepository } from './tempo-histogram.repository.ts';

export interface ScanWait {
  until: Date;
  reason: 'spotify' | 'share';
}

/** A refresh of everything asked for within this long of the last one is already queued. */
export const REFRESH_MIN_MS = 60_000;

export interface RefreshServiceDeps {
  repo: Pick<LibraryRepository, 'requestRescan' | 'refreshSource' | 'getSource'>;
  histogram: TempoHistogramRepository;
  /** Queues the user's next scan unit now. */
  wake: (userId: string) => Promise<void>;
  /** When the runner's scans may call Spotify again, and why they wait (Spotify's own limits, or the
   *  runner's fair share of the day); null when they may now. */
  workWait: (priority: 'library_scan', userId: string) => Promise<ScanWait | null>;
  /** Tempos below this confidence are not placed, so the chart leaves them out too. */
  minConfidence: number;
  now?: () => number;
}

export function createRefreshService(deps: RefreshServiceDeps) {
  const now = deps.now ?? Date.now;
  return {
    /** POST /api/spotify/refresh: one source, or everything, rescanned as soon as the budget allows. */
    async refresh(userId: string, body: RefreshBody, o: { timeZone: string | null }) {
      let queued = true;
      let sourceWaits: Date | null = null;
      if (body.kind !== undefined && body.source_id !== undefined) {
        const source = await deps.repo.getSource(userId, body.kind, body.source_id);
        if (!source) throw notFound('You have no such source.', 'SourceNotFound');
        if (!source.enabled)
          throw conflict('This source is switched off: switch it on to scan it.', 'SourceDisabled');
        if (!(await deps.repo.refreshSource(userId, body.kind, body.source_id)))
          throw notFound('You have no such source.', 'SourceNotFound');
        sourceWaits = source.resumesAt;
      } else {
        queued = await deps.repo.requestRescan(userId, REFRESH_MIN_MS);
      }
      await deps.wake(userId);
      // A rescan runs at the scans' priority, within the runner's share of the day: it waits as they do.
      const paused = await deps.workWait('library_scan', userId);
      const at = Math.max(now(), paused?.until.getTime() ?? 0, sourceWaits?.getTime() ?? 0);
      const when = formatLocalTime(new Date(at), o.timeZone);
      const waits = at > now() + 5_000;
      const message = waits
        ? // The runner's share is used: a source's own later wait is that share's too (its scan met it).
          paused?.reason === 'share'
          ? `Queued. Your share of today's Spotify calls is used (the runners here share Spotify's daily limit), so the rescan starts at ${when}.`
          : `Queued. Spotify's limit on Pacebeat's calls is reached for now, so the rescan starts at ${when}.`
        : queued
          ? 'Queued: the rescan starts now.'
          : 'A rescan was asked for less than a minute ago: it is already queued.';
      const data: RefreshReply['data'] = {
        queued,
        runs_at: Math.ceil(at / 1000),
        runs_at_str: when,
        message,
      };
      return data;
    },

    /** GET /api/spotify/tempo_histogram: the user's songs per BPM, folded into the running octave. */
    async tempoHistogram(userId: string): Promise<TempoHistogramReply['data']> {
      const counts = await deps.histogram.tempoCounts(userId, deps.minConfidence);
      return {
        fold: { ...TEMPO_FOLD },
        bins: foldHistogram(counts.byBpm),
        tracks_with_tempo: counts.byBpm.reduce((n, b) => n + b.songs, 0),
        tracks_without_tempo: counts.withoutTempo,
      };
    },
  };
}

export type RefreshService = ReturnType<typeof createRefreshService>;
