// Wires the target playlists: repository, service (targets, defaults, forgetting, removals on request),
// the runner's target editor, the writer and its job.
import type { Logger } from 'pino';
import type { ListMatchCandidates } from './candidates.ts';
import { createPlaylistSyncJobs, type PlaylistSyncQueue } from './playlists.jobs.ts';
import { createPlaylistsRepository } from './playlists.repository.ts';
import { createPlaylistsService } from './playlists.service.ts';
import { createTargetEditor } from './target-editor.service.ts';
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
  /** The runner's tempo corrections and exclusions (choices module). */
  runnerChoices?: PlaylistWriterDeps['runnerChoices'];
  queue: PlaylistSyncQueue;
  log: Logger;
  settings?: PlaylistWriterDeps['settings'];
}

export function createPlaylistsModule(db: Db, deps: PlaylistsModuleDeps) {
  const repo = createPlaylistsRepository(db);
  const writer = createPlaylistWriter({ repo, ...deps });
  const jobs = createPlaylistSyncJobs({ writer, queue: deps.queue });
  const service = createPlaylistsService({ repo, trigger: jobs.trigger });
  const editor = createTargetEditor({ repo, trigger: jobs.trigger });
  return { repo, service, editor, writer, jobs };
}

export type PlaylistsModule = ReturnType<typeof createPlaylistsModule>;
