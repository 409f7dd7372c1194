// Test harness of the library: the simulated Spotify in-process, the real test PostgreSQL, and the app
// composed as main.ts composes it per "process" (test/composed-app.ts), its jobs recorded instead of run:
// tempo lookups and scan units (tests run the units themselves). Only tests import this file.
import type { SandboxOptions } from '@pacebeat/sandbox';
import { startHarness, type Harness } from '../src/spotify/sandbox-harness.test-helper.ts';
import type { TrackInput } from '../src/tempo/tempo.service.ts';
import { composeOnHarness, type ComposedTestOptions } from './composed-app.ts';
import type { ComposeOptions, Pacebeat } from '../src/app/compose.ts';
import type { Config } from '../src/app/config.ts';
import { jobRegistry, type JobQueue } from '../src/app/job-registry.ts';
import type { LibraryModule } from '../src/library/library.module.ts';
import type { LibrarySettings } from '../src/library/scan-context.ts';
import { runUntilIdle } from '../src/library/scan.service.ts';

export interface LibraryProcess {
  spotify: Pacebeat['spotify'];
  library: LibraryModule;
  /** The whole composed app of this "process", and its settings. */
  pacebeat: Pacebeat;
  config: Config;
}

export interface LibraryHarness extends Harness {
  /** Tempo lookups queued by scans, with the user they were queued for. */
  tempoQueued: Array<{ track: TrackInput; userId: string | undefined; priority: number | undefined }>;
  /** Units queued by scans and services: user ids (and start times when later). */
  wakes: Array<{ userId: string; startAfter?: Date }>;
  /** Library events: tracks added. */
  tracksAdded: string[];
  /** Playlist writer runs asked for (playlist-sync), with their priority. */
  syncQueued: Array<{ userId: string; priority?: number }>;
  /** A library module with its own Spotify module and pool: one "process". */
  libraryProcess(o?: {
    settings?: Partial<LibrarySettings>;
    spotify?: NonNullable<ComposeOptions['overrides']>['spotify'];
    /** Settings (LIBRARY_*, ...). */
    config?: Record<string, string>;
    /** A real queue (pg-boss) instead of the recorder, and what cancels a runner's jobs in it. */
    jobs?: JobQueue;
    cancelJobs?: ComposeOptions['cancelJobs'];
    /** Pacebeat's target playlists of a user; default: the playlists module's. */
    targetPlaylistIds?: (userId: string) => Promise<Set<string>>;
    /** A change feed: the status reads' caches, as in a `serve` process. */
    changes?: ComposedTestOptions['changes'];
  }): LibraryProcess;
  /**
   * A new Pacebeat user connected to the simulated Spotify user `spotifyUserId` (the library starts).
   * `catalogs: false` switches Followed artists and Artist catalogs off first (tests about other sources).
   */
  connect(p: LibraryProcess, spotifyUserId: string, o?: { catalogs?: boolean }): Promise<string>;
  /** Runs scan units until one finds nothing to do; stops at a deferral (returned). */
  drain(p: LibraryProcess, userId: string, maxUnits?: number): Promise<{ units: number; deferred?: Date }>;
  /**
   * A new simulated Spotify user with a generated library. Names are deterministic (the library is drawn
   * from the seed and the name), so every run of a test sees the same library.
   */
  spotifyUser(spec?: Record<string, unknown>): ReturnType<Harness['sandbox']['admin']['createUser']>;
  /** A simulated user's liked tracks' Spotify ids, newest first (as Spotify lists them). */
  likedIds(spotifyUserId: string): string[];
  /** Successful Spotify Web API requests of a simulated user (the sandbox's request log). */
  apiRequests(spotifyUserId: string): Array<{ method: string; url: string; status: number }>;
}

export async function startLibraryHarness(sandboxOptions: SandboxOptions = {}): Promise<LibraryHarness> {
  const h = await startHarness(sandboxOptions);
  const tempoQueued: LibraryHarness['tempoQueued'] = [];
  const wakes: LibraryHarness['wakes'] = [];
  const tracksAdded: string[] = [];
  const syncQueued: LibraryHarness['syncQueued'] = [];
  const closers: Array<() => Promise<void>> = [];

  // Jobs the composed app queues, recorded: scan units as wakes, tempo lookups per track.
  const recorder: JobQueue = {
    async send(name, payload, options) {
      const data = jobRegistry[name].payload.parse(payload) as Record<string, unknown>;
      if (name === 'library-scan')
        wakes.push({ userId: data['userId'] as string, startAfter: options?.startAfter as Date | undefined });
      if (name === 'playlist-sync') syncQueued.push(data as { userId: string; priority?: number });
      if (name === 'tempo-lookup') {
        const { tracks, userId, priority } = data as {
          tracks: TrackInput[];
          userId?: string;
          priority?: number;
        };
        for (const track of tracks) tempoQueued.push({ track, userId, priority });
      }
      return null;
    },
    async wake(name, payload) {
      if (name === 'library-scan') wakes.push({ userId: (payload as { userId: string }).userId });
    },
    async sooner(name, payload, at) {
      await recorder.send(name, payload, { startAfter: at });
    },
  };

  // One "process": the whole app as main.ts composes it, on a pool of its own.
  const libraryProcess: LibraryHarness['libraryProcess'] = (o = {}) => {
    const { pacebeat, config } = composeOnHarness(h, {
      ownPool: true,
      env: o.config,
      jobs: o.jobs ?? recorder,
      cancelJobs: o.cancelJobs,
      changes: o.changes,
      overrides: {
        spotify: { sleep: async (ms) => void h.sleeps.push(ms), ...o.spotify },
        library: {
          settings: o.settings,
          countsDebounceMs: 0, // the tests read counts right after writing the rows
          ...(o.targetPlaylistIds ? { targetPlaylistIds: o.targetPlaylistIds } : {}),
        },
      },
    });
    pacebeat.events.on('tracksAdded', async (userId) => void tracksAdded.push(userId));
    closers.push(() => pacebeat.accounts.close());
    return { spotify: pacebeat.spotify, library: pacebeat.library, pacebeat, config };
  };

  let users = 0;
  return {
    ...h,
    async close() {
      for (const close of closers) await close();
      await h.close();
    },
    spotifyUser: (spec = {}) => h.sandbox.admin.createUser({ username: `runner${++users}`, ...spec }),
    likedIds: (spotifyUserId) =>
      h.sandbox.world
        .user(spotifyUserId)!
        .liked.map((l) => h.sandbox.world.trackId(l.g))
        .reverse(),
    tempoQueued,
    wakes,
    tracksAdded,
    syncQueued,
    libraryProcess,
    async connect(p, spotifyUserId, o = {}) {
      const userId = await h.newUser();
      const tokens = h.sandbox.admin.connect({ userId: spotifyUserId });
      await p.spotify.connect.connect(userId, { ...tokens, refresh_token: tokens.refresh_token! });
      if (o.catalogs === false)
        for (const kind of ['artist_catalogs', 'followed_artists'] as const)
          await p.library.service.changeSource(
            userId,
            { kind, source_id: kind, enabled: false },
            { timeZone: null },
          );
      return userId;
    },
    drain: (p, userId, maxUnits = 500) => runUntilIdle(p.library.scans, userId, maxUnits),
    apiRequests(spotifyUserId) {
      return h.sandbox.admin
        .requests({ service: 'spotify-api', userId: spotifyUserId })
        .filter((r) => r.status >= 200 && r.status < 300)
        .map((r) => ({ method: r.method, url: r.url, status: r.status }));
    },
  };
}
