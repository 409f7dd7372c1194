// The one composition of Pacebeat: every module built once, in dependency order, and the
// cross-module hooks as typed in-process events. main.ts (the process shell), the test helpers that need
// the whole app and the benchmarks that run the pipeline all build the app here, so what they run is what
// production runs. Adding a feature means adding its module and its subscriptions below, nowhere else.
import type { Logger } from 'pino';
import { createAccountsModule } from '../accounts/accounts.module.ts';
import { createAdminService } from '../accounts/admin.service.ts';
import type { ChangeFeed } from '../cache/change-feed.ts';
import { createChoicesModule } from '../choices/choices.module.ts';
import type { Config } from './config.ts';
import type { AppDeps } from './http-app.ts';
import { createHousekeepingService } from '../jobs/housekeeping.service.ts';
import type { JobQueue, JobServices } from './job-registry.ts';
import { createLibraryModule } from '../library/library.module.ts';
import { libraryScanQueue } from '../library/scan.jobs.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { createPlaylistsModule, type PlaylistsModuleDeps } from '../playlists/playlists.module.ts';
import { SHARED_TEMPOS_HOLDERS_MAX } from '../playlists/playlists.jobs.ts';
import { createRunsModule } from '../runs/runs.module.ts';
import { appOrigins, type AppOrigins } from '../http/origins.ts';
import type { DemoAccountsRoutesOptions } from '../spotify/demo-accounts.routes.ts';
import { createSetupService, type SetupServiceDeps } from '../spotify/setup.service.ts';
import { createSpotifyAppRepository } from '../spotify/spotify-app.repository.ts';
import { createSpotifyAppSettings } from '../spotify/spotify-app.service.ts';
import {
  createSpotifyModule,
  type SpotifyEndpoints,
  type SpotifyModuleOverrides,
} from '../spotify/spotify.module.ts';
import { spotifyAudioFeaturesFor } from '../tempo/spotify-audio-features.ts';
import { createTempoLookups } from '../tempo/tempo.jobs.ts';
import { createTempoModule, type TempoModuleOptions } from '../tempo/tempo.module.ts';

/** The Drizzle handle the modules take (only repositories import the client itself). */
type Db = Parameters<typeof createAccountsModule>[0];

/** What happens to a runner that other modules act on. Handlers run in subscription order. */
export interface PacebeatEvents {
  /** A Spotify account was linked (first connect or a reconnect). */
  connected: [userId: string, account: { spotifyUserId: string }];
  /** The runner's music account went away (disconnect, or a connect that replaced it). */
  gone: [userId: string];
  /** A library scan stored new tracks for the runner. */
  tracksAdded: [userId: string];
  /** A lookup of `userId`'s library found tempos; `keys`, the recordings (others may hold them too). */
  temposFound: [userId: string, keys?: string[]];
  /** The runner's paces or runs may take other tempos now (a pace added or its range edited, a run saved). */
  wantedTemposChanged: [userId: string];
}

export interface EventBus {
  on<E extends keyof PacebeatEvents>(
    event: E,
    handler: (...args: PacebeatEvents[E]) => Promise<unknown>,
  ): void;
  /** Runs the event's handlers one after another (each sees the effects of those before it). */
  emit<E extends keyof PacebeatEvents>(event: E, ...args: PacebeatEvents[E]): Promise<void>;
}

export function createEventBus(): EventBus {
  type Handler = (...args: unknown[]) => Promise<unknown>;
  const handlers = new Map<keyof PacebeatEvents, Handler[]>();
  return {
    on(event, handler) {
      handlers.set(event, [...(handlers.get(event) ?? []), handler as unknown as Handler]);
    },
    async emit(event, ...args) {
      for (const handler of handlers.get(event) ?? []) await handler(...args);
    },
  };
}

/** The simulated world's tempo services and key, in demo mode (spotify/demo.ts). */
export interface DemoTempoServices {
  baseUrls: { deezer: string; reccobeats: string; getsongbpm: string };
  getsongbpmKey: string;
}

