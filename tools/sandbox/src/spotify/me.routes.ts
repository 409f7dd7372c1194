// The current user's profile and library: /me, /me/tracks, /me/playlists, /me/following.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Ctx } from '../context.ts';
import { ApiError, addRoute, intParam, strParam, type Call } from './route.ts';
import { paging } from './present.ts';
import type { Playlist } from '../world/library.ts';

/** Playlists in the user's library that the grant's scopes let the app see. */
export function visiblePlaylists(ctx: Ctx, call: Call): Playlist[] {
  const s = call.grant.scopes;
  return call.user.playlists
    .map((p) => ctx.world.playlists[p] as Playlist)
    .filter((pl) => {
      if (pl.collaborative) return s.includes('playlist-read-collaborative') || pl.owner === call.user.index;
      if (!pl.public) return pl.owner === call.user.index && s.includes('playlist-read-private');
      return true;
    });
}

export function registerMeRoutes(app: FastifyInstance, ctx: Ctx): void {
  addRoute(app, ctx, {
    method: 'GET',
    url: '/me',
    op: 'get-current-users-profile',
    handler: (call) => call.present.me(call.user),
  });

  addRoute(app, ctx, {
    method: 'GET',
    url: '/me/tracks',
    op: 'get-users-saved-tracks',
    scopes: () => ['user-library-read'],
    handler: (call) => {
      const limit = intParam(call, 'limit', 20);
      const offset = intParam(call, 'offset', 0);
      const liked = call.user.liked;
      const n = liked.length;
      const items = [];
      for (let k = offset; k < Math.min(n, offset + limit); k++) {
        const e = liked[n - 1 - k] as { g: number; addedAt: number };
        items.push({
          added_at: new Date(e.addedAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
          track: call.present.track(e.g),
        });
      }
      return paging(ctx.baseUrls.spotifyApi, '/me/tracks', items, n, limit, offset);
    },
  });

  addRoute(app, ctx, {
    method: 'GET',
    url: '/me/playlists',
    op: 'get-a-list-of-current-users-playlists',
    handler: (call) => {
      const limit = intParam(call, 'limit', 20);
      const offset = intParam(call, 'offset', 0);
      if (offset > 100_000) throw new ApiError(400, 'Invalid offset');
      const all = visiblePlaylists(ctx, call);
      const items = all.slice(offset, offset + limit).map((pl) => call.present.playlistSimplified(pl));
      return paging(ctx.baseUrls.spotifyApi, '/me/playlists', items, all.length, limit, offset);
    },
  });

  addRoute(app, ctx, {
    method: 'POST',
    url: '/me/playlists',
    op: 'create-playlist',
    scopes: (call) => {
      const b = (call.body ?? {}) as { public?: boolean; collaborative?: boolean };
      return b.collaborative || b.public === false ? ['playlist-modify-private'] : ['playlist-modify-public'];
    },
    handler: (call, reply) => createPlaylist(ctx, call, reply),
  });

  addRoute(app, ctx, {
    method: 'GET',
    url: '/me/following',
    op: 'get-followed',
    scopes: () => ['user-follow-read'],
    handler: (call) => {
      const limit = intParam(call, 'limit', 20);
      const after = strParam(call, 'after');
      const all = call.user.followedArtists;
      let start = 0;
      if (after !== undefined) {
        const i = ctx.world.artistI(after);
        const at = i === undefined ? -1 : all.indexOf(i);
        if (at < 0) throw new ApiError(400, 'Invalid after');
        start = at + 1;
      }
      const slice = all.slice(start, start + limit);
      const last = slice[slice.length - 1];
      const more = start + limit < all.length && last !== undefined;
      const base = `${ctx.baseUrls.spotifyApi}/me/following?type=artist`;
      return {
        artists: {
          href: `${base}&limit=${limit}${after ? `&after=${after}` : ''}`,
          limit,
          next: more ? `${base}&after=${ctx.world.ids.encode('artist', last)}&limit=${limit}` : null,
          cursors: { after: more ? ctx.world.ids.encode('artist', last) : null },
          total: all.length,
          items: slice.map((i) => call.present.artist(i)),
        },
      };
    },
  });
}

export function createPlaylist(ctx: Ctx, call: Call, reply: FastifyReply, owner = call.user) {
  const b = (call.body ?? {}) as {
    name?: string;
    public?: boolean;
    collaborative?: boolean;
    description?: string;
  };
  if (b.collaborative && b.public !== false)
    throw new ApiError(400, 'Collaborative playlists can only be private.');
  if (typeof b.name !== 'string' || b.name.trim() === '') throw new ApiError(400, 'Missing playlist name');
  const pl = ctx.world.createPlaylist(owner, { ...b, name: b.name });
  return reply.code(201).send(call.present.playlist(pl, true));
}
