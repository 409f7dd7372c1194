// Composition root: reads the settings, opens the database, wires services, and runs one command:
//   all (default)  serve the web app and API, and run background jobs
//   serve          only the web app and API (jobs are queued for `work` processes)
//   work           only background jobs
//   migrate        apply database migrations and exit
import closeWithGrace from 'close-with-grace';
import dotenv from 'dotenv';
import { PgBoss } from 'pg-boss';
import pino from 'pino';
import { createAccountsModule } from './accounts/accounts.module.ts';
import { ConfigError, loadConfig } from './config.ts';
import { openDatabase } from './db/database.ts';
import { runMigrations } from './db/migrate.ts';
import { buildApp } from './http/app.ts';
import { createHousekeepingService } from './jobs/housekeeping.service.ts';
import { createJobQueue, jobRegistry, setupQueues, startWorkers } from './jobs/registry.ts';
import { createPlaylistsModule } from './playlists/playlists.module.ts';
import { startDemoSpotify } from './spotify/demo.ts';
import { createSpotifyModule, realSpotify } from './spotify/spotify.module.ts';
import { cancelUserJobs } from './spotify/user-jobs.ts';
import { createEstimatorPool, type EstimatorPool } from './tempo/estimator/index.ts';
import { spotifyAudioFeaturesFor } from './tempo/spotify-audio-features.ts';
import { createTempoLookups } from './tempo/tempo.jobs.ts';
import { createTempoModule } from './tempo/tempo.module.ts';

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
  const log = pino({ level: config.LOG_LEVEL, base: { cmd: command } });

  const db = await openDatabase(config, log);
  // Filled in as parts start, so a signal during start-up stops what is already running.
  const running: {
    boss?: PgBoss;
    app?: Awaited<ReturnType<typeof buildApp>>;
    demo?: Awaited<ReturnType<typeof startDemoSpotify>>;
    estimator?: EstimatorPool;
  } = {};
  let stopping = false;
  closeWithGrace({ delay: config.SHUTDOWN_TIMEOUT_SECONDS * 1000, logger: log }, async ({ signal, err }) => {
    stopping = true;
    if (err) log.error({ err }, 'shutting down after an error');
    else log.info({ signal }, 'shutting down');
    await running.app?.close(); // stop accepting, let in-flight requests finish
    await running.boss?.stop({
      graceful: true,
      close: true,
      timeout: config.SHUTDOWN_TIMEOUT_SECONDS * 1000,
    });
    await running.estimator?.close();
    await accounts.close();
    await db.close();
    await running.demo?.close();
  });
  graceInstalled = true;

  await runMigrations(db);
  if (command === 'migrate') {
    log.info('migrations applied');
    await db.close();
    return;
  }

  const runsJobs = command === 'all' || command === 'work';
  const servesHttp = command === 'all' || command === 'serve';

  // Producers (serve) and consumers (work) share one queue in PostgreSQL; only consumers supervise and schedule.
  const boss = new PgBoss({
    connectionString: db.url,
    schema: 'pgboss',
    max: 4,
    application_name: 'pacebeat-jobs',
    supervise: runsJobs,
    schedule: runsJobs,
  });
  boss.on('error', (err) => log.error({ err }, 'job queue error'));
  await boss.start();
  running.boss = boss;
  await setupQueues(boss);

  const accounts = createAccountsModule(
    db.db,
    { ...config, embedded: db.embedded },
    log.child({ module: 'accounts' }),
  );
  // Spotify: the real one when a client id is set; otherwise demo mode, the simulated world in-process.
  let spotifyEndpoints = realSpotify(config);
  if (!spotifyEndpoints) {
    running.demo = await startDemoSpotify({ host: config.HOST, log });
    spotifyEndpoints = running.demo.endpoints;
    if (command !== 'all') log.warn('demo mode runs its simulated Spotify inside each process: use `all`');
  }
  const spotify = createSpotifyModule(db.db, spotifyEndpoints!, config, log, {
    // Disconnect (or a connect that replaces the account): stop the user's jobs, then forget their targets
    // (a writer still running finds its lease gone and stops before its next write).
    onMusicAccountGone: [
      async (userId) => void (await cancelUserJobs(boss, Object.keys(jobRegistry), userId)),
      (userId) => playlists.service.forgetUser(userId),
    ],
    // Every connect: the default targets (idempotent), and a first writer run.
    onMusicAccountLinked: [
      async (userId) => {
        await playlists.service.createDefaultTargets(userId);
        await playlists.jobs.trigger(userId);
      },
    ],
  });

  // Tempo: in demo mode the simulated Deezer, ReccoBeats and GetSongBPM (with its key). Only job workers estimate
  // from previews, on the estimator's worker threads.
  if (runsJobs) running.estimator = createEstimatorPool();
  const estimator = running.estimator;
  const demo = running.demo;
  const tempo = createTempoModule(
    db.db,
    demo
      ? {
          ...config,
          DEEZER_API_URL: demo.baseUrls.deezer,
          RECCOBEATS_API_URL: demo.baseUrls.reccobeats,
          GETSONGBPM_API_URL: demo.baseUrls.getsongbpm,
          GETSONGBPM_API_KEY: demo.getsongbpmKey,
        }
      : config,
    estimator ? { estimatePreview: (mp3) => estimator.estimateFromMp3(mp3) } : {},
  );
  const queue = createJobQueue(boss);
  // Target playlists: the writer syncs each user's targets to Spotify in playlist-sync jobs.
  const playlists = createPlaylistsModule(db.db, {
    accounts: spotify.accounts,
    api: spotify.api,
    tempos: tempo.repo,
    // The library module (issue 10) lists the tracks of the user's enabled sources; until it is merged,
    // none: targets are made and shown, and nothing is placed.
    listMatchCandidates: async () => [],
    queue,
    log,
  });
  // Producer (enqueue, for library scans) and consumer (run, the tempo-lookup job) of tempo lookups;
  // a job for a user's library asks that user's Spotify for audio-features.
  const tempoLookups = createTempoLookups({
    tempo: tempo.service,
    queue,
    audioFeaturesFor: spotifyAudioFeaturesFor(spotify),
    onTemposFound: (userId) => playlists.jobs.trigger(userId),
  });
  if (runsJobs) {
    const housekeeping = createHousekeepingService({
      sessions: accounts.sessionRows,
      codes: accounts.codes,
      attempts: accounts.attempts,
    });
    await startWorkers(boss, { housekeeping, tempoLookups, playlistSync: playlists.jobs }, log);
    log.info('background jobs running');
  }

  if (servesHttp) {
    const app = await buildApp(
      {
        webDistDir: config.WEB_DIST_DIR,
        accounts: {
          accounts: accounts.accounts,
          sessions: accounts.sessions,
          publicUrl: config.PUBLIC_URL,
          servicesStatus: (userId) => spotify.connect.status(userId),
        },
        spotify: { spotify: spotify.connect },
        tempo: { tempo: tempo.service },
        playlists: { playlists: playlists.service },
        async checkReady() {
          if (stopping) throw new Error('shutting down');
          await db.pool.query('select 1');
          if (!(await boss.getQueue('housekeeping'))) throw new Error('job queue not set up');
        },
      },
      { loggerInstance: log },
    );
    running.app = app;
    await app.listen({ host: config.HOST, port: config.PORT });
  }
}

let graceInstalled = false;
main().catch((err) => {
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