export interface ComposeOptions {
  db: Db;
  config: Config;
  log: Logger;
  /** The database is the embedded one (the first admin and the sign-up rules do not depend on it). */
  embedded: boolean;
  /**
   * The simulated Spotify this process started (demo mode), or a fixed real one (tests); absent: the
   * real Spotify of the settings. Either way the client id in force is read at request time: SPOTIFY_CLIENT_ID,
   * else the one an admin saved on the setup page, else these demo endpoints.
   */
  spotifyEndpoints?: SpotifyEndpoints;
  /** Tests sharing one database: their own row of `spotify_app` (the setup page's client id). */
  spotifyAppRow?: string;
  /** The app's origins (the setup page's redirect URIs); default `appOrigins(config)`. */
  origins?: AppOrigins;
  /** Demo mode: the tempo services are the simulated world's. */
  demo?: DemoTempoServices;
  /** The job queue in PostgreSQL (`createJobQueue(boss)`); tests may pass a recorder. */
  jobs: JobQueue;
  /** Cancels a runner's queued jobs when their music account goes (pg-boss; absent in tests without one). */
  cancelJobs?: (userId: string) => Promise<void>;
  /** Moves a runner's own tracks waiting for a second look up to the own-library priority (pg-boss). */
  promoteSecondLooks?: (userId: string) => Promise<number>;
  /** Cross-process invalidation of the per-process caches (processes that serve HTTP). */
  changes?: ChangeFeed;
  metrics?: Metrics;
  /** The preview estimator's entry point (job processes only). */
  estimatePreview?: TempoModuleOptions['estimatePreview'];
  /** Tests and benchmarks: the parts they point elsewhere. */
  overrides?: {
    spotify?: Omit<SpotifyModuleOverrides, 'onConnected' | 'onMusicAccountGone'>;
    tempo?: Omit<TempoModuleOptions, 'estimatePreview'>;
    playlists?: Pick<PlaylistsModuleDeps, 'settings'>;
    library?: Pick<
      Parameters<typeof createLibraryModule>[1],
      'settings' | 'countsDebounceMs' | 'targetPlaylistIds' | 'firstSongs'
    >;
    /** Tests sharing one database: whose connections a saved client id ends, and the tempo cache it empties. */
    setup?: Partial<Pick<SetupServiceDeps, 'accounts' | 'forgetDemoTempos'>>;
  };
}

/** The proxy of the simulated accounts service, when the browser is to find it on the app's origin. */
function demoAccountsOf(
  endpoints: SpotifyEndpoints | undefined,
  demoInForce: () => Promise<boolean>,
): DemoAccountsRoutesOptions | undefined {
  const path = endpoints?.demo ? endpoints.browserAccountsUrl : undefined;
  return path?.startsWith('/') && endpoints
    ? { path, upstream: endpoints.accountsUrl, demoInForce }
    : undefined;
}

