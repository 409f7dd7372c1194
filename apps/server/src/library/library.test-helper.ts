// Test harness of the library: the simulated Spotify in-process, the real test PostgreSQL, a Spotify
// module and a library module per "process", tempo lookups recorded instead of run, and the scan
// queue recorded (tests run the units themselves). Only tests import this file.
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import type { SandboxOptions } from '@pacebeat/sandbox';
import { startHarness, type Harness } from '../spotify/sandbox-harness.test-helper.ts';
import type { SpotifyModuleOverrides } from '../spotify/spotify.module.ts';
import type { TrackInput } from '../tempo/tempo.service.ts';
import { LibraryConfigSchema } from './library.config.ts';
import { createLibraryModule, type LibraryModule, type LibraryScanQueue } from './library.module.ts';
import type { LibrarySettings } from './scan-context.ts';
import { SpotifyDeferredError } from '../spotify/errors.ts';

export interface LibraryProcess {
  spotify: ReturnType<Harness['process']>;
  library: LibraryModule;
}

export interface LibraryHarness extends Harness {
  /** Tempo lookups queued by scans, with the user they were queued for. */
  tempoQueued: Array<{ track: TrackInput; userId: string | undefined; priority: number | undefined }>;
  /** Units queued by scans and services: user ids (and start times when later). */
  wakes: Array<{ userId: string; startAfter?: Date }>;
  /** Library events: tracks added. */
  tracksAdded: string[];
  /** A library module with its own Spotify module and pool: one "process". */
  libraryProcess(o?: {
    settings?: Partial<LibrarySettings>;
    spotify?: SpotifyModuleOverrides;
    config?: Record<string, string>;
    /** A real queue (pg-boss) instead of the recorder. */
    queue?: LibraryScanQueue;
    /** Pacebeat's target playlists of a user (the playlists module). */
    targetPlaylistIds?: (userId: string) => Promise<Set<string>>;
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
  /** Successful Spotify Web API requests of a simulated user (the sandbox's request log). */
  apiRequests(spotifyUserId: string): Array<{ method: string; url: string; status: number }>;
}

export async function startLibraryHarness(sandboxOptions: SandboxOptions = {}): Promise<LibraryHarness> {
  const h = await startHarness(sandboxOptions);
  const tempoQueued: LibraryHarness['tempoQueued'] = [];
  const wakes: LibraryHarness['wakes'] = [];
  const tracksAdded: string[] = [];
  const log = pino({ level: 'silent' });

  const libraryProcess: LibraryHarness['libraryProcess'] = (o = {}) => {
    const budgetKey = `test-${randomUUID()}`;
    const wired: { library?: LibraryModule } = {};
    const spotify = h.process({
      budgetKey,
      onConnected: [async (userId, a) => wired.library?.service.connected(userId, a.spotifyUserId)],
      onMusicAccountGone: [async (userId) => void (await wired.library?.service.gone(userId))],
      ...o.spotify,
    });
    const library = createLibraryModule(h.db.db, {
      spotify,
      tempoLookups: {
        enqueue: async (tracks, opts = {}) => {
          for (const track of tracks)
            tempoQueued.push({ track, userId: opts.userId, priority: opts.priority });
          return Math.ceil(tracks.length / 50);
        },
      },
      queue: o.queue ?? {
        wake: async (userId) => void wakes.push({ userId }),
        later: async (userId, startAfter) => void wakes.push({ userId, startAfter }),
      },
      config: LibraryConfigSchema.parse(o.config ?? {}),
      log,
      settings: o.settings,
      statsMaxAgeMs: 0, // the tests read counts right after writing the rows
      onTracksAdded: async (userId) => void tracksAdded.push(userId),
      ...(o.targetPlaylistIds ? { targetPlaylistIds: o.targetPlaylistIds } : {}),
    });
    wired.library = library;
    return { spotify, library };
  };

  let users = 0;
  return {
    ...h,
    spotifyUser: (spec = {}) => h.sandbox.admin.createUser({ username: `runner${++users}`, ...spec }),
    tempoQueued,
    wakes,
    tracksAdded,
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
    async drain(p, userId, maxUnits = 500) {
      for (let units = 1; units <= maxUnits; units++) {
        try {
          const out = await p.library.scans.runUnit(userId);
          if (out.status !== 'success' || out.detail?.['idle']) return { units };
        } catch (err) {
          if (err instanceof SpotifyDeferredError) return { units, deferred: err.retryAt };
          throw err;
        }
      }
      throw new Error(`the scan of ${userId} did not finish in ${maxUnits} units`);
    },
    apiRequests(spotifyUserId) {
      return h.sandbox.admin
        .requests({ service: 'spotify-api', userId: spotifyUserId })
        .filter((r) => r.status >= 200 && r.status < 300)
        .map((r) => ({ method: r.method, url: r.url, status: r.status }));
    },
  };
}
