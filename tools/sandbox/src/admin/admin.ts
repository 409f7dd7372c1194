// In-process admin helpers (the admin HTTP API calls the same functions): users and libraries,
// the consent user, tokens, config, faults, the request log, the clock, reset, truth and scoring.
import { randomBytes } from 'node:crypto';
import type { Ctx } from '../context.ts';
import type { SandboxConfig, SandboxOptions } from '../config.ts';
import type { FaultRule } from '../limits/faults.ts';
import { s256, type TokenAnswer } from '../spotify/tokens.ts';
import { quotaKey } from '../spotify/route.ts';
import { DEFAULT_DAILY_QUOTA, mergeTempoErrors } from '../config.ts';
import type { Playlist, User } from '../world/library.ts';
import type { UserSpec } from '../world/sizes.ts';
import type { CrowdOptions } from '../world/crowd.ts';
import { score, type ScoreRequest } from './scoring.ts';
import { AdminError } from './errors.ts';
import { createChanges } from './changes.ts';
import { otherSection } from '../tempo/views.ts';

export { AdminError };

export const PRODUCT_SCOPES = [
  'user-library-read',
  'playlist-read-private',
  'playlist-read-collaborative',
  'user-follow-read',
  'playlist-modify-public',
  'playlist-modify-private',
];