/** Builds every module of Pacebeat once, and subscribes each to the events it acts on. */
export function composePacebeat(o: ComposeOptions) {
  const { db, config, log, changes, metrics } = o;
  const events = createEventBus();

  const accounts = createAccountsModule(db, {
    settings: { ...config, embedded: o.embedded },
    log: log.child({ module: 'accounts' }),
    changes,
    // Sign-up is open by default only in demo mode (at a loopback address): read at each sign-up.
    demo: async () => (await spotifyApp.current()).demo,
    origins: o.origins ?? appOrigins(config),
  });
  // Which Spotify is in force, read before every call: a fixed real one counts as SPOTIFY_CLIENT_ID.
  const fixedReal = o.spotifyEndpoints && !o.spotifyEndpoints.demo ? o.spotifyEndpoints : undefined;
  const spotifyApp = createSpotifyAppSettings({
    repo: createSpotifyAppRepository(db, o.spotifyAppRow),
    row: o.spotifyAppRow,
    config: fixedReal
      ? {
          SPOTIFY_CLIENT_ID: fixedReal.clientId,
          SPOTIFY_ACCOUNTS_URL: fixedReal.accountsUrl,
          SPOTIFY_API_URL: fixedReal.apiUrl,
        }
      : config,
    demo: o.spotifyEndpoints?.demo ? o.spotifyEndpoints : null,
    changes,
  });
  const spotify = createSpotifyModule(db, {
    spotify: spotifyApp,
    settings: config,
    log,
    changes,
    observe: metrics?.spotifyRequest,
    ...o.overrides?.spotify,
    onConnected: [(userId, account) => events.emit('connected', userId, account)],
    onMusicAccountGone: [(userId) => events.emit('gone', userId)],
  });
  // Tempo: the real Deezer, ReccoBeats and GetSongBPM; in demo mode the simulated ones (with its key),
  // until an admin leaves demo mode on the setup page: then the real ones, asked per lookup.
  const tempoOptions: TempoModuleOptions = {
    ...o.overrides?.tempo,
    ...(o.estimatePreview
      ? { estimatePreview: metrics ? metrics.timeEstimator(o.estimatePreview) : o.estimatePreview }
      : {}),
  };
  const realTempo = createTempoModule(db, { config, ...tempoOptions });
  const demoTempo =
    o.demo &&
    createTempoModule(db, {
      config: {
        ...config,
        DEEZER_API_URL: o.demo.baseUrls.deezer,
        RECCOBEATS_API_URL: o.demo.baseUrls.reccobeats,
        GETSONGBPM_API_URL: o.demo.baseUrls.getsongbpm,
        GETSONGBPM_API_KEY: o.demo.getsongbpmKey,
      },
      ...tempoOptions,
    });
  const tempoInForce = async () => (demoTempo && (await spotifyApp.current()).demo ? demoTempo : realTempo);
  const tempo = {
    repo: realTempo.repo,
    service: {
      resolveTempos: async (...args: Parameters<typeof realTempo.service.resolveTempos>) =>
        (await tempoInForce()).service.resolveTempos(...args),
      checkTempos: async (...args: Parameters<typeof realTempo.service.checkTempos>) =>
        (await tempoInForce()).service.checkTempos(...args),
      credits: async () => (await tempoInForce()).service.credits(),
    },
  };
  // Tempo lookups for a runner's library ask that runner's Spotify for audio-features first.
  const tempoLookups = createTempoLookups({
    tempo: tempo.service,
    queue: o.jobs,
    audioQueue: o.jobs,
    audioFeaturesFor: spotifyAudioFeaturesFor(spotify),
    onTemposFound: (userId, keys) => events.emit('temposFound', userId, keys),
    // A runner's catalog lookups queued before their first 50 go back as background work once they are placed.
    firstSongs: (userId) => playlists.firstSongs(userId),
    // What the playlists and runs take: a track whose first answer none of them could is checked last.
    wantedRanges: async () => [
      ...(await playlists.repo.targetRanges()),
      ...(await runs.repo.segmentRanges()),
    ],
  });
  // The library, the target playlists and the runner's choices ask one another (a runner's tracks, the
  // playlists' ids, the choices): each asks through a function, called only once all three are built.
  const library = createLibraryModule(db, {
    changes,
    spotify,
    tempoLookups,
    queue: libraryScanQueue(o.jobs),
    config,
    log,
    // Pacebeat's own target playlists (deleted targets' too) and runs' playlists are never sources.
    targetPlaylistIds: async (userId) =>
      new Set([
        ...(await playlists.repo.playlistIdsOf(userId)),
        ...(await runs.service.playlistIdsOf(userId)),
      ]),
    onTracksAdded: (userId) => events.emit('tracksAdded', userId),
    firstSongs: (userId) => playlists.firstSongs(userId),
    workWait: (priority, userId) => spotify.connect.workWait(priority, userId),
    ...o.overrides?.library,
  });
  const playlists = createPlaylistsModule(db, {
    changes,
    accounts: spotify.accounts,
    api: spotify.api,
    tempos: tempo.repo,
    listMatchCandidates: (userId) => library.listMatchCandidates(userId),
    libraryRead: (userId) => library.readDone(userId),
    ownPlaylistsSeen: (userId) => library.ownPlaylistsSeen(userId),
    runnerChoices: (userId) => choices.service.runnerChoices(userId),
    rateInUse: () => spotify.connect.rateInUse(),
    onWantedTemposChanged: (userId) => events.emit('wantedTemposChanged', userId),
    queue: o.jobs,
    log,
    settings: {
      maxWaitMs: config.PLAYLIST_ADD_WAIT_SECONDS * 1000,
      leaseMs: config.PLAYLIST_WRITER_LEASE_SECONDS * 1000,
      leaseRenewMs: (config.PLAYLIST_WRITER_LEASE_SECONDS * 1000) / 3,
      ...o.overrides?.playlists?.settings,
    },
  });
  // A runner's tempo corrections and exclusions; removals go through the playlists writer.
  const choices = createChoicesModule(db, {
    listMatchCandidates: (userId) => library.listMatchCandidates(userId),
    tempos: tempo.repo,
    placedSongs: playlists.repo.placedSongs,
    removeFromTargets: (userId, removals) => playlists.service.requestRemovals(userId, removals),
    triggerSync: (userId) => playlists.jobs.triggerWatched(userId),
  });

  // Runs: workouts built from the same songs, under the same choices, into one playlist each.
  const runs = createRunsModule(db, {
    listMatchCandidates: (userId) => library.listMatchCandidates(userId),
    tempos: tempo.repo,
    runnerChoices: (userId) => choices.service.runnerChoices(userId),
    artistNames: (ids) => choices.lists.artistNames(ids),
    accounts: spotify.accounts,
    api: spotify.api,
    onWantedTemposChanged: (userId) => events.emit('wantedTemposChanged', userId),
  });

  // Every connect: the library scan starts; the default targets (idempotent) and a first writer run.
  events.on('connected', (userId, account) => library.service.connected(userId, account.spotifyUserId));
  events.on('connected', async (userId) => {
    await playlists.service.createDefaultTargets(userId);
    await playlists.jobs.trigger(userId);
  });
  // The music account gone: the library goes, the runner's jobs stop, then their targets and choices are
  // forgotten (a writer still running finds its lease gone and stops before its next write).
  events.on('gone', (userId) => library.service.gone(userId));
  if (o.cancelJobs) events.on('gone', o.cancelJobs);
  events.on('gone', (userId) => playlists.service.forgetUser(userId));
  events.on('gone', (userId) => choices.service.forgetUser(userId));
  events.on('gone', (userId) => runs.service.forgetMusicAccount(userId));
  // New tracks or tempos may be placed at once. Tempos found change the status page's counts (a scan unit's
  // changes are counted by the library itself).
  events.on('tracksAdded', (userId) => playlists.jobs.trigger(userId));
  events.on('temposFound', (userId) => playlists.jobs.trigger(userId));
  events.on('temposFound', (userId) => library.service.countsChanged(userId));
  // A library track is looked up once, by whoever queued it first: every other runner holding it is told.
  // Best effort: the tempos are cached either way, and each runner's own lookups ask for runs too.
  events.on('temposFound', async (userId, keys) => {
    if (!keys?.length) return;
    try {
      const holders = await library.repo.holdersOf(keys, SHARED_TEMPOS_HOLDERS_MAX);
      await playlists.jobs.triggerHolders(holders.filter((u) => u !== userId));
    } catch (err) {
      log.warn({ err, userId }, 'the runners holding tempos found for another could not be told');
    }
  });
  // A pace or run at a tempo no playlist took: the runner's own songs sent to the second look are wanted.
  // Not moving them only makes the new pace fill later: the runner's edit stands either way.
  const promote = o.promoteSecondLooks;
  if (promote)
    events.on('wantedTemposChanged', async (userId) => {
      try {
        const moved = await promote(userId);
        if (moved) log.info({ userId, moved }, 'second looks moved up: the runner’s paces changed');
      } catch (err) {
        log.warn({ err, userId }, 'second looks not moved');
      }
    });

  // The admin's setup page: saving a client id ends every runner's (simulated) connection.
  const setup = createSetupService({
    settings: spotifyApp,
    app: spotify.app,
    accounts: spotify.accounts,
    budget: spotify.budget,
    disconnect: (userId) => spotify.connect.disconnect(userId),
    forgetDemoTempos: async () => {
      const forgotten = await tempo.repo.forgetAll();
      await library.stats.markAllChanged(); // every runner's "with a tempo" counts
      return forgotten;
    },
    origins: () => o.origins ?? appOrigins(config),
    ...o.overrides?.setup,
    timeoutMs: config.SPOTIFY_TIMEOUT_SECONDS * 1000,
    log: log.child({ module: 'setup' }),
    fetch: o.overrides?.spotify?.fetch,
  });

  // The admin page: who may sign up, invitations, and the runners against development mode's 5.
  const admin = createAdminService({
    accounts: accounts.accounts,
    users: accounts.users,
    signups: accounts.signups,
    policy: accounts.policy,
    adminEmails: config.ADMIN_EMAILS,
    connectedRunners: async () => (await spotify.accounts.linkedUserIds()).length,
    demo: async () => (await spotifyApp.current()).demo,
  });

  const housekeeping = createHousekeepingService({
    sessions: accounts.sessionRows,
    codes: accounts.codes,
    attempts: accounts.attempts,
  });
  /** What the job workers run (job-registry.ts `startWorkers`). */
  const jobServices: JobServices = {
    housekeeping,
    tempoLookups,
    playlistSync: playlists.jobs,
    library: { runUnit: library.scans.runUnit, requestDueRescans: library.service.requestDueRescans },
  };
  /** The HTTP app's feature parts (`buildApp`); the process adds its origins, CSP and readiness check. */
  const routes = {
    accounts: {
      accounts: accounts.accounts,
      sessions: accounts.sessions,
      servicesStatus: (userId: string) => spotify.connect.status(userId),
    },
    spotify: { spotify: spotify.connect, limits: accounts.limits },
    tempo: { tempo: tempo.service },
    metrics,
    library: { library: library.service, refresh: library.refresh },
    playlists: { playlists: playlists.service, editor: playlists.editor },
    choices: { choices: choices.service, trackLists: choices.trackLists },
    runs: { runs: runs.service },
    actionLimits: accounts.limits,
    setup: { setup },
    admin: { admin },
    // Demo mode: the browser reaches the simulated consent page and token exchange through this origin.
    demoAccounts: demoAccountsOf(o.spotifyEndpoints, async () => (await spotifyApp.current()).demo),
  } satisfies Partial<AppDeps>;

  return {
    events,
    accounts,
    admin,
    spotifyApp,
    spotify,
    tempo,
    tempoLookups,
    library,
    playlists,
    choices,
    runs,
    housekeeping,
    jobServices,
    routes,
  };
}

export type Pacebeat = ReturnType<typeof composePacebeat>;
