// Following and saving: `PUT|DELETE /me/library` and `GET /me/library/contains` (every app), the old
// `PUT|DELETE /playlists/{id}/followers` (extended quota only since February 2026), and
// `GET /users/{id}` (extended quota only). Unfollowing one's own playlist is how a user "deletes" it.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Ctx } from '../context.ts';
import { ApiError, addRoute, strParam, type Call } from './route.ts';
import type { Playlist, User } from '../world/library.ts';
import { BASE62_ID } from '../world/ids.ts';

const MAX_LIBRARY_URIS = 40;
/** What PUT and DELETE /me/library take (the document's list: no artists); contains also takes artists. */
const SAVE_TYPES = ['track', 'album', 'episode', 'show', 'audiobook', 'user', 'playlist'];

interface LibraryUri {
  type: string;
  id: string;
  uri: string;
}

function libraryUris(call: Call, types: string[]): LibraryUri[] {
  const list = (strParam(call, 'uris') ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
  if (list.length === 0) throw new ApiError(400, 'Missing parameter uris');
  if (list.length > MAX_LIBRARY_URIS)
    throw new ApiError(400, `Too many URIs requested: at most ${MAX_LIBRARY_URIS}`);
  return list.map((uri) => {
    const m = /^spotify:([a-z]+):(\S+)$/.exec(uri);
    if (!m) throw new ApiError(400, `Invalid URI: ${uri}`);
    if (!types.includes(m[1] as string)) throw new ApiError(400, `Unsupported URI type: ${m[1]}`);
    if (m[1] !== 'user' && !BASE62_ID.test(m[2] as string)) throw new ApiError(400, 'Invalid base62 id');
    return { type: m[1] as string, id: m[2] as string, uri };
  });
}

/** The scope each kind of library change needs (a playlist: following it publicly or privately). */
function requireScopeFor(call: Call, type: string): void {
  const needed =
    type === 'playlist'
      ? ['playlist-modify-public', 'playlist-modify-private']
      : type === 'user' || type === 'artist'
        ? ['user-follow-modify']
        : ['user-library-modify'];
  if (!needed.some((s) => call.grant.scopes.includes(s)))
    throw new ApiError(403, 'Insufficient client scope');
}

export function registerLibraryRoutes(app: FastifyInstance, ctx: Ctx): void {
  const w = ctx.world;
  const playlistOf = (id: string): Playlist => {
    if (!BASE62_ID.test(id)) throw new ApiError(400, 'Invalid base62 id');
    const pl = w.playlist(id);
    if (!pl) throw new ApiError(404, 'Resource not found');
    return pl;
  };
  const trackOf = (id: string): number => {
    const g = w.trackG(id);
    if (g === undefined) throw new ApiError(404, 'Resource not found');
    return g;
  };
  /** Other kinds (albums, shows, …) are kept as saved, with no effect on the rest of the world. */
  const saved = (user: User) => (user.savedOther ??= new Set<string>());

  const change = (call: Call, save: boolean) => {
    const uris = libraryUris(call, SAVE_TYPES);
    // Check everything before changing anything.
    const resolved = uris.map((u) => {
      const pl = u.type === 'playlist' ? playlistOf(u.id) : undefined;
      const g = u.type === 'track' ? trackOf(u.id) : undefined;
      requireScopeFor(call, u.type);
      return { u, pl, g };
    });
    for (const { u, pl, g } of resolved) {
      if (pl) {
        if (save) w.followPlaylist(call.user, pl);
        else w.unfollowPlaylist(call.user, pl);
      } else if (g !== undefined) {
        if (save) w.like(call.user, [g], ctx.clock.now());
        else w.unlike(call.user, [g]);
      } else if (save) saved(call.user).add(u.uri);
      else saved(call.user).delete(u.uri);
    }
  };

  addRoute(app, ctx, {
    method: 'PUT',
    url: '/me/library',
    op: 'save-library-items',
    handler: (call, reply) => {
      change(call, true);
      return reply.code(200).send();
    },
  });
  addRoute(app, ctx, {
    method: 'DELETE',
    url: '/me/library',
    op: 'remove-library-items',
    handler: (call, reply) => {
      change(call, false);
      return reply.code(200).send();
    },
  });
  addRoute(app, ctx, {
    method: 'GET',
    url: '/me/library/contains',
    op: 'check-library-contains',
    handler: (call) =>
      libraryUris(call, [...SAVE_TYPES, 'artist']).map((u) => {
        if (u.type === 'playlist') {
          const pl = w.playlist(u.id);
          return pl !== undefined && call.user.playlists.includes(pl.p);
        }
        if (u.type === 'track') return call.user.liked.some((l) => w.trackId(l.g) === u.id);
        if (u.type === 'artist') {
          const i = w.artistI(u.id);
          return i !== undefined && call.user.followedArtists.includes(i);
        }
        return saved(call.user).has(u.uri);
      }),
  });

  // The old follow endpoints: extended quota only (development mode uses /me/library since 2026).
  const followers = (follow: boolean) => (call: Call, reply: FastifyReply) => {
    const pl = playlistOf(call.params['playlist_id'] ?? '');
    requireScopeFor(call, 'playlist');
    if (follow) w.followPlaylist(call.user, pl);
    else w.unfollowPlaylist(call.user, pl);
    return reply.code(200).send();
  };
  addRoute(app, ctx, {
    method: 'PUT',
    url: '/playlists/:playlist_id/followers',
    op: 'follow-playlist',
    eqOnly: true,
    handler: followers(true),
  });
  addRoute(app, ctx, {
    method: 'DELETE',
    url: '/playlists/:playlist_id/followers',
    op: 'unfollow-playlist',
    eqOnly: true,
    handler: followers(false),
  });

  addRoute(app, ctx, {
    method: 'GET',
    url: '/users/:user_id',
    op: 'get-users-profile',
    eqOnly: true,
    handler: (call) => {
      const user = w.user(call.params['user_id'] ?? '');
      if (!user) throw new ApiError(404, 'Resource not found');
      return {
        ...call.present.user(user),
        display_name: user.displayName,
        followers: { href: null, total: user.index % 7 },
        images: [],
      };
    },
  });
}
