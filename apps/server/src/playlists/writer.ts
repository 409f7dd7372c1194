// The playlist writer: one run brings a user's target playlists up to date with their library's tempos.
// At most one run per user at a time (a lease in PostgreSQL, whatever pg-boss does); every Spotify call
// at the "playlist writes" priority; Spotify deferring (rate limit, daily quota) ends the run with
// SpotifyDeferredError, which the job turns into a run at `retryAt`, where this one left off.
import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { SpotifyAccountRepository } from '../spotify/account.repository.ts';
import type { SpotifyApi } from '../spotify/api.ts';
import type { CallContext } from '../spotify/client.ts';
import { SpotifyAccountDisabledError, SpotifyApiError, SpotifyNotConnectedError } from '../spotify/errors.ts';
import type { TempoRepository } from '../tempo/tempo.repository.ts';
import { tempoKey } from '../tempo/tempo.service.ts';
import { addBatch, ADD_BATCH } from './adds.ts';
import type { ListMatchCandidates } from './candidates.ts';
import { ensurePlaylist, settleCreation, takeBackEarlier } from './creation.ts';
import { syncDetails } from './details.ts';
import {
  dueNow,
  fittingTracks,
  matchBpm,
  placeable,
  planAdds,
  type PlannedTrack,
  type TempoFact,
} from './matching.ts';
import type { PlaylistsRepository, TargetRow } from './playlists.repository.ts';
import { checkFollowed, ensureFresh, settlePending } from './reconcile.ts';
import { NO_CHOICES, type LoadRunnerChoices } from './runner-choices.ts';
import { removeRequested, settleRemovals } from './removals.ts';
import { SongSet } from './song-identity.ts';
import { artistsOf, spreadArtists } from './spread.ts';
import { PlaylistGoneError, type OwnPlaylist } from './spotify-playlists.ts';
import {
  createSyncContext,
  DEFAULT_WRITER_SETTINGS,
  LeaseLostError,
  type SyncContext,
  type WriterRepo,
  type WriterSettings,
} from './sync-context.ts';

export interface PlaylistWriterDeps {
  repo: WriterRepo &
    Pick<PlaylistsRepository, 'acquireLease' | 'releaseLease' | 'finishJob'> &
    Partial<Pick<PlaylistsRepository, 'recordFirstFill'>>;
  accounts: Pick<SpotifyAccountRepository, 'get'>;
  api: (ctx: CallContext) => SpotifyApi;
  tempos: Pick<TempoRepository, 'getByKeys'>;
  listMatchCandidates: ListMatchCandidates;
  /**
   * Whether nothing of the runner's library is left to read now (library module). With every track of it
   * looked up too, no other artists' company is coming for a song the spread holds: it goes as an overdue
   * one would, without its day's wait. Absent: never (songs wait their day).
   */
  libraryRead?: (userId: string) => Promise<boolean>;
  /**
   * The runner's own playlists as the library's discovery read them whole for this connection, or null
   * while it has not (library module). The look for an earlier connection's playlists reads them here,
   * not from Spotify a second time. Absent: the writer reads them itself.
   */
  ownPlaylistsSeen?: (userId: string) => Promise<OwnPlaylist[] | null>;
  /** The runner's tempo corrections and exclusions (choices module); none when not given. */
  runnerChoices?: LoadRunnerChoices;
  /**
   * How much of Spotify's rate is in use now, 0 to 1 (1 on an installation with a daily quota, where every
   * call counts): once a runner has their first songs, an add waits this share of `maxWaitMs` for company.
   * Absent: 1.
   */
  rateInUse?: () => Promise<number>;
  log: Logger;
  settings?: Partial<WriterSettings>;
  now?: () => number;
}

export type SyncResult =
  /** Another writer holds this user's lease. */
  | { status: 'busy' }
  /** No Spotify connection, a disabled one, or the user disconnected during the run. */
  | { status: 'not-connected' | 'disabled' | 'stopped' }
  | {
      status: 'done';
      created: number;
      added: number;
      removed: number;
      /** When a write that ended unclearly can be settled: run again then. */
      followUpAt: Date | null;
    };

