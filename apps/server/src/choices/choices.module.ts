// Wires a runner's choices: repositories, the choices service (corrections, exclusions, the RunnerChoices
// port matching reads) and the target lists service.
import type { PlaylistsRepository } from '../playlists/playlists.repository.ts';
import type { ListMatchCandidates } from '../playlists/candidates.ts';
import type { TempoRepository } from '../tempo/tempo.repository.ts';
import { createChoicesRepository } from './choices.repository.ts';
import { createChoicesService, type RemoveFromTargets } from './choices.service.ts';
import { createTrackListsRepository } from './track-lists.repository.ts';
import { createTrackListsService } from './track-lists.service.ts';

/** The Drizzle handle the repositories take (only repositories import the client itself). */
type Db = Parameters<typeof createChoicesRepository>[0];

export interface ChoicesModuleDeps {
  /** The library module's tracks of the user's enabled sources. */
  listMatchCandidates: ListMatchCandidates;
  /** The tempo cache (tempo module). */
  tempos: Pick<TempoRepository, 'getByKeys'>;
  /** Recording keys each target has in any state (playlists module). */
  placedSongs: PlaylistsRepository['placedSongs'];
  /** The playlists writer's removal port (`requestRemovals`). */
  removeFromTargets: RemoveFromTargets;
  /** Queues the user's playlist-sync (playlists module). */
  triggerSync: (userId: string) => Promise<unknown>;
  minConfidence?: number;
}

export function createChoicesModule(db: Db, deps: ChoicesModuleDeps) {
  const repo = createChoicesRepository(db);
  const lists = createTrackListsRepository(db);
  const service = createChoicesService({ repo, lists, ...deps });
  const trackLists = createTrackListsService({ lists, ...deps, runnerChoices: service.runnerChoices });
  return { repo, lists, service, trackLists };
}

export type ChoicesModule = ReturnType<typeof createChoicesModule>;
