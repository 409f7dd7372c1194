// The library as the rest of Pacebeat sees it: sources for the status page, switching a source,
// rescans (scheduled, and when the user opens the status page), the connect and disconnect hooks, and
// the tracks the target playlists match against.
import type { SourceChangeBody, SourcesReply } from '@pacebeat/contract';
import type { Logger } from 'pino';
import type { LiveCache } from '../cache/live-cache.ts';
import { createPresentedMemo } from '../cache/presented.ts';
import { conflict, notFound } from '../errors.ts';
import { TEMPO_PRIORITY, type TempoLookups } from '../tempo/tempo.jobs.ts';
import type { CatalogRepository } from './catalog.repository.ts';
import type { LibraryRepository, MatchCandidate } from './library.repository.ts';
import { NOT_READABLE, presentSource } from './present.ts';
import { TEMPO_REQUEUE_MS, type TempoQueueOptions } from './scan-context.ts';
import type { Counts, SourceStatsRepository } from './source-stats.repository.ts';
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
  stats: Pick<SourceStatsRepository, 'recount' | 'stored' | 'markChanged'>;
  /** Queues the user's next scan unit now (`first`: a new library's first unit, before others' units). */
  wake: (userId: string, o?: { first?: boolean }) => Promise<void>;
  settings: {
    /** Every connected library is rescanned this often. */
    rescanIntervalMs: number;
    /** Opening the status page asks for a rescan at most this often. */
    statusRescanMinMs: number;
    /**
     * After a change to a user's library or tempos, how long this process waits before recounting the
     * stored counts (changes in the meantime share the recount). 0: recounted at once, before
     * `countsChanged` returns (tests that read counts right after writing).
     */
    countsDebounceMs?: number;
  };
  /** A user's source rows, invalidated across processes (tag `sources:<userId>`; absent: read every time). */
  sourcesCache?: LiveCache<SourceRow[]>;
  /** A user's stored counts, likewise (tag `counts:<userId>`, NOTIFYed when they are recounted). */
  countsCache?: LiveCache<Counts>;
  now?: () => number;
  log?: Pick<Logger, 'warn'>;
}

type SourcesData = SourcesReply['data'];

/** Queues tempo lookups (with the user's id) for tracks not yet queued under their recording key. */
export function createTempoQueueing(deps: {
  repo: Pick<CatalogRepository, 'tracksNeedingTempo' | 'markTempoQueued'>;
  tempo: Pick<TempoLookups, 'enqueue'>;
}) {
  return async (userId: string, trackIds: string[], opts: TempoQueueOptions = {}): Promise<void> => {
    const priority = opts.firstPage
      ? TEMPO_PRIORITY.firstPage
      : opts.firstPages
        ? TEMPO_PRIORITY.firstPages
        : opts.ownLibrary
          ? TEMPO_PRIORITY.ownLibrary
          : opts.firstSongs
            ? TEMPO_PRIORITY.firstCatalog
            : TEMPO_PRIORITY.catalog;
    // A song of this runner's that another runner's catalog queued (at the lowest priority, maybe hours
    // of catalogs ahead of it) is queued again at this one; the earlier job then finds its answer cached.
    const need = await deps.repo.tracksNeedingTempo(trackIds, TEMPO_REQUEUE_MS, priority);
    if (need.length === 0) return;
    await deps.tempo.enqueue(
      need.map(({ recordingKey: _key, ...track }) => track),
      { userId, priority },
    );
    await deps.repo.markTempoQueued(
      need.map((t) => t.spotifyId),
      priority,
    );
  };
}

/** After a refused rescan request, how long status page polls leave the database alone. */
const STATUS_RECHECK_MS = 60_000;
/**
 * A status page left open asks for a rescan at most this often: its polls every 15 s are the same runner
 * looking, and once their own library is read a rescan with nothing changed costs 3 calls (in bench:crowd
 * the 5-minute rescans of open pages were a third of all Spotify calls; on a development-mode day of
 * about 1,000 calls shared by 5 runners, a page open all day would spend 288 of one runner's ~200).
 */
export const STATUS_OPEN_RESCAN_MS = 30 * 60_000;
/** Polls this far apart are a new visit (the page opened again): it asks at once, within statusRescanMinMs. */
export const STATUS_NEW_VISIT_GAP_MS = 10 * 60_000;

