// Wires the target playlists: repository, service (targets, defaults, forgetting, removals on request),
// the runner's target editor, the writer and its job.
import type { Logger } from 'pino';
import type { ChangeFeed } from '../cache/change-feed.ts';
import { createLiveCache, STATUS_MAX_AGE_MS, STATUS_REFRESH_AFTER_MS } from '../cache/live-cache.ts';
import type { ListMatchCandidates } from './candidates.ts';
import { createPlaylistSyncJobs, type PlaylistSyncQueue } from './playlists.jobs.ts';
import { createPlaylistsRepository } from './playlists.repository.ts';
import { createPlaylistsService, type TargetsWithStats } from './playlists.service.ts';
import { createTargetEditor } from './target-editor.service.ts';
import { DEFAULT_WRITER_SETTINGS } from './sync-context.ts';
import { createPlaylistWriter, type PlaylistWriterDeps } from './writer.ts';

/** The Drizzle handle the repository takes (only repositories import the client itself). */
type Db = Parameters<typeof createPlaylistsRepository>[0];

export interface PlaylistsModuleDeps {
  accounts: PlaylistWriterDeps['accounts'];
  /** The Spotify Web API for one user, purpose and priority (spotify module). */
  api: PlaylistWriterDeps['api'];
  /** The tempo cache (tempo module). */
  tempos: PlaylistWriterDeps['tempos'];
  /** The library module's tracks of the user's enabled sources. */
  listMatchCandidates: ListMatchCandidates;
  /** Whether the runner's library is read (library module): what waits for company goes then. */
  libraryRead?: PlaylistWriterDeps['libraryRead'];
  /** The runner's own playlists as the library's discovery read them (library module). */
  ownPlaylistsSeen?: PlaylistWriterDeps['ownPlaylistsSeen'];
  /** The runner's tempo corrections and exclusions (choices module). */
  runnerChoices?: PlaylistWriterDeps['runnerChoices'];
  /** How busy Spotify's rate is (spotify module): how long an add waits for company. */
  rateInUse?: PlaylistWriterDeps['rateInUse'];
  /** Told when a runner's paces may take other tempos (a pace added, a range edited). */
  onWantedTemposChanged?: (userId: string) => Promise<unknown>;
  queue: PlaylistSyncQueue;
  log: Logger;
  settings?: PlaylistWriterDeps['settings'];
  /** Cross-process invalidation: with it, GET targets is cached per user and process. */
  changes?: ChangeFeed;
}

export function createPlaylistsModule(db: Db, deps: PlaylistsModuleDeps) {
  const repo = createPlaylistsRepository(db);
  const writer = createPlaylistWriter({ repo, ...deps });
  const firstFill = deps.settings?.firstFill ?? DEFAULT_WRITER_SETTINGS.firstFill;
  /** Whether the runner has fewer than their first `firstFill` songs placed: what goes first for them. */
  const firstSongs = (userId: string) => repo.fewerPlacedThan(userId, firstFill);
  const jobs = createPlaylistSyncJobs({ writer, queue: deps.queue, firstSongs });
  const cache =
    deps.changes &&
    createLiveCache<TargetsWithStats>({
      // The writer's changes arrive by NOTIFY; the age bounds a lost one.
      feed: deps.changes,
      maxAgeMs: STATUS_MAX_AGE_MS,
      refreshAfterMs: STATUS_REFRESH_AFTER_MS,
    });
  // The runner's own changes: they watch them reach Spotify.
  const service = createPlaylistsService({ repo, trigger: jobs.triggerWatched, cache });
  const edits = createTargetEditor({
    repo,
    trigger: jobs.triggerWatched,
    ...(deps.onWantedTemposChanged ? { onWantedTemposChanged: deps.onWantedTemposChanged } : {}),
  });
  // The runner's own edits are seen at once by this process (the NOTIFY reaches the others).
  const edited =
    <A extends [string, ...unknown[]], R>(f: (...a: A) => Promise<R>) =>
    async (...a: A): Promise<R> => {
      try {
        return await f(...a);
      } finally {
        cache?.drop(`targets:${a[0]}`);
      }
    };
  const editor: typeof edits = {
    add: edited(edits.add),
    edit: edited(edits.edit),
    remove: edited(edits.remove),
    removeUnfitting: edited(edits.removeUnfitting),
  };
  return { repo, service, editor, writer, jobs, firstSongs };
}

export type PlaylistsModule = ReturnType<typeof createPlaylistsModule>;
