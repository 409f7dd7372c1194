// Test harness for the playlist writer: the simulated world in-process, the real test PostgreSQL, each
// runner connected through the app as main.ts composes it, the real tempo resolver, and writers built with
// a stand-in for the library's listMatchCandidates (the user's liked songs, newest first, keyed as the
// tempo module keys them). Only tests import this file.
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import type { SandboxOptions } from '@pacebeat/sandbox';
import { composeOnHarness } from './composed-app.ts';
import type { ComposeOptions, Pacebeat } from '../src/app/compose.ts';
import { startHarness, type Harness } from '../src/spotify/sandbox-harness.test-helper.ts';
import { TempoConfigSchema } from '../src/tempo/tempo.config.ts';
import { createTempoModule } from '../src/tempo/tempo.module.ts';
import { tempoKey } from '../src/tempo/tempo.service.ts';
import type { MatchCandidate } from '../src/playlists/candidates.ts';
import { placeable, spanOf } from '../src/playlists/matching.ts';
import { createPlaylistsRepository } from '../src/playlists/playlists.repository.ts';
import { createPlaylistsService } from '../src/playlists/playlists.service.ts';
import { SongSet } from '../src/playlists/song-identity.ts';
import type { WriterSettings } from '../src/playlists/sync-context.ts';
import { createPlaylistWriter, type PlaylistWriterDeps } from '../src/playlists/writer.ts';

/** Candidates from a simulated user's liked songs, as the library module will list them. */
export function likedCandidates(sandbox: Harness['sandbox'], spotifyUserId: string): MatchCandidate[] {
  const w = sandbox.world;
  const u = w.user(spotifyUserId);
  if (!u) throw new Error(`no user ${spotifyUserId}`);
  return [...u.liked].reverse().map((l, rank) => {
    const t = w.catalog.track(l.g);
    const spotifyId = w.trackId(l.g);
    return {
      trackId: spotifyId,
      recordingKey: tempoKey({ spotifyId, isrc: t.isrc }),
      title: t.name,
      artistIds: t.artists.map((i) => w.ids.encode('artist', i)),
      durationMs: t.durationMs,
      explicit: false,
      fromLikedSongs: true,
      rank,
    };
  });
}

/**
 * A fixture for volume tests: the world's true tempo of each track written to the tempo cache as one
 * source's answer (no resolver run), so hundreds of tracks cost no outside calls. `byTrackId`: keyed
 * `spotify:<id>`, as a track looked up before its ISRC was known.
 */
export async function seedTrueTempos(
  ph: PlaylistHarness,
  trackIds: string[],
  o: { byTrackId?: boolean } = {},
): Promise<void> {
  const w = ph.h.sandbox.world;
  await ph.tempo.repo.save(
    trackIds.map((id) => {
      const f = w.trackFacts(w.trackG(id)!);
      return {
        key: o.byTrackId ? `spotify:${id}` : tempoKey(f),
        isrc: o.byTrackId ? null : f.isrc,
        spotifyId: f.spotifyId,
        bpm: f.bpm,
        source: 'reccobeats',
        confidence: 0.85,
        alternatives: [{ bpm: f.bpm, source: 'reccobeats', confidence: 0.85 }],
        reason: null,
        retryAt: null,
        resolvedAt: new Date(),
      };
    }),
  );
}

/** A catalog track as the library lists it: keyed by its track id until a scan learns its ISRC. */
export function catalogCandidate(
  ph: PlaylistHarness,
  trackId: string,
  rank: number,
  isrcKnown: boolean,
): MatchCandidate {
  const w = ph.h.sandbox.world;
  const t = w.catalog.track(w.trackG(trackId)!);
  return {
    trackId,
    recordingKey: tempoKey({ spotifyId: trackId, isrc: isrcKnown ? t.isrc : null }),
    title: t.name,
    artistIds: t.artists.map((i) => w.ids.encode('artist', i)),
    durationMs: t.durationMs,
    explicit: false,
    fromLikedSongs: false,
    rank,
  };
}

/**
 * Catalog tracks (one per song: song-identity.ts) the target [min, max) takes at their true tempo
 * (matching.ts `placeable`, the span of a tempo nothing narrows).
 */
export function catalogTracksIn(ph: PlaylistHarness, min: number, max: number, n: number): string[] {
  const w = ph.h.sandbox.world;
  const out: string[] = [];
  const songs = new SongSet();
  for (let i = 1; out.length < n && i < w.catalog.artists.length; i++) {
    for (const g of w.catalog.creditedTracks(i)) {
      const f = w.trackFacts(g);
      const t = w.catalog.track(g);
      const song = {
        trackId: f.spotifyId,
        recordingKey: tempoKey(f),
        title: t.name,
        artistId: w.ids.encode('artist', t.artists[0]!),
        durationMs: t.durationMs,
      };
      // Tracks the target takes at their true tempo (not just below its max: see spanOf).
      if (songs.has(song) || !placeable(spanOf(f.bpm, false), min, max)) continue;
      songs.add(song);
      out.push(w.trackId(g));
      if (out.length === n) break;
    }
  }
  return out;
}

