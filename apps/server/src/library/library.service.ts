// The library as the rest of Pacebeat sees it: sources for the status page, switching a source,
// rescans (scheduled, and when the user opens the status page), the connect and disconnect hooks, and
// the tracks the target playlists match against.
import type { SourceChangeBody, SourcesReply } from '@pacebeat/contract';
import type { LiveCache } from '../cache/live-cache.ts';
import { conflict, notFound } from '../http/errors.ts';
import { TEMPO_PRIORITY, type TempoLookups } from '../tempo/tempo.jobs.ts';
import type { CatalogRepository } from './catalog.repository.ts';
import type { LibraryRepository, MatchCandidate } from './library.repository.ts';
import { NOT_READABLE, presentSource } from './present.ts';
import { TEMPO_REQUEUE_MS } from './scan-context.ts';
import type { SourceStatsRepository } from './source-stats.repository.ts';
import type { SourceRow } from './source.repository.ts';

export interface LibraryServiceDeps {
  repo: Pick<
    LibraryRepository,
    | 'connect'
    | 'deleteUser'
    | 'listSources'
    | 'getSource'
    | 'setEnabled'
    | 'requestRescan'
    | 'usersDueForRescan'
    | 'listMatchCandidates'
  >;
  stats: Pick<SourceStatsRepository, 'memberCounts' | 'catalogCounts' | 'summary'>;
  /** Queues the user's next scan unit now. */
  wake: (userId: string) => Promise<void>;
  settings: {
    /** Every connected library is rescanned this often. */
    rescanIntervalMs: number;
    /** Opening the status page asks for a rescan at most this often. */
    statusRescanMinMs: number;
    /**
     * How long one process reuses a user's computed counts (member, catalog and summary counts: whole-
     * library aggregates, tens of ms for 10,000 tracks). The source rows themselves (enabled, progress,
     * errors) are read on every request, or from `sourcesCache` (dropped by NOTIFY on any change to
     * them); a switch in this process drops the user's counts at once.
     * 0: computed on every request.
     */
    statsMaxAgeMs?: number;
  };
  /** A user's source rows, invalidated across processes (tag `sources:<userId>`; absent: read every time). */
  sourcesCache?: LiveCache<SourceRow[]>;
  now?: () => number;
}

type SourcesData = SourcesReply['data'];

/** Queues tempo lookups (with the user's id) for tracks not yet queued under their recording key. */
export function createTempoQueueing(deps: {
  repo: Pick<CatalogRepository, 'tracksNeedingTempo' | 'markTempoQueued'>;
  tempo: Pick<TempoLookups, 'enqueue'>;
}) {
  return async (userId: string, trackIds: string[], opts: { ownLibrary?: boolean } = {}): Promise<void> => {
    const need = await deps.repo.tracksNeedingTempo(trackIds, TEMPO_REQUEUE_MS);
    if (need.length === 0) return;
    await deps.tempo.enqueue(
      need.map(({ recordingKey: _key, ...track }) => track),
      { userId, priority: opts.ownLibrary ? TEMPO_PRIORITY.ownLibrary : TEMPO_PRIORITY.catalog },
    );
    await deps.repo.markTempoQueued(need.map((t) => t.spotifyId));
  };
}