/**
 * Stored counts a read answers with, but recounts behind it: counts this old (a change no write path of
 * this user announces: a tempo found by another runner's lookup of a shared song, an artist's catalog
 * read for another runner), or with a change left uncounted this long (its writer stopped first).
 */
export const COUNTS_MAX_AGE_MS = 5 * 60_000;
export const COUNTS_PENDING_MAX_MS = 30_000;
/** Users whose status page polls a process remembers (when they last polled, until when it need not ask). */
const POLLED_USERS_MAX = 20_000;

export function createLibraryService(deps: LibraryServiceDeps) {
  const now = deps.now ?? Date.now;
  const debounceMs = deps.settings.countsDebounceMs ?? 3_000;
  // The status page's counts are stored per user (library_source_counts) and recounted by the process that
  // changed what they count, so a poll reads one row instead of aggregating the library: at 1,000 runners
  // the aggregates were what bounded `serve`. Per user in this process: the counts last read, by version
  // (the presentation is memoised on their identity), and a recount that reads wait for or run behind.
  const held = new Map<string, { at: string; counts: Counts }>();
  const recounting = new Map<string, Promise<Counts>>();
  /** Changed users whose recount waits out the debounce in this process. */
  const due = new Map<string, NodeJS.Timeout>();

  function recount(userId: string): Promise<Counts> {
    let p = recounting.get(userId);
    if (!p) {
      p = deps.stats.recount(userId).finally(() => recounting.delete(userId));
      recounting.set(userId, p);
    }
    return p;
  }
  function counts(userId: string): Promise<Counts> {
    const cache = deps.countsCache;
    return cache
      ? cache.get(
          userId,
          () => storedCounts(userId),
          () => [`counts:${userId}`],
        )
      : storedCounts(userId);
  }
  async function storedCounts(userId: string): Promise<Counts> {
    const mine = held.get(userId);
    const stored = await deps.stats.stored(userId, mine?.at);
    if (!stored) return recount(userId); // never counted: this read waits (once per user)
    if (stored.ageMs > COUNTS_MAX_AGE_MS || (stored.pendingMs ?? 0) > COUNTS_PENDING_MAX_MS)
      recount(userId).catch((err: unknown) =>
        deps.log?.warn({ err, userId }, 'status counts recount failed'),
      );
    if (!stored.counts) return mine!.counts;
    if (held.size > 10_000) held.clear(); // a bound
    held.set(userId, { at: stored.at, counts: stored.counts });
    return stored.counts;
  }
  async function recountNow(userId: string): Promise<void> {
    await deps.stats.recount(userId);
  }
  /**
   * Something the user's counts depend on changed (a scan unit's pages, tempos found, a switch): marks the
   * stored counts and recounts them after the debounce. A user never counted is left to their first read.
   */
  async function countsChanged(userId: string): Promise<void> {
    if (!(await deps.stats.markChanged(userId))) return;
    if (debounceMs <= 0) return recountNow(userId);
    if (due.has(userId)) return;
    const timer = setTimeout(() => {
      due.delete(userId);
      // On failure the mark stays, and a read recounts after COUNTS_PENDING_MAX_MS.
      recountNow(userId).catch((err: unknown) =>
        deps.log?.warn({ err, userId }, 'status counts recount failed'),
      );
    }, debounceMs);
    timer.unref();
    due.set(userId, timer);
  }
  function forgetCounts(userId: string) {
    held.delete(userId);
    clearTimeout(due.get(userId));
    due.delete(userId);
  }

  /** The user looks at the status page: a rescan, at most every `statusRescanMinMs`. */
  async function statusPageOpened(userId: string): Promise<boolean> {
    const asked = await deps.repo.requestRescan(userId, deps.settings.statusRescanMinMs);
    if (asked) await deps.wake(userId);
    return asked;
  }
  /** Per user: until when a status page poll need not ask the database for a rescan. */
  const quietUntil = new Map<string, number>();
  /** Per user: this process's last status page poll (a gap means the page was opened again). */
  const lastPoll = new Map<string, number>();

  /** The user's source rows (from the cache when it holds them) and their counts. */
  async function read(userId: string) {
    const load = () => deps.repo.listSources(userId);
    const cache = deps.sourcesCache;
    return Promise.all([
      cache ? cache.get(userId, load, () => [`sources:${userId}`]) : load(),
      counts(userId),
    ]);
  }

  function present(rows: SourceRow[], c: Counts, timeZone: string | null) {
    const at = now();
    return rows.map((r) => ({
      row: r,
      source: presentSource(r, c.members.get(r.id), c.catalogs.get(r.kind), { timeZone, now: at }),
    }));
  }

  async function view(userId: string, timeZone: string | null) {
    const [rows, c] = await read(userId);
    return present(rows, c, timeZone);
  }

  // The reply, made once per source rows, counts and time zone: the same cached rows and stored counts give
  // the same answer, so a "waiting" or "scanning" state that depends on the clock may show that much late.
  const presented = createPresentedMemo(
    ([rows, c]: readonly [SourceRow[], Counts], timeZone: string | null): SourcesData => ({
      sources: present(rows, c, timeZone).map((s) => s.source),
      summary: {
        tracks_known: c.summary.knownTracks,
        tracks_with_tempo: c.summary.tracksWithTempo,
        tracks_without_tempo: c.summary.knownTracks - c.summary.tracksWithTempo,
      },
    }),
  );

  return {
    /** After Spotify is connected (or connected again): the library exists and its scan starts. */
    async connected(userId: string, spotifyUserId: string): Promise<void> {
      forgetCounts(userId);
      quietUntil.delete(userId);
      await deps.repo.connect(userId, spotifyUserId);
      await countsChanged(userId);
      deps.sourcesCache?.drop(`sources:${userId}`);
      await deps.wake(userId, { first: true });
    },

    /** After disconnect (or another Spotify account replaced this one): the user's library is deleted. */
    async gone(userId: string): Promise<void> {
      forgetCounts(userId); // the stored counts go with the library (foreign key)
      quietUntil.delete(userId);
      await deps.repo.deleteUser(userId);
      deps.sourcesCache?.drop(`sources:${userId}`);
    },

    /** GET sources: every source with its counts and progress, and the library at a glance. */
    async sources(userId: string, o: { timeZone: string | null }): Promise<SourcesData> {
      return presented(await read(userId), o.timeZone);
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
        await deps.stats.markChanged(userId); // kept if the recount fails: a later read recounts
        await recountNow(userId); // the reply, and every process's next read, shows the switch
        deps.countsCache?.drop(`counts:${userId}`);
        deps.sourcesCache?.drop(`sources:${userId}`); // at once here; elsewhere by NOTIFY
        if (body.enabled) await deps.wake(userId);
      }
      const found = (await view(userId, o.timeZone)).find(
        (s) => s.row.kind === body.kind && s.row.sourceId === body.source_id,
      );
      if (!found) throw notFound('You have no such source.', 'SourceNotFound');
      return found.source;
    },

    /** The user looks at the status page: a rescan, at most every `statusRescanMinMs`. */
    statusPageOpened,

    countsChanged,

    /**
     * A poll of the status page (every 15 s while it is open): a rescan when the runner comes to look (the
     * first poll, or one after STATUS_NEW_VISIT_GAP_MS without) unless the library was read in the last
     * statusRescanMinMs, and while the page stays open at most every STATUS_OPEN_RESCAN_MS (nor within that
     * of a read's end); without a database round trip on most polls. After a refusal (the database's
     * statusRescanMinMs, a read under way or just ended, or another process asked), this process asks
     * again after a minute.
     */
    async statusPagePolled(userId: string): Promise<void> {
      const at = now();
      const last = lastPoll.get(userId);
      // A bound above any installation's runners: cleared, every poll would count as a new visit and ask.
      if (lastPoll.size > POLLED_USERS_MAX) lastPoll.clear();
      lastPoll.set(userId, at);
      const newVisit = last === undefined || at - last >= STATUS_NEW_VISIT_GAP_MS;
      if (!newVisit && (quietUntil.get(userId) ?? 0) > at) return;
      // Nor for a library read lately (a new runner's first read just ended): as long ago as the asks.
      const asked = await deps.repo.requestRescan(userId, deps.settings.statusRescanMinMs, {
        unreadForMs: newVisit ? deps.settings.statusRescanMinMs : STATUS_OPEN_RESCAN_MS,
      });
      if (asked) await deps.wake(userId);
      if (quietUntil.size > POLLED_USERS_MAX) quietUntil.clear();
      quietUntil.set(userId, at + (asked ? STATUS_OPEN_RESCAN_MS : STATUS_RECHECK_MS));
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