/** Tempo cache keys per query (well under PostgreSQL's parameter limit). */
const TEMPO_CHUNK = 5000;
/** A run renews its lease this long at most: the playlist-sync job's expiry (job-registry.ts). */
const MAX_RUN_MS = 15 * 60_000;

const isForeignKeyViolation = (err: unknown) => (err as { code?: unknown })?.code === '23503';

export function createPlaylistWriter(deps: PlaylistWriterDeps) {
  const settings: WriterSettings = { ...DEFAULT_WRITER_SETTINGS, ...deps.settings };
  const now = deps.now ?? Date.now;
  const log = deps.log.child({ module: 'playlists' });

  async function temposOf(keys: string[]): Promise<Map<string, TempoFact>> {
    const out = new Map<string, TempoFact>();
    for (let i = 0; i < keys.length; i += TEMPO_CHUNK)
      for (const [k, v] of await deps.tempos.getByKeys(keys.slice(i, i + TEMPO_CHUNK))) out.set(k, v);
    return out;
  }

  /** Runs `fn` for one target; a playlist Spotify answers 404 for is marked deleted (no more writes). */
  async function onTarget<T>(c: SyncContext, t: TargetRow, fn: () => Promise<T>): Promise<T | null> {
    try {
      return await fn();
    } catch (err) {
      if (err instanceof SpotifyApiError && err.status === 403) {
        // A write Spotify refuses for good (the account is fine: client.ts tells): no more writes to this
        // playlist, and the status page says why, until the runner edits the target.
        await c.repo.markWriteRefused(t.id, err.spotifyMessage || 'Forbidden');
        log.warn({ target: t.id, err: err.spotifyMessage }, 'Spotify refuses writes to the playlist');
        return null;
      }
      if (!(err instanceof PlaylistGoneError)) throw err;
      await c.repo.markDeleted(t.id);
      log.info({ target: t.id, playlist: err.playlistId }, 'the playlist is gone: no more writes');
      return null;
    }
  }

  /** A full playlist goes on in a new target of the same range and filters ("… (2)"), made in the next run. */
  async function continueFull(c: SyncContext, t: TargetRow) {
    const next = await deps.repo.addContinuation(t);
    if (next) c.followUp(c.now());
    log.info({ target: t.id, continuation: next?.id ?? null }, 'a full playlist goes on in a new one');
  }

  async function run(c: SyncContext, userId: string, stopping: AbortSignal | undefined) {
    const counts = { created: 0, added: 0, removed: 0 };
    // A shutdown ends the run between two steps (every write is recorded, so nothing is left unclear); the
    // next run, queued for now, goes on where this one stopped.
    const stopped = () => {
      if (stopping?.aborted) c.followUp(c.now());
      return stopping?.aborted === true;
    };
    // 1. What earlier runs left unclear (a creation, an add or a removal with no clear answer, a crash).
    const blocked = new Set<string>();
    for (const t of await deps.repo.listTargets(userId)) {
      if (stopped()) return counts;
      if (t.state === 'creating') await settleCreation(c, t);
      else if (
        t.state === 'active' &&
        !(await onTarget(c, t, async () => (await settlePending(c, t)) && (await settleRemovals(c, t))))
      )
        blocked.add(t.id);
    }
    if (stopped()) return counts;
    // 1b. A runner's first run after a connect that finds their own playlists listed: the playlists of an
    // earlier connection are taken back and read now (one call per 50 songs of each), so the status page
    // shows them, with the songs Pacebeat had placed, before the first new match; not at the first
    // creation. The list is the library's discovery's (it reads `GET /me/playlists` anyway, first of all
    // its steps): a run before it has (the one at connect) leaves the look to the next run, which the
    // first page of Liked Songs asks for; a creation that cannot wait reads Spotify itself.
    const first = await deps.repo.listTargets(userId);
    // A runner with no playlist yet (or fewer than 50 songs placed, step 3) writes before others' scans.
    c.firstSongs(first.every((t) => t.playlistId === null));
    if (
      first.every((t) => t.playlistId === null && t.followCheckedAt === null) &&
      (await c.knownOwnPlaylists()) !== null &&
      (await takeBackEarlier(c))
    )
      for (const t of await deps.repo.listTargets(userId)) {
        if (stopped()) return counts;
        if (t.state === 'active' && t.snapshotId === null) await onTarget(c, t, () => ensureFresh(c, t));
      }
    // 2. Playlists the user deleted or restored, now and then (settings.followCheckMs); see 3b.
    const { checked } = await checkFollowed(c, await deps.repo.listTargets(userId));
    // 3. New matches, appended in rank order with their artists spread, ≤ 100 per call (after the
    // runner's edits, 3a).
    const targets = await deps.repo.listTargets(userId);
    const open = targets.filter((t) => (t.state === 'pending' || t.state === 'active') && !blocked.has(t.id));
    if (open.length === 0) return counts;
    const candidates = await deps.listMatchCandidates(userId);
    const tempos = await temposOf([...new Set(candidates.map((x) => x.recordingKey))]);
    const placed = await deps.repo.placedSongs(open.map((t) => t.id));
    const choices = (await deps.runnerChoices?.(userId)) ?? NO_CHOICES;
    // 3a. The runner's edits: new names to Spotify, and the removals they asked for (what no longer fits),
    // by the same rule planAdds matches with (the runner's choices: corrections, exclusions).
    const fitting = fittingTracks(open, candidates, (x) =>
      matchBpm(x, tempos.get(x.recordingKey), choices, settings.minConfidence),
    );
    for (const t of open.filter((x) => x.state === 'active' && x.writeRefusedAt === null)) {
      if (stopped()) return counts;
      await onTarget(c, t, async () => {
        await syncDetails(c, t);
        counts.removed += await removeRequested(c, t, fitting.get(t.id) ?? new SongSet());
      });
    }
    const plan = planAdds(open, candidates, tempos, placed, settings.minConfidence, choices);
    const placedInOrder = await deps.repo.placedInOrder(open.map((t) => t.id));
    // No playlist made yet: the user's first fill, which waits a little for more matches. Then, until the
    // runner has `firstFill` songs placed in all, small adds go at once; after that they wait for company.
    const firstFill = !targets.some((t) => t.playlistId !== null);
    const placedInAll = [...placedInOrder.values()].reduce((n, songs) => n + songs.length, 0);
    const phase = firstFill ? 'first' : placedInAll < settings.firstFill ? 'filling' : 'steady';
    c.firstSongs(phase !== 'steady');
    // The artist spread (spread.ts), the first fill included: which ready songs go now, and in what order
    // after what the playlist ends with; a song that would come too soon after its artist waits for other
    // artists' company (after `spreadHoldMs` with less room, after `spreadMaxHoldMs` in any order; until the
    // runner has `firstFill` placed, the window shrinks instead, down to `spreadWindowFilling`).
    const artistsNow = new Map(candidates.map((x) => [x.trackId, x.artistIds]));
    // No company is coming when the library is read and every track of it looked up (a track with no row
    // in the tempo cache is still being looked up): a held song then waits for nothing. Until a rescan, a
    // second look or the runner's new songs, which come after a day as often as not.
    const noCompany =
      candidates.every((x) => tempos.has(x.recordingKey)) && (await deps.libraryRead?.(userId)) === true;
    const ready = new Map<string, PlannedTrack[]>();
    // When to add (dueNow) does not count the wait of a song whose artist has songs held back: it waited
    // for other artists' company, not for an add call, so its old tempo time must not send a call for it
    // alone each time one more song keeps it company (nor ask for a run every few seconds meanwhile).
    const waiting = new Map<string, PlannedTrack[]>();
    for (const t of open) {
      const songs = (placedInOrder.get(t.id) ?? []).map((x) => artistsNow.get(x.trackId) ?? x.artistIds);
      // A song waits for company from when this pace could take it: a tempo another runner's lookup cached
      // days ago does not make a newcomer's (or a new pace's) song overdue, to go with less room, at once.
      const heldFor = (p: PlannedTrack) => c.now() - Math.max(p.since, t.createdAt.getTime());
      const { order, held } = spreadArtists({
        ready: plan.get(t.id) ?? [],
        tail: songs.slice(-settings.spreadWindow),
        placedArtists: songs.flat(),
        window: settings.spreadWindow,
        overdue: (p) => noCompany || heldFor(p) >= settings.spreadHoldMs,
        stale: (p) => heldFor(p) >= settings.spreadMaxHoldMs,
        shrinkTo: phase === 'steady' ? undefined : settings.spreadWindowFilling,
      });
      const heldArtists = new Set(phase === 'steady' ? held.flatMap(artistsOf) : []);
      ready.set(t.id, order);
      waiting.set(
        t.id,
        order.map((p) => (artistsOf(p).some((a) => heldArtists.has(a)) ? { ...p, since: Infinity } : p)),
      );
    }
    // Once the runner has their first songs, an add waits for company as long as Spotify's rate is busy:
    // at once when it is idle (the calls would go unused), the whole `maxWaitMs` when it is full. Until
    // their first 50, a playlist that has songs waits up to `fillWaitMs` so (never longer than `maxWaitMs`;
    // an empty one 15 s), and the add that brings them to 50 goes at once.
    const inUse = phase !== 'first' && deps.rateInUse ? Math.min(1, Math.max(0, await deps.rateInUse())) : 1;
    const { due, nextAt } = dueNow(
      waiting,
      phase,
      {
        ...settings,
        maxWaitMs: settings.maxWaitMs * inUse,
        fillWaitMs: Math.min(settings.fillWaitMs, settings.maxWaitMs) * inUse,
        placed: new Map(open.map((t) => [t.id, placedInOrder.get(t.id)?.length ?? 0])),
        batch: ADD_BATCH,
      },
      c.now(),
    );
    // The status page says how far the first fill is; cleared once a playlist exists.
    if (firstFill)
      await deps.repo.recordFirstFill?.(
        userId,
        new Map(open.map((t) => [t.id, plan.get(t.id)?.length ?? 0])),
      );
    else if (targets.some((t) => t.firstFillMatches !== null))
      await deps.repo.recordFirstFill?.(userId, null);
    if (nextAt !== null) c.followUp(nextAt);
    // 3b. Spotify keeps taking adds to a playlist its owner deleted: each one this run adds to is checked
    // first (one call for up to 40), unless step 2 just did. While the runner's first songs go in small
    // adds a few seconds apart, a playlist checked in the last `snapshotFreshMs` is not asked about again
    // (that would be a check for every add of 5 songs; a deletion is then noticed at the next check).
    const checkedLately = (t: TargetRow) =>
      phase !== 'steady' &&
      t.followCheckedAt !== null &&
      c.now() - t.followCheckedAt.getTime() < settings.snapshotFreshMs;
    const adding = open.filter(
      (t) => t.state === 'active' && !checked.has(t.id) && !checkedLately(t) && (due.get(t.id) ?? 0) > 0,
    );
    const { deleted } = await checkFollowed(c, adding, { always: true });
    for (const target of open) {
      const todo = (ready.get(target.id) ?? []).slice(0, due.get(target.id) ?? 0);
      if (todo.length === 0 || deleted.has(target.id)) continue;
      // A full playlist takes no more (its continuation does); one Spotify refuses waits for the runner.
      if (target.fullAt !== null || target.writeRefusedAt !== null) continue;
      if (stopped()) return counts;
      await onTarget(c, target, async () => {
        const t = await ensurePlaylist(c, target, { firstOfConnection: firstFill });
        if (!t) return;
        if (target.state === 'pending' && t.snapshotId !== null) counts.created++;
        await ensureFresh(c, t);
        // Reading the playlist may have found some already there (the user's own, an adopted playlist).
        const known = (await deps.repo.placedSongs([t.id])).get(t.id);
        const fresh = todo.filter((p) => !known?.has(p));
        for (let i = 0; i < fresh.length && !stopped(); i += ADD_BATCH) {
          const r = await addBatch(c, t, fresh.slice(i, i + ADD_BATCH));
          counts.added += r.added;
          if (r.stop === 'full') await continueFull(c, t);
          if (r.stop) break;
        }
      });
    }
    return counts;
  }

  /**
   * Renews a live run's lease between its writes (a run may wait minutes on Spotify's rate), so the lease
   * itself can be short: a dead process's lease lapses within `leaseMs` and the user's next run goes on
   * (with 5 minutes, a kill stopped that user's playlists for the rest of a lifecycle day). A run that
   * outlives the playlist-sync job's expiry (MAX_RUN_MS) stops renewing; its next write then finds out.
   */
  function keepLease(userId: string, holder: string): NodeJS.Timeout {
    const until = now() + MAX_RUN_MS;
    const timer = setInterval(() => {
      if (now() > until) return clearInterval(timer);
      deps.repo.renewLease(userId, holder, settings.leaseMs).then(
        (held) => held || clearInterval(timer),
        (err: unknown) => log.warn({ err, userId }, 'could not renew the writer lease'),
      );
    }, settings.leaseRenewMs);
    timer.unref();
    return timer;
  }

  return {
    /** One writer run for a user (see the file's head). Never throws for a disconnect; throws
     *  SpotifyDeferredError when Spotify asks to wait, and other errors for the job's retries. With
     *  `stopping` aborted (a shutdown) it ends between two steps, with a follow-up due now. */
    async sync(userId: string, stopping?: AbortSignal): Promise<SyncResult> {
      const holder = randomUUID();
      if (!(await deps.repo.acquireLease(userId, holder, settings.leaseMs))) return { status: 'busy' };
      const heartbeat = keepLease(userId, holder);
      try {
        const account = await deps.accounts.get(userId);
        if (!account) return { status: 'not-connected' };
        if (account.disabledReason) return { status: 'disabled' };
        const c = createSyncContext({
          userId,
          spotifyUserId: account.spotifyUserId,
          holder,
          repo: deps.repo,
          api: deps.api,
          ...(deps.ownPlaylistsSeen ? { seen: deps.ownPlaylistsSeen } : {}),
          settings,
          log: log.child({ userId }),
          now,
          fitting: async (t, tracks) => {
            // A song placed before its ISRC was known has its tempo under its track id's key.
            const byId = (trackId: string) => tempoKey({ spotifyId: trackId, isrc: null });
            const [tempos, choices] = await Promise.all([
              temposOf([...new Set(tracks.flatMap((x) => [x.recordingKey, byId(x.trackId)]))]),
              deps.runnerChoices?.(userId) ?? NO_CHOICES,
            ]);
            const out = new Map<string, number>();
            for (const { recordingKey, trackId } of tracks) {
              // Artist exclusions need the track's artists, which a playlist read does not give here; a
              // disconnect erased the runner's choices anyway, so only a correction made since can apply.
              const chosen = matchBpm(
                { recordingKey, artistIds: [] },
                tempos.get(recordingKey) ?? tempos.get(byId(trackId)),
                choices,
                settings.minConfidence,
              );
              if (chosen && placeable(chosen, t.minBpm, t.maxBpm)) out.set(recordingKey, chosen.bpm);
            }
            return out;
          },
        });
        const counts = await run(c, userId, stopping);
        await deps.repo.finishJob(userId);
        const at = c.followUpAt();
        return { status: 'done', ...counts, followUpAt: at === null ? null : new Date(at) };
      } catch (err) {
        // The user disconnected during the run: their targets (and this lease) are gone; stop quietly.
        if (err instanceof LeaseLostError || isForeignKeyViolation(err)) return { status: 'stopped' };
        if (err instanceof SpotifyNotConnectedError) return { status: 'not-connected' };
        if (err instanceof SpotifyAccountDisabledError) return { status: 'disabled' };
        throw err;
      } finally {
        clearInterval(heartbeat);
        await deps.repo.releaseLease(userId, holder);
      }
    },
  };
}

export type PlaylistWriter = ReturnType<typeof createPlaylistWriter>;
