// Wires the library: repositories, the scan service (the `library-scan` job), and the library service
// (status page, source switches, rescans, connect/disconnect hooks, match candidates). Used by main.ts,
// the tests and the benchmark.
import type { Logger } from 'pino';
import type { ChangeFeed } from '../cache/change-feed.ts';
import { createLiveCache, STATUS_MAX_AGE_MS, STATUS_REFRESH_AFTER_MS } from '../cache/live-cache.ts';
import type { SpotifyAccountRepository } from '../spotify/account.repository.ts';
import type { CallContext } from '../spotify/client.ts';
import type { TempoLookups } from '../tempo/tempo.jobs.ts';
import type { LibraryConfig } from './library.config.ts';
import { createLibraryRepository, type SourceRow } from './library.repository.ts';
import { createLibraryService, createTempoQueueing } from './library.service.ts';
import { MIN_CONFIDENCE } from '../playlists/matching.ts';
import { createRefreshService, type RefreshServiceDeps } from './refresh.service.ts';
import { createTempoHistogramRepository } from './tempo-histogram.repository.ts';
import { DEFAULT_LIBRARY_SETTINGS, type LibraryApi, type LibrarySettings } from './scan-context.ts';
import { createScanService } from './scan.service.ts';
import type { LibraryScanQueue } from './scan.jobs.ts';
import { createSourceStatsRepository } from './source-stats.repository.ts';
import { nextClockChange } from './present.ts';

type Db = Parameters<typeof createLibraryRepository>[0];

export interface LibraryModuleDeps {
  spotify: {
    accounts: Pick<SpotifyAccountRepository, 'get'>;
    api: (ctx: CallContext) => LibraryApi;
  };
  tempoLookups: Pick<TempoLookups, 'enqueue'>;
  queue: LibraryScanQueue;
  config: LibraryConfig;
  log: Logger;
  /** Overrides of the scan's fixed settings (tests: smaller units). */
  settings?: Partial<LibrarySettings>;
  /** Pacebeat's target playlists of a user, never listed as sources (the playlists module). */
  targetPlaylistIds?: (userId: string) => Promise<Set<string>>;
  /** Whether a runner has fewer than their first 50 songs placed (the playlists module): catalogs go first. */
  firstSongs?: (userId: string) => Promise<boolean>;
  /** Called after a scan unit stored tracks (the playlists module queues its writer). */
  onTracksAdded?: (userId: string) => Promise<void>;
  /** When a runner's scans may call Spotify again, and why (spotify module), for "refresh now"'s answer. */
  workWait?: RefreshServiceDeps['workWait'];
  /** How long after a change a process recounts a user's status-page counts (LibraryServiceDeps; 3 s). */
  countsDebounceMs?: number;
  /** Cross-process invalidation: with it, a user's source rows and stored counts are cached per process
   *  (`STATUS_MAX_AGE_MS` at most; the rows also until a state changes by the clock). */
  changes?: ChangeFeed;
}

/** How long a process serves a user's source rows and stored counts it read (changes arrive by NOTIFY). */
const statusAges = { maxAgeMs: STATUS_MAX_AGE_MS, refreshAfterMs: STATUS_REFRESH_AFTER_MS };

export function createLibraryModule(db: Db, deps: LibraryModuleDeps) {
  const repo = createLibraryRepository(db);
  const stats = createSourceStatsRepository(db);
  const settings: LibrarySettings = {
    ...DEFAULT_LIBRARY_SETTINGS,
    catalogGroups: deps.config.LIBRARY_CATALOG_GROUPS,
    catalogRecheckMs: deps.config.LIBRARY_CATALOG_RECHECK_DAYS * 86_400_000,
    ...deps.settings,
  };
  const rescanIntervalMs = deps.config.LIBRARY_RESCAN_HOURS * 3600_000;
  const scans = createScanService({
    repo,
    accounts: deps.spotify.accounts,
    api: deps.spotify.api,
    queueTempo: createTempoQueueing({ repo, tempo: deps.tempoLookups }),
    settings,
    wake: (userId, startAfter) =>
      startAfter ? deps.queue.later(userId, startAfter) : deps.queue.wake(userId),
    log: deps.log.child({ module: 'library' }),
    ...(deps.targetPlaylistIds ? { targetPlaylistIds: deps.targetPlaylistIds } : {}),
    ...(deps.firstSongs ? { firstSongs: deps.firstSongs } : {}),
    ...(deps.onTracksAdded ? { onTracksAdded: deps.onTracksAdded } : {}),
    onCountsChanged: (userId) => service.countsChanged(userId),
  });
  const service = createLibraryService({
    repo,
    stats,
    wake: (userId, o) => deps.queue.wake(userId, o),
    settings: {
      rescanIntervalMs,
      statusRescanMinMs: 5 * 60_000,
      ...(deps.countsDebounceMs !== undefined ? { countsDebounceMs: deps.countsDebounceMs } : {}),
    },
    sourcesCache:
      deps.changes &&
      createLiveCache<SourceRow[]>({
        ...statusAges,
        feed: deps.changes,
        staleAt: (rows) => nextClockChange(rows, Date.now()),
      }),
    countsCache: deps.changes && createLiveCache({ ...statusAges, feed: deps.changes }),
    log: deps.log.child({ module: 'library' }),
  });
  const refresh = createRefreshService({
    repo,
    histogram: createTempoHistogramRepository(db),
    wake: (userId) => deps.queue.wake(userId),
    workWait: deps.workWait ?? (async () => null),
    // The chart shows what matching may place: tempos the target playlists trust.
    minConfidence: MIN_CONFIDENCE,
  });
  return {
    repo,
    stats,
    scans,
    service,
    refresh,
    settings,
    /** For the target playlists: the user's enabled sources' tracks, best-ranked first. */
    listMatchCandidates: (userId: string) => repo.listMatchCandidates(userId),
    /** For the target playlists: whether nothing of the user's library is left to read now. */
    readDone: (userId: string) => scans.readDone(userId),
    /**
     * For the target playlists: the user's own playlists as this connection's discovery read them whole,
     * or null while it has not (no `GET /me/playlists` of the writer's own for what discovery reads anyway).
     */
    ownPlaylistsSeen: (userId: string) => repo.ownPlaylistsSeen(userId),
  };
}
export type LibraryModule = ReturnType<typeof createLibraryModule>;
