// One sync run's context: the user, the writer lease it holds, the Spotify API per purpose (at the
// "playlist writes" priority, or a new runner's "first pages" until their first 50 songs), the user's own
// playlists (read at most once per run), and when a follow-up run is needed to settle an unclear write.
import type { Logger } from 'pino';
import type { CallContext } from '../spotify/client.ts';
import type { SpotifyApi } from '../spotify/api.ts';
import { listOwnPlaylists, type OwnPlaylist } from './spotify-playlists.ts';
import { MIN_CONFIDENCE } from './matching.ts';
import { SPREAD_WINDOW } from './spread.ts';
import type { PlaylistsRepository, TargetRow } from './playlists.repository.ts';

export type WriterRepo = Pick<
  PlaylistsRepository,
  | 'listTargets'
  | 'renewLease'
  | 'markCreating'
  | 'markNotCreated'
  | 'markActive'
  | 'markDeleted'
  | 'markFollowChecked'
  | 'setSnapshot'
  | 'placedSongs'
  | 'placedInOrder'
  | 'tracksOf'
  | 'recordPending'
  | 'confirmBatch'
  | 'releaseBatch'
  | 'setStates'
  | 'recordPresent'
  | 'recordAdopted'
  | 'removalRequests'
  | 'cancelRemovals'
  | 'markRemoving'
  | 'finishRemoval'
  | 'releaseRemoval'
  | 'markDetailsSynced'
  | 'adoptEarlier'
  | 'markFull'
  | 'addContinuation'
  | 'markWriteRefused'
  | 'playlistIdsOf'
  | 'dropUnused'
>;

export interface WriterSettings {
  /**
   * How long the writer lease lasts; renewed before every write and every `leaseRenewMs` while the run is
   * alive, so a writer whose process died (kill -9) holds its user's playlists at most this long.
   */
  leaseMs: number;
  /** How often a live run renews its lease between writes (a third of `leaseMs` by default). */
  leaseRenewMs: number;
  /**
   * How long after an unclear write (time-out, reset, 5xx, crash) before it is checked: a request our
   * client gave up on may still be applied by Spotify a little later, so an early look could miss it.
   */
  settleMs: number;
  /** A playlist's snapshot older than this is checked (one call) before adding to it. */
  snapshotFreshMs: number;
  /** How often a playlist is looked for among the user's playlists (did they delete or unfollow it?). */
  followCheckMs: number;
  minConfidence: number;
  /** A user's first placements wait for this many matches (one add per playlist shows them all)... */
  firstFill: number;
  /** ...or at most this long after the first match (so the first playlists come within seconds). */
  firstFillWaitMs: number;
  /** Matches short of a full batch of 100 wait at most this long for others to share their add call. */
  maxWaitMs: number;
  /** Until `firstFill` songs are placed in all, a playlist's add goes once this many are ready... */
  fillMin: number;
  /**
   * ...or fewer once they waited this long (scaled by how full Spotify's rate is, at least
   * `firstFillWaitMs`) in a playlist that has songs; in an empty one, `firstFillWaitMs`.
   */
  fillWaitMs: number;
  /** No artist twice within this many songs of a playlist (spread.ts). */
  spreadWindow: number;
  /** Until `firstFill` songs are placed in all, the window shrinks down to this rather than hold songs back. */
  spreadWindowFilling: number;
  /** A song held back to keep its artist apart goes with less room (spread.ts) this long after its tempo was known... */
  spreadHoldMs: number;
  /** ...and in any order (the best possible) this long after. */
  spreadMaxHoldMs: number;
}

export const DEFAULT_WRITER_SETTINGS: WriterSettings = {
  leaseMs: 60_000,
  leaseRenewMs: 20_000,
  settleMs: 45_000,
  snapshotFreshMs: 15 * 60_000,
  followCheckMs: 6 * 3600_000,
  minConfidence: MIN_CONFIDENCE,
  firstFill: 50,
  firstFillWaitMs: 15_000,
  maxWaitMs: 2 * 60_000,
  fillMin: 5,
  fillWaitMs: 60_000,
  spreadWindow: SPREAD_WINDOW,
  spreadWindowFilling: 2,
  // A day: catalogs are read over days under the daily quota, so other artists' songs keep coming.
  spreadHoldMs: 24 * 3600_000,
  // A week: by then a library is read through (a large one reads in days), so no company is coming.
  spreadMaxHoldMs: 7 * 24 * 3600_000,
};

