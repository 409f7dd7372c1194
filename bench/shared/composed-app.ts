// The product composed as main.ts composes it (compose.ts), in one process, for the benchmarks that drive its
// services directly: an embedded PostgreSQL on a fresh data folder, migrated; the simulated world; the
// estimator's thread pool; pg-boss as the `work` process builds it, with every job's workers started.
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { startSandbox, type FaultRule, type SandboxOptions } from '@pacebeat/sandbox';
import { composePacebeat } from '@pacebeat/server/src/app/compose.ts';
import { loadConfig } from '@pacebeat/server/src/app/config.ts';
import {
  createBoss,
  createJobQueue,
  jobRegistry,
  setupQueues,
  startWorkers,
} from '@pacebeat/server/src/app/job-registry.ts';
import { createDb } from '@pacebeat/server/src/db/client.ts';
import { startEmbeddedPostgres } from '@pacebeat/server/src/db/embedded.ts';
import { runMigrations } from '@pacebeat/server/src/db/migrate.ts';
import { sandboxSpotifyEndpoints } from '@pacebeat/server/src/spotify/demo.ts';
import { cancelUserJobs } from '@pacebeat/server/src/spotify/user-jobs.ts';
import { promoteSecondLooks } from '@pacebeat/server/src/tempo/second-look-promotion.ts';
import { createEstimatorPool } from '@pacebeat/server/src/tempo/estimator/index.ts';
import { PREVIEW_DISK_CACHE } from './preview-cache.ts';

const quiet = pino({ level: 'silent' });

export async function startComposedApp(o: {
  tag: string;
  size: NonNullable<SandboxOptions['size']>;
  /** Settings beside the data folder and the token key (the Spotify budget, say). */
  env?: Record<string, string>;
  faults?: FaultRule[];
}) {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `pacebeat-bench-${o.tag}-`));
  await fs.chmod(dir, 0o755); // the postgres OS user (when run as root) must reach it
  const pg = await startEmbeddedPostgres(path.join(dir, 'pg'), quiet);
  const handle = createDb(pg.url, { max: 8 });
  await runMigrations(handle);
  const sandbox = await startSandbox({
    size: o.size,
    faults: o.faults ?? [],
    previews: { diskCacheDir: PREVIEW_DISK_CACHE },
  });
  const pool = createEstimatorPool();
  // pg-boss as the product's `work` process builds it (its 15 s supervision, not pg-boss's 60 s defaults).
  const boss = createBoss(pg.url, { runsJobs: true });
  boss.on('error', () => undefined);
  await boss.start();
  await setupQueues(boss);
  const config = loadConfig({ DATA_DIR: dir, TOKEN_ENCRYPTION_KEY: 'cd'.repeat(32), ...o.env });
  const app = composePacebeat({
    db: handle.db,
    config,
    log: quiet,
    embedded: true,
    spotifyEndpoints: sandboxSpotifyEndpoints(sandbox),
    demo: { baseUrls: sandbox.baseUrls, getsongbpmKey: sandbox.admin.config().getsongbpm.apiKeys[0]! },
    jobs: createJobQueue(boss),
    cancelJobs: async (userId) => void (await cancelUserJobs(boss, Object.keys(jobRegistry), userId)),
    promoteSecondLooks: (userId) => promoteSecondLooks(boss, userId),
    estimatePreview: (mp3) => pool.estimateFromMp3(mp3),
  });
  // Aborted at the end: a running job stops at its next step (as at a shutdown).
  const stopping = new AbortController();
  await startWorkers(boss, app.jobServices, quiet, stopping.signal);

  /** A Pacebeat user connected to the world's user `username`, as the connect page does after the token exchange. */
  async function connect(username: string, email: string): Promise<string> {
    const [{ id: userId }] = (
      await handle.pool.query<{ id: string }>(
        `insert into users (email, name) values ($1, 'Runner') returning id`,
        [email],
      )
    ).rows as [{ id: string }];
    const tokens = sandbox.admin.connect({ userId: username });
    await app.spotify.connect.connect(userId, { ...tokens, refresh_token: tokens.refresh_token! });
    return userId;
  }

  return {
    app,
    config,
    sandbox,
    boss,
    handle,
    stopping,
    connect,
    async close() {
      stopping.abort();
      await boss.stop({ graceful: false, close: true });
      await pool.close();
      await sandbox.close();
      await handle.close();
      await pg.stop();
      await fs.rm(dir, { recursive: true, force: true });
    },
  };
}
