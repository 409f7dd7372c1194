// Wires runs: the repository and the service (builds written to one Spotify playlist per run).
import { createRunsRepository } from './runs.repository.ts';
import { createRunsService, type RunsServiceDeps } from './runs.service.ts';

/** The Drizzle handle the repository takes (only repositories import the client itself). */
type Db = Parameters<typeof createRunsRepository>[0];

export function createRunsModule(db: Db, deps: Omit<RunsServiceDeps, 'repo'>) {
  const repo = createRunsRepository(db);
  const service = createRunsService({ repo, ...deps });
  return { repo, service };
}

export type RunsModule = ReturnType<typeof createRunsModule>;
