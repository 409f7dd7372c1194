// The HTTP app with every feature's routes on the real test database and the simulated Spotify, for
// the tests that walk Fastify's route table (fuzzing, the API document's coverage). A feature that adds
// routes adds its module here, and those tests cover its routes with no other change.
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { createAccountsModule } from '../src/accounts/accounts.module.ts';
import { createChoicesModule } from '../src/choices/choices.module.ts';
import { loadConfig } from '../src/config.ts';
import { buildApp } from '../src/http/app.ts';
import { startLibraryHarness, type LibraryHarness } from '../src/library/library.test-helper.ts';
import { createPlaylistsRepository } from '../src/playlists/playlists.repository.ts';
import { createTempoRepository } from '../src/tempo/tempo.repository.ts';
import { createPlaylistsService } from '../src/playlists/playlists.service.ts';
import { createTargetEditor } from '../src/playlists/target-editor.service.ts';
import { testOrigins } from './accounts-app.ts';

export interface FullApp {
  app: FastifyInstance;
  harness: LibraryHarness;
  /** The session cookie of a signed-in admin (`ADMIN_EMAILS`), as a `cookie` header value. */
  adminCookie: string;
  close(): Promise<void>;
}

export async function buildFullApp(env: Record<string, string> = {}): Promise<FullApp> {
  const harness = await startLibraryHarness();
  const log = pino({ level: 'silent' });
  const email = `full-${Date.now()}-${Math.random().toString(36).slice(2)}@example.org`;
  const config = loadConfig({ ADMIN_EMAILS: email, ...env });
  const accounts = createAccountsModule(harness.db.db, { ...config, embedded: false }, log);
  const lib = harness.libraryProcess();
  const spotify = lib.spotify;
  const playlistsRepo = createPlaylistsRepository(harness.db.db);
  const choices = createChoicesModule(harness.db.db, {
    listMatchCandidates: async () => [],
    tempos: createTempoRepository(harness.db.db),
    placedSongs: playlistsRepo.placedSongs,
    removeFromTargets: async (_userId, removals) => removals.length,
    triggerSync: async () => undefined,
  });
  const app = await buildApp(
    {
      webDistDir: path.join(os.tmpdir(), 'pacebeat-no-web-build'),
      origins: testOrigins(config),
      checkReady: async () => undefined,
      accounts: {
        accounts: accounts.accounts,
        sessions: accounts.sessions,
        servicesStatus: (userId) => spotify.connect.status(userId),
      },
      spotify: { spotify: spotify.connect, limits: accounts.limits },
      library: { library: lib.library.service, refresh: lib.library.refresh },
      playlists: {
        playlists: createPlaylistsService({ repo: playlistsRepo }),
        editor: createTargetEditor({ repo: playlistsRepo, trigger: async () => undefined }),
      },
      choices: { choices: choices.service, trackLists: choices.trackLists },
      tempo: { tempo: { credits: () => ({ getSongBpm: false }) } },
      actionLimits: accounts.limits,
    },
    { loggerInstance: log },
  );
  const signup = await app.inject({
    method: 'POST',
    url: '/api/signup',
    payload: { email, name: 'Admin', password: 'run4fun!' },
  });
  const c = signup.cookies.find((x) => x.name === 'pacebeat_session');
  return {
    app,
    harness,
    adminCookie: c ? `pacebeat_session=${c.value}` : '',
    async close() {
      await app.close();
      await accounts.close();
      await harness.close();
    },
  };
}

/** Every route of the app under /api, as [method, url] pairs, from Fastify's own route table. */
export function apiRoutes(app: FastifyInstance): [string, string][] {
  const out: [string, string][] = [];
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /(\/\S*) \(([A-Z, ]+)\)/.exec(line);
    if (!m || !m[1]!.startsWith('/api/')) continue;
    for (const method of m[2]!.split(', ')) if (method !== 'HEAD') out.push([method, m[1]!]);
  }
  return out;
}