export function createLibraryService(deps: LibraryServiceDeps) {
  const now = deps.now ?? Date.now;
  const maxAge = deps.settings.statsMaxAgeMs ?? 0;
  // Per user: the counts' promise (concurrent polls share one computation) and when it was started.
  const counted = new Map<string, { at: number; counts: Promise<Counts> }>();

  type Counts = {
    members: Awaited<ReturnType<SourceStatsRepository['memberCounts']>>;
    catalogs: Awaited<ReturnType<SourceStatsRepository['catalogCounts']>>;
    summary: Awaited<ReturnType<SourceStatsRepository['summary']>>;
  };
  async function compute(userId: string): Promise<Counts> {
    const [members, catalogs, summary] = await Promise.all([
      deps.stats.memberCounts(userId),
      deps.stats.catalogCounts(userId),
      deps.stats.summary(userId),
    ]);
    return { members, catalogs, summary };
  }
  function counts(userId: string): Promise<Counts> {
    const at = now();
    const hit = counted.get(userId);
    if (hit && at - hit.at < maxAge) return hit.counts;
    const fresh = compute(userId);
    if (maxAge > 0) {
      if (counted.size > 1000) counted.clear(); // a handful of users per installation; a bound anyway
      counted.set(userId, { at, counts: fresh });
      fresh.catch(() => counted.delete(userId));
    }
    return fresh;
  }

  async function view(userId: string, timeZone: string | null) {
    const read = () => deps.repo.listSources(userId);
    const cache = deps.sourcesCache;
    const [rows, { members, catalogs, summary }] = await Promise.all([
      cache ? cache.get(userId, read, () => [`sources:${userId}`]) : read(),
      counts(userId),
    ]);
    const at = now();
    const sources = rows.map((r) => ({
      row: r,
      source: presentSource(r, members.get(r.id), catalogs.get(r.kind), { timeZone, now: at }),
    }));
    return { sources, summary };
  }

  return {
    /** After Spotify is connected (or connected again): the library exists and its scan starts. */
    async connected(userId: string, spotifyUserId: string): Promise<void> {
      counted.delete(userId);
      await deps.repo.connect(userId, spotifyUserId);
      deps.sourcesCache?.drop(`sources:${userId}`);
      await deps.wake(userId);
    },

    /** After disconnect (or another Spotify account replaced this one): the user's library is deleted. */
    async gone(userId: string): Promise<void> {
      counted.delete(userId);
      await deps.repo.deleteUser(userId);
      deps.sourcesCache?.drop(`sources:${userId}`);
    },

    /** GET sources: every source with its counts and progress, and the library at a glance. */
    async sources(userId: string, o: { timeZone: string | null }): Promise<SourcesData> {
      const { sources, summary } = await view(userId, o.timeZone);
      return {
        sources: sources.map((s) => s.source),
        summary: {
          tracks_known: summary.knownTracks,
          tracks_with_tempo: summary.tracksWithTempo,
          tracks_without_tempo: summary.knownTracks - summary.tracksWithTempo,
        },
      };
    },

    /**
     * POST source_change: switches one of the user's sources. Disabling stops its scans and takes its
     * tracks out of matching; enabling queues a scan. 404 for a source that is not the user's, 409 for
     * a playlist Spotify does not let the app read.
     */
    async changeSource(userId: string, body: SourceChangeBody, o: { timeZone: string | null }) {
      const existing = await deps.repo.getSource(userId, body.kind, body.source_id);
      if (!existing) throw notFound('You have no such source.', 'SourceNotFound');
      if (body.enabled && !existing.readable) throw conflict(NOT_READABLE, 'SourceNotReadable');
      if (existing.enabled !== body.enabled) {
        await deps.repo.setEnabled(userId, body.kind, body.source_id, body.enabled);
        counted.delete(userId);
        deps.sourcesCache?.drop(`sources:${userId}`); // at once here; elsewhere by NOTIFY
        if (body.enabled) await deps.wake(userId);
      }
      const found = (await view(userId, o.timeZone)).sources.find(
        (s) => s.row.kind === body.kind && s.row.sourceId === body.source_id,
      );
      if (!found) throw notFound('You have no such source.', 'SourceNotFound');
      return found.source;
    },

    /** The user looks at the status page: a rescan, at most every `statusRescanMinMs`. */
    async statusPageOpened(userId: string): Promise<boolean> {
      const asked = await deps.repo.requestRescan(userId, deps.settings.statusRescanMinMs);
      if (asked) await deps.wake(userId);
      return asked;
    },

    /**
     * The schedule: a rescan for every live library not rescanned for `rescanIntervalMs`, and a library
     * for every connected user who has none.
     */
    async requestDueRescans(): Promise<{ rescans: number; created: number }> {
      let rescans = 0;
      let created = 0;
      for (const u of await deps.repo.usersDueForRescan(deps.settings.rescanIntervalMs)) {
        if (!u.hasLibrary) {
          await deps.repo.connect(u.userId, u.spotifyUserId);
          await deps.wake(u.userId);
          created++;
        } else if (await deps.repo.requestRescan(u.userId, deps.settings.rescanIntervalMs)) {
          await deps.wake(u.userId);
          rescans++;
        }
      }
      return { rescans, created };
    },

    /** Tracks of the user's enabled sources, best-ranked first (see LibraryRepository.listMatchCandidates). */
    listMatchCandidates(userId: string): Promise<MatchCandidate[]> {
      return deps.repo.listMatchCandidates(userId);
    },
  };
}
export type LibraryService = ReturnType<typeof createLibraryService>;
