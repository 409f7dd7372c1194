// The process shell: reads the settings, opens the database and the job queue, composes the app
// (compose.ts), and runs one command:
//   all (default)  serve the web app and API, and run background jobs
//   serve          only the web app and API (jobs are queued for `work` processes)
//   work           only background jobs
//   migrate        apply database migrations and exit
import closeWithGrace from 'close-with-grace';
import dotenv from 'dotenv';
import type { PgBoss } from 'pg-boss';
import type { AccountsModule } from '../accounts/accounts.module.ts';
import { startChangeFeed, type ChangeFeed } from '../cache/change-feed.ts';
import { composePacebeat } from './compose.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase, type Database } from '../db/database.ts';
import { startLoadMonitor } from '../metrics/load-monitor.ts';
import { AlreadyRunningError } from '../db/embedded.ts';
import { runMigrations } from '../db/migrate.ts';
import { buildApp } from './http-app.ts';
import { cspInForce } from './csp.ts';
import { NotReadyError } from '../http/health.routes.ts';
import { startMetricsServer, type MetricsServer } from '../http/metrics-server.ts';
import { appOrigins } from '../http/origins.ts';
import { createLogger } from '../log.ts';
import { createBoss, createJobQueue, jobRegistry, setupQueues, startWorkers } from './job-registry.ts';
import { audioWorkers } from '../tempo/tempo.jobs.ts';
import { registerCoreGauges } from '../metrics/core-gauges.ts';
import { createMetrics } from '../metrics/metrics.ts';
import { createMetricsRepository } from '../metrics/metrics.repository.ts';
import type { DemoSpotify } from '../spotify/demo.ts';
import { createSpotifyAppRepository } from '../spotify/spotify-app.repository.ts';
import { realSpotify } from '../spotify/spotify.module.ts';
import { cancelUserJobs } from '../spotify/user-jobs.ts';
import { promoteSecondLooks } from '../tempo/second-look-promotion.ts';
import { createEstimatorPool, type EstimatorPool } from '../tempo/estimator/index.ts';

const COMMANDS = ['all', 'serve', 'work', 'migrate'] as const;
type Command = (typeof COMMANDS)[number];