export function createAdmin(ctx: Ctx, initial: SandboxConfig) {
  const w = () => ctx.world;
  const userOf = (id: string): User => {
    const u = w().user(id);
    if (!u) throw new AdminError(404, `unknown user ${id}`);
    return u;
  };
  const playlistOf = (id: string): Playlist => {
    const pl = w().playlist(id);
    if (!pl) throw new AdminError(404, `unknown playlist ${id}`);
    return pl;
  };
  const tracks = (ids: string[]): number[] =>
    ids.map((id) => {
      const g = w().trackG(id.replace(/^spotify:track:/, ''));
      if (g === undefined) throw new AdminError(400, `unknown track ${id}`);
      return g;
    });
  const artists = (ids: string[]): number[] =>
    ids.map((id) => {
      const i = w().artistI(id.replace(/^spotify:artist:/, ''));
      if (i === undefined) throw new AdminError(400, `unknown artist ${id}`);
      return i;
    });
  const clientOf = (clientId?: string) => clientId ?? (ctx.config.clientIds[0] as string);

  const userSummary = (u: User) => ({
    id: u.id,
    accountId: u.accountId,
    displayName: u.displayName,
    registered: u.registeredFor === 'all' ? ctx.config.clientIds : [...u.registeredFor],
    likedSongs: u.liked.length,
    playlists: u.playlists.map((p) => {
      const pl = w().playlists[p] as Playlist;
      return {
        id: w().playlistId(p),
        name: pl.name,
        owner: w().users[pl.owner]?.id,
        collaborative: pl.collaborative,
        public: pl.public,
        items: pl.entries.length,
      };
    }),
    followedArtists: u.followedArtists.length,
  });

  const admin = {
    ...createChanges(ctx, { userOf, playlistOf, tracks, artists }),
    world: () => ({
      seed: w().seed,
      size: w().size,
      artists: w().catalog.artists.length - 1,
      releases: w().catalog.releases.length,
      tracks: w().catalog.trackTotal,
      users: w()
        .users.filter((u) => u.loginable)
        .map((u) => u.id),
      extendedQuota: ctx.config.extendedQuota,
      baseUrls: ctx.baseUrls,
    }),
    users: () =>
      w()
        .users.filter((u) => u.loginable)
        .map(userSummary),
    user: (id: string) => userSummary(userOf(id)),
    createUser: (spec: Partial<UserSpec> & { username: string }) => userSummary(w().createUser(spec)),
    /** N users whose libraries share artists by Zipf's law (world/crowd.ts): their ids. */
    createCrowd: (o: CrowdOptions) => {
      if (!Number.isInteger(o.count) || o.count < 1 || o.count > 100_000)
        throw new AdminError(400, 'count must be a whole number from 1 to 100000');
      return {
        ids: w()
          .createCrowd(o)
          .map((u) => u.id),
      };
    },
    /** The user the consent page preselects (undefined: the first user not yet connected to the app). */
    setLoginUser: (userId: string | undefined) => {
      if (userId !== undefined) userOf(userId);
      ctx.loginUser = userId;
    },
    setRegistered: (userId: string, registered: boolean, clientId?: string) => {
      const u = userOf(userId);
      const client = clientOf(clientId);
      const set = u.registeredFor === 'all' ? new Set(ctx.config.clientIds) : u.registeredFor;
      if (registered) {
        const count = w().users.filter(
          (x) => x !== u && (x.registeredFor === 'all' ? x.loginable : x.registeredFor.has(client)),
        ).length;
        if (count >= 5) throw new AdminError(409, 'A development-mode app can have at most 5 users');
        set.add(client);
      } else set.delete(client);
      u.registeredFor = set;
    },
    like: (userId: string, trackIds: string[]) => w().like(userOf(userId), tracks(trackIds), ctx.clock.now()),
    unlike: (userId: string, trackIds: string[]) => w().unlike(userOf(userId), tracks(trackIds)),
    followArtists: (userId: string, artistIds: string[]) =>
      w().followArtists(userOf(userId), artists(artistIds)),
    unfollowArtists: (userId: string, artistIds: string[]) =>
      w().unfollowArtists(userOf(userId), artists(artistIds)),
    createPlaylist: (
      userId: string,
      opts: {
        name: string;
        public?: boolean;
        collaborative?: boolean;
        description?: string;
        trackIds?: string[];
        collaborators?: string[];
      },
    ) => {
      const owner = userOf(userId);
      const pl = w().createPlaylist(owner, opts);
      if (opts.trackIds?.length)
        w().addItems(
          pl,
          tracks(opts.trackIds).map((g) => ({ g, addedAt: ctx.clock.now(), addedBy: owner.index })),
        );
      for (const c of opts.collaborators ?? []) {
        const cu = userOf(c);
        pl.collaborators.add(cu.index);
        w().followPlaylist(cu, pl);
      }
      return { id: w().playlistId(pl.p), snapshotId: w().snapshotId(pl) };
    },
    followPlaylist: (userId: string, playlistId: string) =>
      w().followPlaylist(userOf(userId), playlistOf(playlistId)),
    addToPlaylist: (playlistId: string, trackIds: string[], byUserId?: string) => {
      const pl = playlistOf(playlistId);
      const by = byUserId ? userOf(byUserId).index : pl.owner;
      w().addItems(
        pl,
        tracks(trackIds).map((g) => ({ g, addedAt: ctx.clock.now(), addedBy: by })),
      );
      return { snapshotId: w().snapshotId(pl) };
    },
    removeFromPlaylist: (playlistId: string, trackIds: string[]) => {
      const pl = playlistOf(playlistId);
      w().removeTracks(pl, tracks(trackIds));
      return { snapshotId: w().snapshotId(pl) };
    },
    /** The playlist's items as track ids (null for episodes, local files and unavailable tracks), in order. */
    playlistItems: (playlistId: string) =>
      playlistOf(playlistId).entries.map((e) => (e.g === undefined ? null : w().trackId(e.g))),
    /** The playlist's items as URIs (tracks, episodes, local files; null when unavailable), in order. */
    playlistUris: (playlistId: string) => playlistOf(playlistId).entries.map((e) => w().entryUri(e)),
    /** Issues an authorization code as if the user had pressed Accept on the consent page. */
    authorize: (p: {
      userId: string;
      redirectUri: string;
      codeChallenge: string;
      scopes?: string[];
      clientId?: string;
      state?: string;
    }) => {
      userOf(p.userId);
      const code = ctx.tokens.issueCode({
        clientId: clientOf(p.clientId),
        userId: p.userId,
        redirectUri: p.redirectUri,
        challenge: p.codeChallenge,
        scopes: p.scopes ?? PRODUCT_SCOPES,
      });
      const url = new URL(p.redirectUri);
      url.searchParams.set('code', code);
      if (p.state !== undefined) url.searchParams.set('state', p.state);
      return { code, redirect: url.toString() };
    },
    /** Authorises and exchanges the code in one step: tokens for a user, for tests that skip the browser. */
    connect: (p: { userId: string; scopes?: string[]; clientId?: string }): TokenAnswer => {
      const verifier = randomBytes(32).toString('base64url');
      const redirectUri = 'http://127.0.0.1:1/callback';
      const { code } = admin.authorize({ ...p, redirectUri, codeChallenge: s256(verifier) });
      return ctx.tokens.exchangeCode({ code, clientId: clientOf(p.clientId), redirectUri, verifier });
    },
    revokeTokens: (filter: { userId?: string; clientId?: string; accessToken?: string }) => ({
      revoked: ctx.tokens.revoke(filter),
    }),
    /** The matching grants' refresh tokens expire now (`Refresh token expired` on the next refresh). */
    expireTokens: (filter: { userId?: string; clientId?: string }) => ({
      expired: ctx.tokens.expire(filter),
    }),
    config: () => ctx.config,
    /** Changes switches while running; switching extendedQuota alone also switches the daily quota to that mode's default. */
    setConfig: (patch: Partial<SandboxOptions>) => {
      const c = ctx.config;
      if (patch.extendedQuota !== undefined && !('dailyQuota' in patch))
        patch = { ...patch, dailyQuota: patch.extendedQuota ? false : DEFAULT_DAILY_QUOTA };
      ctx.config = {
        ...c,
        ...(patch as Partial<SandboxConfig>),
        deezer: { ...c.deezer, ...patch.deezer },
        reccobeats: { ...c.reccobeats, ...patch.reccobeats },
        getsongbpm: { ...c.getsongbpm, ...patch.getsongbpm },
        previews: { ...c.previews, ...patch.previews },
        tempoErrors: mergeTempoErrors(c.tempoErrors, patch.tempoErrors),
      };
      if (patch.faults) ctx.faults.set(patch.faults);
      if (patch.transientFailures !== undefined) ctx.faults.setBackground(patch.transientFailures);
      return ctx.config;
    },
    setFaults: (rules: FaultRule[]) => {
      ctx.faults.set(rules);
      ctx.config = { ...ctx.config, faults: rules };
    },
    faults: () => ctx.faults.stats(),
    /** The background of transient failures (transientFailures): its rules, how often each fired. */
    backgroundFaults: () => ctx.faults.backgroundStats(),
    requests: (filter: { service?: string; since?: number; clientId?: string; userId?: string } = {}) =>
      ctx.log.list(filter),
    counters: () => ctx.log.counters(),
    /** Previews synthesised since the start, and those read from the disk cache (a warm cache's share). */
    previews: () => ({ ...ctx.previewStats }),
    count: (route: string, method?: string) => ctx.log.count(route, method),
    clearRequests: () => ctx.log.clear(),
    /** Calls counted against the daily quota and the rolling rate limit now. */
    usage: (clientId?: string) => ({
      dailyQuotaUsed: ctx.config.dailyQuota
        ? ctx.windows.count(
            quotaKey(ctx.config, clientOf(clientId)),
            ctx.config.dailyQuota.windowSeconds,
            ctx.clock.now(),
          )
        : 0,
      dailyQuotaLimit: ctx.config.dailyQuota ? ctx.config.dailyQuota.maxRequests : null,
    }),
    advanceClock: (seconds: number) => {
      ctx.clock.advance(seconds);
      return { now: new Date(ctx.clock.now()).toISOString() };
    },
    /** Back to the generated world, default config, no tokens, empty log, real time. */
    reset: () => {
      ctx.world.reset();
      ctx.tokens.clear();
      ctx.log.clear();
      ctx.windows.clear();
      ctx.clock.reset();
      ctx.config = { ...initial };
      ctx.faults.set(initial.faults);
      ctx.faults.setBackground(initial.transientFailures);
      delete ctx.loginUser;
    },
    /** What the world knows about a track: its true tempo and identity. */
    track: (trackId: string) => {
      const [g] = tracks([trackId]);
      const cat = w().catalog;
      const t = cat.track(g as number);
      const truth = cat.tempoOf(g as number);
      // A song whose tempo changes: its other section's tempo (trueTempo is the main one).
      const other = otherSection(ctx, g as number);
      return {
        id: trackId,
        name: t.name,
        artists: t.artists.map((i) => cat.artists[i]?.name),
        album: cat.releaseTitle(cat.releaseOf(t.g)),
        isrc: t.isrc,
        durationMs: t.durationMs,
        explicit: t.explicit,
        trueTempo: truth.bpm,
        pattern: truth.pattern,
        meter: truth.meter,
        ...(other !== undefined ? { otherSectionTempo: other } : {}),
        recordingTrackId: w().trackId(t.recording),
        songId: w().trackId(cat.heardSongOf(g as number)),
        songRole: cat.songRole(g as number),
      };
    },
    /**
     * The song a track is as a runner hears it: its id (shared by every version and copy) and every
     * track of it in the world, the reference recording first, each with its ISRC and role.
     */
    song: (trackId: string) => {
      const [g] = tracks([trackId]);
      const cat = w().catalog;
      const song = cat.heardSongOf(g as number);
      return {
        songId: w().trackId(song),
        tracks: cat.songTracks(song).map((x) => {
          const t = cat.track(x);
          return {
            id: w().trackId(x),
            name: t.name,
            album: cat.releaseTitle(cat.releaseOf(x)),
            isrc: t.isrc,
            durationMs: t.durationMs,
            trueTempo: cat.tempoOf(x).bpm,
            role: cat.songRole(x),
          };
        }),
      };
    },
    score: (req: ScoreRequest) => score(ctx, req),
  };
  return admin;
}

export type Admin = ReturnType<typeof createAdmin>;
