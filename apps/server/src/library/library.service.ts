// The library as the rest of Pacebeat sees it: sources for the status page, switching a source,
// rescans (scheduled, and when the user opens the status page), the connect and disconnect hooks, and
// the tracks the target playlists match against.
import type { SourceChangeBody, SourcesReply } from '@pacebeat/contract';
import type { LiveCache } from '../cache/live-cache.ts';
import { createPresentedMemo } from '../cache/presented.ts';
import { conflict, notFound } from '../errors.ts';
import { TEMPO_PRIORITY, type TempoLookups } from '../tempo/tempo.jobs.ts';
import type { CatalogRepository } from './catalog.repository.ts';
import type { LibraryRepository, MatchCandidate } from './library.repository.ts';
import { NOT_READABLE, presentSource } from './present.ts';
import { TEMPO_REQUEUE_MS, type TempoQueueOptions } from './scan-context.ts';
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
  stats: Pick<SourceStatsRepository, 'memberCounts' | 'catalogCounts' | 'summary'> &
    Partial<Pick<SourceStatsRepository, 'snapshot'>>;
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
     * them); a switch in this process drops the user's counts at once. Counts up to twice this age are
     * still answered while one recount runs in the background. 0: computed on every request.
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
  return async (userId: string, trackIds: string[], opts: TempoQueueOptions = {}): Promise<void> => {
    const need = await deps.repo.tracksNeedingTempo(trackIds, TEMPO_REQUEUE_MS);
    if (need.length === 0) return;
    const priority = opts.firstPages
      ? TEMPO_PRIORITY.firstPages
      : opts.ownLibrary
        ? TEMPO_PRIORITY.ownLibrary
        : TEMPO_PRIORITY.catalog;
    await deps.tempo.enqueue(
      need.map(({ recordingKey: _key, ...track }) => track),
      { userId, priority },
    );
    await deps.repo.markTempoQueued(need.map((t) => t.spotifyId));
  };
}

/** After a refused rescan request, how long status page polls leave the database alone. */
const STATUS_RECHECK_MS = 60_000;

export function createLibraryService(deps: LibraryServiceDeps) {
  const now = deps.now ?? Date.now;
  const maxAge = deps.settings.statsMaxAgeMs ?? 0;
  // Per user: the counts' promise (concurrent polls share one computation), when it was started, and once
  // known, the counts themselves and whether a recount runs in the background.
  type Counted = { at: number; counts: Promise<Counts>; known?: boolean; recounting?: boolean };
  const counted = new Map<string, Counted>();

  type Counts = {
    members: Awaited<ReturnType<SourceStatsRepository['memberCounts']>>;
    catalogs: Awaited<ReturnType<SourceStatsRepository['catalogCounts']>>;
    summary: Awaited<ReturnType<SourceStatsRepository['summary']>>;
  };
  async function compute(userId: string): Promise<Counts> {
    // One moment for all three when the repository can (so the numbers agree).
    if (deps.stats.snapshot) return deps.stats.snapshot(userId);
    const [members, catalogs, summary] = await Promise.all([
      deps.stats.memberCounts(userId),
      deps.stats.catalogCounts(userId),
      deps.stats.summary(userId),
    ]);
    return { members, catalogs, summary };
  }
  /** Starts a count and keeps it as the user's (while no switch, connect or disconnect dropped it). */
  function recount(userId: string, at: number): Counted {
    const entry: Counted = { at, counts: compute(userId) };
    if (counted.size > 1000) counted.clear(); // a handful of users per installation; a bound anyway
    counted.set(userId, entry);
    entry.counts.then(
      () => void (entry.known = true),
      () => void (counted.get(userId) === entry && counted.delete(userId)),
    );
    return entry;
  }
  function counts(userId: string): Promise<Counts> {
    const at = now();
    const hit = counted.get(userId);
    if (hit && at - hit.at < maxAge) return hit.counts;
    if (maxAge <= 0) return compute(userId);
    // Unknown, or older than twice the age: this read waits for a recount (tens of milliseconds). A status
    // page polls every 15 s, so each of its polls gets counts made for it, never the last poll's.
    if (!hit?.known || at - hit.at >= 2 * maxAge) return recount(userId, at).counts;
    // Between one and two ages old (reads close together: several tabs, or load): this read answers with
    // them while one recount runs in the background, and the next reads get the new counts. So no read
    // waits behind the aggregates but the first, and counts are at most twice the age old.
    if (!hit.recounting) {
      hit.recounting = true;
      const next: Counted = { at, counts: compute(userId) };
      next.counts.then(
        () => {
          next.known = true;
          if (counted.get(userId) === hit) counted.set(userId, next);
        },
        () => void (hit.recounting = false), // the next read tries again
      );
    }
    return hit.counts;
  }

  /** The user looks at the status page: a rescan, at most every `statusRescanMinMs`. */
  async function statusPageOpened(userId: string): Promise<boolean> {
    const asked = await deps.repo.requestRescan(userId, deps.settings.statusRescanMinMs);
    if (asked) await deps.wake(userId);
    return asked;
  }
  /** Per user: until when a status page poll need not ask the database for a rescan. */
  const quietUntil = new Map<string, number>();

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

  // The reply, made once per source rows, counts and time zone: the same cached rows and counts (at most
  // statsMaxAgeMs old) give the same answer, so a "waiting" or "scanning" state that depends on the clock
  // may show that much late.
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
      counted.delete(userId);
      quietUntil.delete(userId);
      await deps.repo.connect(userId, spotifyUserId);
      deps.sourcesCache?.drop(`sources:${userId}`);
      await deps.wake(userId);
    },

    /** After disconnect (or another Spotify account replaced this one): the user's library is deleted. */
    async gone(userId: string): Promise<void> {
      counted.delete(userId);
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
        counted.delete(userId);
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

    /**
     * A poll of the status page (every 15 s while it is open): statusPageOpened, but without a database
     * round trip on most polls. After asking, this process does not ask again for `statusRescanMinMs` (the
     * database would refuse); after a refusal, for a minute (the rescan then comes at most that late).
     */
    async statusPagePolled(userId: string): Promise<void> {
      const at = now();
      if ((quietUntil.get(userId) ?? 0) > at) return;
      const asked = await statusPageOpened(userId);
      if (quietUntil.size > 1000) quietUntil.clear(); // a handful of users per installation; a bound anyway
      quietUntil.set(userId, at + (asked ? deps.settings.statusRescanMinMs : STATUS_RECHECK_MS));
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
