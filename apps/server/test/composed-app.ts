// Pacebeat composed as main.ts composes it (compose.ts), on a test harness's database and simulated world:
// what the library harness's "processes" and the full-app tests run, so no test wires modules by hand.
// Jobs are recorded or sent to the queue the test gives; nothing else differs from production.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pino, { type Logger } from 'pino';
import { composePacebeat, type ComposeOptions, type Pacebeat } from '../src/app/compose.ts';
import { loadConfig, type Config } from '../src/app/config.ts';
import { buildApp } from '../src/app/http-app.ts';
import type { JobQueue } from '../src/app/job-registry.ts';
import { sandboxSpotifyEndpoints } from '../src/spotify/demo.ts';
import type { Harness } from '../src/spotify/sandbox-harness.test-helper.ts';
import { testOrigins } from './accounts-app.ts';

export interface ComposedTestOptions {
  /** Settings besides the harness's (its data folder and key, Spotify's limits off). */
  env?: Record<string, string>;
  /** Where jobs go; default: nowhere. */
  jobs?: JobQueue;
  cancelJobs?: ComposeOptions['cancelJobs'];
  overrides?: ComposeOptions['overrides'];
  /** A pool of its own (another "process"); default: the harness's. */
  ownPool?: boolean;
  /** The change feed the read caches listen to (none: no caches, as in a `work` process). */
  changes?: ComposeOptions['changes'];
}

export function composeOnHarness(h: Harness, o: ComposedTestOptions = {}) {
  const config = loadConfig({
    DATA_DIR: h.dataDir,
    TOKEN_ENCRYPTION_KEY: h.key,
    SPOTIFY_RATE_PER_30S: 'unlimited',
    SPOTIFY_DAILY_QUOTA: 'unlimited',
    ...o.env,
  });
  const pacebeat = composePacebeat({
    db: (o.ownPool ? h.pool() : h.db).db,
    config,
    log: pino({ level: 'silent' }),
    embedded: false,
    spotifyEndpoints: sandboxSpotifyEndpoints(h.sandbox),
    // Its own row of the setup page's client id: one a test saves ends no other test's connection.
    spotifyAppRow: `test-${randomUUID()}`,
    origins: testOrigins(config),
    demo: {
      baseUrls: h.sandbox.baseUrls,
      getsongbpmKey: h.sandbox.admin.config().getsongbpm.apiKeys[0]!,
    },
    jobs: o.jobs ?? { send: async () => null, wake: async () => undefined, sooner: async () => undefined },
    cancelJobs: o.cancelJobs,
    changes: o.changes,
    overrides: {
      ...o.overrides,
      spotify: { budgetKey: `test-${randomUUID()}`, ...o.overrides?.spotify },
      tempo: { limitScope: `${randomUUID()}:`, ...o.overrides?.tempo },
      // The database is shared: a saved client id ends no other test's connection and leaves the shared
      // tempo cache alone.
      setup: {
        accounts: { linkedUserIds: async () => [] },
        forgetDemoTempos: async () => 0,
        ...o.overrides?.setup,
      },
    },
  });
  return { config, pacebeat };
}

/** The HTTP app of a composed Pacebeat with every feature's routes, as main.ts builds it (no web build). */
export function composedHttpApp(pacebeat: Pacebeat, config: Config, log: Logger = pino({ level: 'silent' })) {
  return buildApp(
    {
      ...pacebeat.routes,
      webDistDir: path.join(os.tmpdir(), 'pacebeat-no-web-build'),
      origins: testOrigins(config),
      checkReady: async () => undefined,
    },
    { loggerInstance: log },
  );
}