/** The tracks that are not a version of an earlier one (song-identity.ts), in order. */
export function oneEachSong(ph: PlaylistHarness, trackIds: string[]): string[] {
  const w = ph.h.sandbox.world;
  const songs = new SongSet();
  return trackIds.filter((id) => {
    const t = w.catalog.track(w.trackG(id)!);
    const song = {
      trackId: id,
      recordingKey: `isrc:${t.isrc}`,
      title: t.name,
      artistId: w.ids.encode('artist', t.artists[0]!),
      durationMs: t.durationMs,
    };
    if (songs.has(song)) return false;
    songs.add(song);
    return true;
  });
}

export interface PlaylistHarness {
  h: Harness;
  tempo: ReturnType<typeof createTempoModule>;
  repo: ReturnType<typeof createPlaylistsRepository>;
  service: ReturnType<typeof createPlaylistsService>;
  /** The liked songs every runner gets (resolved once; the tempo cache answers after). */
  pool: string[];
  /**
   * A Pacebeat user connected to a new simulated user who likes the pool, through the app as main.ts
   * composes it (test/composed-app.ts): the connect makes the default targets, a disconnect forgets them.
   */
  runner(o?: { process?: NonNullable<ComposeOptions['overrides']>['spotify'] }): Promise<Runner>;
  close(): Promise<void>;
}

export interface Runner {
  userId: string;
  spotifyUserId: string;
  /** The runner's Spotify module, in the composed app of their "process". */
  p: Pacebeat['spotify'];
  /** The library module of that app (its scans read the runner's Spotify when a test runs them). */
  library: Pacebeat['library'];
  /** A writer on this runner's Spotify module ("process"); settings default to short waits. */
  writer(
    o?: Partial<PlaylistWriterDeps> & { settings?: Partial<WriterSettings> },
  ): ReturnType<typeof createPlaylistWriter>;
  /** The runner's target playlists in the simulated world: name → track ids in order. */
  playlists(): Map<string, string[]>;
}

/**
 * No waiting in tests (each test that needs a wait sets it), and songs in rank order: the tests of the
 * other guarantees place a few catalogs' songs and read them back in that order. The artist spread's own
 * tests (writer.spread.sandbox.test.ts) set `spreadWindow`.
 */
export const FAST: Partial<WriterSettings> = {
  settleMs: 0,
  snapshotFreshMs: 60_000,
  firstFill: 0,
  maxWaitMs: 0,
  spreadWindow: 0,
};

export async function startPlaylistHarness(
  o: { sandbox?: SandboxOptions; likedCount?: number } = {},
): Promise<PlaylistHarness> {
  const h = await startHarness({ seed: 5300, ...o.sandbox });
  const db = h.db;
  const tempo = createTempoModule(db.db, {
    config: TempoConfigSchema.parse({
      DEEZER_API_URL: h.sandbox.baseUrls.deezer,
      RECCOBEATS_API_URL: h.sandbox.baseUrls.reccobeats,
      GETSONGBPM_API_URL: h.sandbox.baseUrls.getsongbpm,
      GETSONGBPM_API_KEY: 'sandbox-key',
      DEEZER_RATE_PER_SECOND: '200',
      RECCOBEATS_RATE_PER_MINUTE: '6000',
    }),
    limitScope: `${randomUUID()}:`,
  });
  const ana = h.sandbox.world.user('ana.runs')!;
  const facts = ana.liked.slice(0, o.likedCount ?? 30).map((l) => h.sandbox.world.trackFacts(l.g));
  await tempo.service.resolveTempos(facts.map(({ bpm: _truth, ...track }) => track));
  const pool = facts.map((f) => f.spotifyId);
  const repo = createPlaylistsRepository(db.db);
  const service = createPlaylistsService({ repo });
  const log = pino({ level: 'silent' });
  const closers: Array<() => Promise<void>> = [];

  return {
    h,
    tempo,
    repo,
    service,
    pool,
    async runner(ro = {}) {
      const userId = await h.newUser();
      const spotifyUser = h.sandbox.admin.createUser({ username: `r${randomUUID().slice(0, 8)}` });
      h.sandbox.admin.like(spotifyUser.id, pool);
      const { pacebeat } = composeOnHarness(h, {
        ownPool: true,
        overrides: { spotify: { sleep: async (ms) => void h.sleeps.push(ms), ...ro.process } },
      });
      closers.push(() => pacebeat.accounts.close());
      const p = pacebeat.spotify;
      const tokens = h.sandbox.admin.connect({ userId: spotifyUser.id });
      await p.connect.connect(userId, { ...tokens, refresh_token: tokens.refresh_token! });
      return {
        userId,
        spotifyUserId: spotifyUser.id,
        p,
        library: pacebeat.library,
        writer: (wo = {}) =>
          createPlaylistWriter({
            repo,
            accounts: p.accounts,
            api: p.api,
            tempos: tempo.repo,
            listMatchCandidates: async () => likedCandidates(h.sandbox, spotifyUser.id),
            log,
            ...wo,
            settings: { ...FAST, ...wo.settings },
          }),
        playlists() {
          const out = new Map<string, string[]>();
          for (const pl of h.sandbox.admin.user(spotifyUser.id).playlists)
            if (pl.name.startsWith('Pacebeat '))
              out.set(
                pl.name,
                h.sandbox.admin.playlistItems(pl.id).filter((x): x is string => x !== null),
              );
          return out;
        },
      };
    },
    async close() {
      for (const close of closers) await close();
      await h.close();
    },
  };
}