async function main(): Promise<void> {
  const command = (process.argv[2] ?? 'all') as Command;
  if (!COMMANDS.includes(command)) {
    console.error(`Unknown command "${command}". Use one of: ${COMMANDS.join(', ')}.`);
    process.exit(2);
  }
  dotenv.config({ quiet: true });
  let config;
  try {
    config = loadConfig();
  } catch (err) {
    if (err instanceof ConfigError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  const log = createLogger({
    level: config.LOG_LEVEL,
    base: { cmd: command },
    buffered: command !== 'migrate',
  });

  // Filled in as parts start, so a signal during start-up stops what is already running.
  const running: {
    stopPostgres?: () => Promise<void>;
    db?: Database;
    boss?: PgBoss;
    accounts?: AccountsModule;
    app?: Awaited<ReturnType<typeof buildApp>>;
    demo?: DemoSpotify;
    estimator?: EstimatorPool;
    metricsServer?: MetricsServer;
    changes?: ChangeFeed;
  } = {};
  // Aborted when the shutdown begins: running jobs stop at their next step and queue what is left of their
  // work again, for the next process (job-registry.ts).
  const stopWork = new AbortController();
  const shutdownMs = config.SHUTDOWN_TIMEOUT_SECONDS * 1000;
  // Past the time limit close-with-grace exits at once ("killed by timeout"); the embedded PostgreSQL is
  // then stopped by its exit hook (db/embedded.ts). The orderly way below fits within the limit.
  closeWithGrace({ delay: shutdownMs, logger: log }, async ({ signal, err }) => {
    stopping = true;
    stopWork.abort();
    // Jobs get the time limit but for what stopping the rest (the database above all) takes after them.
    const jobsUntil = Date.now() + shutdownMs - Math.min(5_000, shutdownMs / 3);
    if (err) log.error({ err }, 'shutting down after an error');
    else log.info({ signal }, 'shutting down');
    // The estimator's threads end now: an estimate cut short leaves its track to the next process.
    await running.estimator?.close();
    await running.app?.close(); // stop accepting, let in-flight requests finish
    await running.metricsServer?.close();
    // Handlers still running at `jobsUntil` are failed (pg-boss retries them) and left behind.
    await running.boss?.stop({ graceful: true, close: true, timeout: Math.max(0, jobsUntil - Date.now()) });
    await running.accounts?.close();
    await running.changes?.close();
    if (running.db) await running.db.close();
    else await running.stopPostgres?.();
    await running.demo?.close();
  });
  graceInstalled = true;

  let db: Database;
  try {
    db = await openDatabase(
      config,
      log,
      {
        onStoppable: (stop) => (running.stopPostgres = stop),
        // Without its database the process is no use: exit non-zero (after an orderly shutdown) so a
        // supervisor (systemd, a container runtime) starts it again, with a fresh embedded server.
        onUnexpectedExit: () => {
          if (stopping) return;
          setImmediate(() => {
            throw new Error(
              'the embedded PostgreSQL server exited; stopping so a supervisor can restart Pacebeat',
            );
          });
        },
      },
      `pacebeat-${command}`,
    );
  } catch (err) {
    if (err instanceof AlreadyRunningError) {
      console.error(err.message);
      process.exit(1);
    }
    throw err;
  }
  running.db = db;

  await runMigrations(db);
  if (command === 'migrate') {
    log.info('migrations applied');
    await db.close();
    return;
  }

  const runsJobs = command === 'all' || command === 'work';
  const servesHttp = command === 'all' || command === 'serve';

  const boss = createBoss(db.url, { runsJobs });
  boss.on('error', (err) => {
    // The embedded PostgreSQL's own shutdown may end a connection pg-boss is still closing: not an error.
    if (stopping && (err as { code?: unknown }).code === '57P01') return;
    log.error({ err }, 'job queue error');
  });
  await boss.start();
  running.boss = boss;
  await setupQueues(boss);

  // Prometheus metrics (METRICS_LISTEN): this process's counters, and gauges read from PostgreSQL per scrape.
  const metricsRepo = createMetricsRepository(db.db);
  const metrics = config.METRICS_LISTEN
    ? createMetrics({ pingDatabase: () => metricsRepo.ping() })
    : undefined;
  // Whether this process keeps up (event loop, pool): a warning when not, and gauges.
  startLoadMonitor({
    pool: db.pool,
    poolMax: db.poolMax,
    log: log.child({ module: 'load' }),
    registry: metrics?.registry,
  });

  // Per-process caches of sessions and connect status, kept honest across processes by LISTEN/NOTIFY.
  const changes = servesHttp
    ? startChangeFeed({ url: db.url, log: log.child({ module: 'cache' }) })
    : undefined;
  running.changes = changes;
  // Spotify: the real one when a client id is set (SPOTIFY_CLIENT_ID, or saved on the setup page);
  // otherwise demo mode, the simulated world, until an admin saves a client id.
  const savedApp = realSpotify(config) ? undefined : await createSpotifyAppRepository(db.db).get();
  const origins = servesHttp ? appOrigins(config) : undefined;
  if (!realSpotify(config) && !savedApp) {
    // Loaded only in demo mode: a real Spotify never loads the simulated world's modules.
    const { demoRedirectUris, startDemoSpotify } = await import('../spotify/demo.ts');
    running.demo = await startDemoSpotify({
      log,
      transientFailures: config.DEMO_TRANSIENT_FAILURES,
      sandboxUrl: config.DEMO_SANDBOX_URL,
      dailyQuota: config.SPOTIFY_DAILY_QUOTA,
      sandboxAdminToken: config.DEMO_SANDBOX_ADMIN_TOKEN,
      sandboxPort: config.DEMO_SANDBOX_PORT,
      // The connect page at the app's own origins: the consent page sends browsers back there alone.
      redirectUris: origins ? demoRedirectUris(origins) : [],
    });
    if (command !== 'all' && !config.DEMO_SANDBOX_URL)
      log.warn('demo mode runs its simulated Spotify inside each process: use `all`, or DEMO_SANDBOX_URL');
  }
  // Only job workers estimate tempos from previews, on the estimator's worker threads.
  if (runsJobs) running.estimator = createEstimatorPool();
  const estimator = running.estimator;
  const app = composePacebeat({
    db: db.db,
    config,
    log,
    embedded: db.embedded,
    spotifyEndpoints: running.demo?.endpoints,
    origins,
    demo: running.demo,
    jobs: createJobQueue(boss),
    cancelJobs: async (userId) => void (await cancelUserJobs(boss, Object.keys(jobRegistry), userId)),
    promoteSecondLooks: (userId) => promoteSecondLooks(boss, userId),
    changes,
    metrics,
    estimatePreview: estimator && ((mp3) => estimator.estimateFromMp3(mp3)),
  });
  running.accounts = app.accounts;
  // Scale-out: every process must open the tokens the others sealed (a ConfigError exits with its message).
  await app.spotify.assertSameTokenKey();

  if (runsJobs) {
    await startWorkers(boss, app.jobServices, log, stopWork.signal, {
      'tempo-audio': audioWorkers(config.PREVIEW_RATE_PER_SECOND),
    });
    log.info('background jobs running');
  }

  if (servesHttp) {
    const server = await buildApp(
      {
        ...app.routes,
        webDistDir: config.WEB_DIST_DIR,
        origins: origins!,
        // Per answer: the Spotify accounts origin follows the client id in force (the setup page may set it).
        csp: cspInForce(() => app.spotifyApp.current(), {
          firebase:
            config.authProvider === 'firebase'
              ? {
                  authDomain: config.FIREBASE_WEB_CONFIG?.authDomain,
                  emulatorUrl: config.FIREBASE_AUTH_EMULATOR_HOST
                    ? `http://${config.FIREBASE_AUTH_EMULATOR_HOST}`
                    : undefined,
                }
              : undefined,
        }),
        async checkReady() {
          if (stopping) throw new NotReadyError('shutting down');
          await db.pool.query('select 1');
          if (!(await boss.getQueue('housekeeping'))) throw new NotReadyError('job queue not set up');
        },
      },
      { loggerInstance: log, trustProxy: config.TRUST_PROXY },
    );
    running.app = server;
    await server.listen({ host: config.HOST, port: config.PORT });
    // No admin yet: the log says how this installation gets one (at a public address, a setup link).
    await app.accounts.accounts.announceFirstAdmin(origins!.linkOrigin);
  }

  if (metrics && config.METRICS_LISTEN) {
    registerCoreGauges(metrics, metricsRepo, async () => (await app.spotify.app()).limits);
    running.metricsServer = await startMetricsServer(metrics, {
      ...config.METRICS_LISTEN,
      token: config.METRICS_TOKEN,
      log,
    });
  }
}

let graceInstalled = false;
/** Set when the orderly shutdown begins; start-up steps still in flight then fail, and that is expected. */
let stopping = false;
main().catch((err) => {
  if (stopping) return; // the shutdown under way stops what started and exits
  if (graceInstalled) {
    // Start-up failed after parts were running (e.g. the port is taken): raise it where close-with-grace
    // catches errors, so the same orderly shutdown runs (the embedded PostgreSQL stops) before exit(1).
    setImmediate(() => {
      throw err;
    });
    return;
  }
  // A setting that only fails when used (e.g. a DATA_DIR PostgreSQL cannot reach): its message says it all.
  console.error(err instanceof ConfigError ? err.message : err);
  process.exit(1);
});
