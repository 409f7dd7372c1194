// What every scan step gets, and the cursors they keep in `library_sources.cursor`. A step makes at most
// one Spotify call and commits what it read together with its cursor, so a stop (quota, 429, crash,
// restart) after any step resumes at the next page and no page is read twice.
import type { SpotifyApi } from '../spotify/api.ts';
import type { CallContext } from '../spotify/client.ts';
import type { LibraryRepository } from './library.repository.ts';

export interface LibrarySettings {
  /** `include_groups` of the catalog listings (see docs/architecture.md: what each group costs and brings). */
  catalogGroups: string;
  /** Releases listed per artist at most (newest first): guards against catalogs of thousands. */
  maxReleasesPerArtist: number;
  /** A read catalog is checked for new releases after this long. */
  catalogRecheckMs: number;
  /** Liked Songs pages read at the `first_pages` priority right after connecting. */
  interactivePages: number;
  /** A full re-read of Liked Songs or Followed artists to find removals, at most this often. */
  fullReadEveryMs: number;
  /** Spotify calls one scan job makes before it queues the next (a short unit). */
  callsPerUnit: number;
  /** Failures in a row after which a source waits for the next rescan. */
  maxFailures: number;
}

export const DEFAULT_LIBRARY_SETTINGS: LibrarySettings = {
  catalogGroups: 'album,single',
  maxReleasesPerArtist: 300,
  catalogRecheckMs: 30 * 86_400_000,
  interactivePages: 4,
  fullReadEveryMs: 7 * 86_400_000,
  callsPerUnit: 5,
  maxFailures: 5,
};

export type LibraryApi = Pick<
  SpotifyApi,
  | 'savedTracks'
  | 'myPlaylists'
  | 'playlistTracks'
  | 'followedArtists'
  | 'artistAlbums'
  | 'album'
  | 'albums'
  | 'severalAlbums'
  | 'albumTracks'
>;

/** Which tracks a tempo lookup is for: the runner's own (Liked Songs, their playlists), and of those a new
 *  library's first Liked Songs pages (read at the interactive priority); else catalog tracks. */
export interface TempoQueueOptions {
  ownLibrary?: boolean;
  firstPages?: boolean;
  /** The first of those pages (TEMPO_PRIORITY.firstPage). */
  firstPage?: boolean;
  /** Catalog tracks of a runner who has fewer than their first 50 songs placed (TEMPO_PRIORITY.firstCatalog). */
  firstSongs?: boolean;
}

export interface ScanContext {
  repo: Pick<
    LibraryRepository,
    | 'inScan'
    | 'getUser'
    | 'listSources'
    | 'refreshUserArtists'
    | 'nextCatalogArtist'
    | 'getArtist'
    | 'nextUnreadReleases'
    | 'nextUnreadReleasesAcross'
    | 'catalogTracksAwaitingTempo'
  >;
  api: (ctx: CallContext) => LibraryApi;
  /**
   * Queues tempo lookups for tracks just stored (those not queued before under their key), at the
   * priority its options say (TEMPO_PRIORITY).
   */
  queueTempo: (userId: string, trackIds: string[], opts?: TempoQueueOptions) => Promise<void>;
  settings: LibrarySettings;
  /**
   * Whether the runner has fewer than their first 50 songs placed (the playlists module): their artist
   * catalogs are then read at `first_catalogs`, not `catalog_expansion` (budget.ts).
   */
  firstSongs?: (userId: string) => Promise<boolean>;
  /** Pacebeat's own target playlists of a user: never a source. */
  targetPlaylistIds?: (userId: string) => Promise<Set<string>>;
}

/** What a step did: Spotify calls made and tracks stored; `idle` when it found nothing to do. */
export interface StepResult {
  calls: number;
  tracks: number;
  idle?: boolean;
}

export const PAGE = 50;

/** A source's progress after one more page of `items` items (of `total`), as every scan step records it. */
export function pageProgress(
  s: { pagesRead: number; itemsRead: number; failures: number },
  starting: boolean,
  items: number,
  total: number,
  pagesTotal: number | null = Math.ceil(total / PAGE),
) {
  return {
    pagesRead: (starting ? 0 : s.pagesRead) + 1,
    itemsRead: (starting ? 0 : s.itemsRead) + items,
    pagesTotal,
    total,
    error: null,
    failures: 0,
    resumesAt: null,
    // A pass clears what made it due; a step after a failure's pause clears the pause.
    ...(starting || s.failures > 0 ? { dueAt: null } : {}),
  };
}

/** A queued tempo lookup not answered after this long is queued again (its job was lost or cancelled). */
export const TEMPO_REQUEUE_MS = 24 * 3600_000;

/** Liked Songs: `full` reads every page (and then drops what it did not see); `new` stops at a page with nothing new. */
export interface LikedCursor {
  mode: 'full' | 'new';
  offset: number;
  pass: number;
}

export interface PlaylistCursor {
  offset: number;
  pass: number;
  /** The snapshot this pass reads (from discovery); recorded as read when the pass ends. */
  snapshot: string | null;
}

/** Followed artists: `check` reads the first page and stops if nothing changed; `full` reads all. */
export interface FollowedCursor {
  mode: 'check' | 'full';
  after: string | null;
  pass: number;
  position: number;
}

export const unixSeconds = (d: Date | null | undefined) => (d ? Math.floor(d.getTime() / 1000) : null);