/** The writer lost its lease (it expired and another writer took it, or the user disconnected). */
export class LeaseLostError extends Error {
  constructor(userId: string) {
    super(`the playlist writer lease of ${userId} was lost`);
    this.name = 'LeaseLostError';
  }
}

export type SyncPurpose =
  'sync:create' | 'sync:add' | 'sync:verify' | 'sync:check' | 'sync:remove' | 'sync:details';

export function createSyncContext(o: {
  userId: string;
  spotifyUserId: string;
  holder: string;
  repo: WriterRepo;
  api: (ctx: CallContext) => SpotifyApi;
  /** The user's own playlists as the library's discovery read them whole, or null while it has not. */
  seen?: (userId: string) => Promise<OwnPlaylist[] | null>;
  settings: WriterSettings;
  log: Logger;
  now: () => number;
  /**
   * The tempo each track's recording would be placed with in `t` now (the runner's choices, trusted tempos, its
   * range), for those that fit: what a taken-back playlist's songs are adopted by (reconcile.ts).
   */
  fitting?: (
    t: TargetRow,
    tracks: Array<{ recordingKey: string; trackId: string }>,
  ) => Promise<Map<string, number>>;
}) {
  let own: Promise<OwnPlaylist[]> | undefined;
  let seen: Promise<OwnPlaylist[] | null> | undefined;
  let followUpAt: number | null = null;
  let priority: CallContext['priority'] = 'playlist_write';
  const apis = new Map<string, SpotifyApi>();
  return {
    userId: o.userId,
    repo: o.repo,
    settings: o.settings,
    log: o.log,
    now: o.now,
    fitting: o.fitting,
    api(purpose: SyncPurpose): SpotifyApi {
      const key = `${purpose}:${priority}`;
      let api = apis.get(key);
      if (!api) {
        api = o.api({ userId: o.userId, purpose, priority });
        apis.set(key, api);
      }
      return api;
    },
    /**
     * Until the runner has their first `firstFill` songs placed, the run's calls go with a new runner's
     * first pages (budget.ts `first_pages`): before anyone's scans and catalogs, and before adds to
     * playlists that already have their first songs (`playlist_write`).
     */
    firstSongs(yes: boolean): void {
      priority = yes ? 'first_pages' : 'playlist_write';
    },
    /** Before every write: still this user's writer? (A disconnect deletes the lease, so it stops here.) */
    async guard(): Promise<void> {
      if (!(await o.repo.renewLease(o.userId, o.holder, o.settings.leaseMs)))
        throw new LeaseLostError(o.userId);
    },
    /** The user's own playlists, read once per run (a creation made in this run is added to it). */
    ownPlaylists(): Promise<OwnPlaylist[]> {
      own ??= listOwnPlaylists(this.api('sync:check'), o.spotifyUserId);
      return own;
    },
    /**
     * The user's own playlists from before this connection made any, for what was there already (an
     * earlier connection's set, a playlist of a target's name): as the library's discovery read them for
     * this connection, without a call; null while it has not (a caller that can wait, waits). Without the
     * library (`seen` absent): read now. A playlist this connection may have made is `ownPlaylists`' to find.
     */
    knownOwnPlaylists(): Promise<OwnPlaylist[] | null> {
      if (!o.seen) return this.ownPlaylists();
      seen ??= o.seen(o.userId);
      return seen;
    },
    /** The same, read now when the library's discovery has not read them yet. */
    async ownPlaylistsBefore(): Promise<OwnPlaylist[]> {
      const known = await this.knownOwnPlaylists();
      if (known) return known;
      seen = this.ownPlaylists();
      return seen as Promise<OwnPlaylist[]>;
    },
    rememberOwn(p: OwnPlaylist): void {
      if (own) own = own.then((list) => [p, ...list]);
      if (seen) seen = seen.then((list) => list && [p, ...list]);
    },
    /** Something is left to settle at `at` (epoch ms): the job runs again then. */
    followUp(at: number): void {
      followUpAt = followUpAt === null ? at : Math.min(followUpAt, at);
    },
    followUpAt: () => followUpAt,
  };
}

export type SyncContext = ReturnType<typeof createSyncContext>;
