// Playlists: read, change details, and read or change items through /items (and the old /tracks
// paths, which only extended-quota apps may use).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Ctx } from '../context.ts';
import { ApiError, addRoute, intParam, strParam, type Call } from './route.ts';
import { paging } from './present.ts';
import { FieldsError, applyFields, parseFields } from './fields.ts';
import { createPlaylist } from './me.routes.ts';
import { MAX_PLAYLIST_ITEMS } from '../world/world.ts';
import { BASE62_ID } from '../world/ids.ts';
import type { Playlist, PlaylistEntry } from '../world/library.ts';

const MAX_URIS = 100;

function playlistOf(ctx: Ctx, call: Call): Playlist {
  const id = call.params['playlist_id'] ?? '';
  if (!BASE62_ID.test(id)) throw new ApiError(400, 'Invalid base62 id');
  const pl = ctx.world.playlist(id);
  if (!pl) throw new ApiError(404, 'Resource not found');
  return pl;
}

function withFields(call: Call, value: unknown): unknown {
  const fields = strParam(call, 'fields');
  if (!fields) return value;
  try {
    return applyFields(value, parseFields(fields));
  } catch (err) {
    if (err instanceof FieldsError) throw new ApiError(400, err.message);
    throw err;
  }
}

/** Scopes needed to read a playlist's items. */
const readScopes = (pl: Playlist): string[] | undefined =>
  pl.collaborative
    ? ['playlist-read-collaborative', 'playlist-read-private']
    : pl.public
      ? undefined
      : ['playlist-read-private'];
const writeScopes = (pl: Playlist): string[] =>
  pl.public ? ['playlist-modify-public'] : ['playlist-modify-private'];

function requireScopes(call: Call, scopes: string[] | undefined): void {
  if (scopes && !scopes.some((s) => call.grant.scopes.includes(s)))
    throw new ApiError(403, 'Insufficient client scope');
}

/** What a URI in an add, replace or removal names: a track or a podcast episode. */
type ItemRef = { g: number; episode?: undefined } | { episode: number; g?: undefined };

function parseUris(ctx: Ctx, call: Call, fromBody: unknown): ItemRef[] {
  const q = strParam(call, 'uris');
  const list =
    q !== undefined
      ? q.split(',').map((s) => s.trim())
      : Array.isArray(fromBody)
        ? (fromBody as unknown[])
        : [];
  if (list.length > MAX_URIS)
    throw new ApiError(400, `You can add a maximum of ${MAX_URIS} tracks per request.`);
  return list.map((u) => parseUri(ctx, u));
}

/** `spotify:track:ID` or `spotify:episode:ID` (the OpenAPI allows both in playlists). */
function parseUri(ctx: Ctx, u: unknown): ItemRef {
  const m = typeof u === 'string' ? /^spotify:(track|episode):([0-9A-Za-z]{22})$/.exec(u) : null;
  if (!m) throw new ApiError(400, `Invalid track uri: ${String(u)}`);
  if (m[1] === 'episode') {
    const e = ctx.world.episodeE(m[2] as string);
    if (e === undefined) throw new ApiError(400, 'Payload contains a non-existing ID');
    return { episode: e };
  }
  const g = ctx.world.trackG(m[2] as string);
  if (g === undefined) throw new ApiError(400, 'Payload contains a non-existing ID');
  return { g };
}

export function registerPlaylistRoutes(app: FastifyInstance, ctx: Ctx): void {
  addRoute(app, ctx, {
    method: 'GET',
    url: '/playlists/:playlist_id',
    op: 'get-playlist',
    handler: (call) => {
      const pl = playlistOf(ctx, call);
      const readable =
        ctx.world.canEdit(call.user, pl) && !readScopes(pl)?.every((s) => !call.grant.scopes.includes(s));
      return withFields(call, call.present.playlist(pl, readable || call.mode === 'eq'));
    },
  });

  addRoute(app, ctx, {
    method: 'PUT',
    url: '/playlists/:playlist_id',
    op: 'change-playlist-details',
    handler: (call, reply) => {
      const pl = playlistOf(ctx, call);
      if (pl.owner !== call.user.index)
        throw new ApiError(403, "You cannot change details of a playlist you don't own.");
      const b = (call.body ?? {}) as {
        name?: string;
        public?: boolean;
        collaborative?: boolean;
        description?: string;
      };
      requireScopes(
        call,
        b.public === false || b.collaborative || !pl.public
          ? ['playlist-modify-private']
          : ['playlist-modify-public'],
      );
      if (b.collaborative && (b.public ?? pl.public))
        throw new ApiError(400, 'Collaborative playlists can only be private.');
      ctx.world.updateDetails(pl, b);
      return reply.code(200).send();
    },
  });

  for (const [suffix, eqOnly, ops] of [
    [
      'items',
      false,
      {
        get: 'get-playlists-items',
        add: 'add-items-to-playlist',
        put: 'reorder-or-replace-playlists-items',
        del: 'remove-items-playlist',
      },
    ],
    [
      'tracks',
      true,
      {
        get: 'get-playlists-tracks',
        add: 'add-tracks-to-playlist',
        put: 'reorder-or-replace-playlists-tracks',
        del: 'remove-tracks-playlist',
      },
    ],
  ] as const) {
    const url = `/playlists/:playlist_id/${suffix}`;
    addRoute(app, ctx, {
      method: 'GET',
      url,
      op: ops.get,
      eqOnly,
      handler: (call) => {
        const pl = playlistOf(ctx, call);
        if (call.mode === 'dm' && !ctx.world.canEdit(call.user, pl)) throw new ApiError(403, 'Forbidden');
        if (pl.owner !== call.user.index) requireScopes(call, readScopes(pl));
        else if (!pl.public) requireScopes(call, ['playlist-read-private']);
        const limit = intParam(call, 'limit', 20);
        const offset = intParam(call, 'offset', 0);
        const items = pl.entries.slice(offset, offset + limit).map((e) => call.present.playlistItem(e));
        const id = ctx.world.playlistId(pl.p);
        return withFields(
          call,
          paging(
            ctx.baseUrls.spotifyApi,
            `/playlists/${id}/${suffix}`,
            items,
            pl.entries.length,
            limit,
            offset,
          ),
        );
      },
    });
    addRoute(app, ctx, {
      method: 'POST',
      url,
      op: ops.add,
      eqOnly,
      handler: (call, reply) => {
        const pl = playlistOf(ctx, call);
        if (!ctx.world.canEdit(call.user, pl))
          throw new ApiError(403, "You cannot add tracks to a playlist you don't own.");
        requireScopes(call, writeScopes(pl));
        const body = (call.body ?? {}) as { uris?: unknown; position?: number };
        const refs = parseUris(ctx, call, body.uris);
        if (refs.length === 0) throw new ApiError(400, 'No uris provided');
        if (pl.entries.length + refs.length > MAX_PLAYLIST_ITEMS)
          throw new ApiError(400, 'Playlist size limit reached');
        const position = typeof call.query['position'] === 'number' ? call.query['position'] : body.position;
        if (position !== undefined && (position < 0 || position > pl.entries.length))
          throw new ApiError(400, 'Index out of bounds');
        const at = ctx.clock.now();
        ctx.world.addItems(
          pl,
          refs.map((r) => ({ ...r, addedAt: at, addedBy: call.user.index })),
          position,
        );
        return reply.code(201).send({ snapshot_id: ctx.world.snapshotId(pl) });
      },
    });
    addRoute(app, ctx, {
      method: 'PUT',
      url,
      op: ops.put,
      eqOnly,
      handler: (call, reply) => replaceOrReorder(ctx, call, reply),
    });
    addRoute(app, ctx, {
      method: 'DELETE',
      url,
      op: ops.del,
      eqOnly,
      handler: (call, reply) => {
        const pl = playlistOf(ctx, call);
        if (!ctx.world.canEdit(call.user, pl))
          throw new ApiError(403, "You cannot remove tracks from a playlist you don't own.");
        requireScopes(call, writeScopes(pl));
        const body = (call.body ?? {}) as Record<string, unknown>;
        const list = (body[suffix] ?? []) as Array<{ uri?: string; positions?: number[] }>;
        if (list.length === 0) throw new ApiError(400, `Missing ${suffix}`);
        if (list.length > MAX_URIS)
          throw new ApiError(400, `You can remove a maximum of ${MAX_URIS} tracks per request.`);
        const refs = list.map((x) => parseUri(ctx, x.uri));
        const positioned = list.filter((x) => Array.isArray(x.positions));
        if (positioned.length > 0) {
          const drop = new Set<number>();
          positioned.forEach((x) => {
            for (const p of x.positions as number[]) {
              const e = pl.entries[p];
              if (!e || ctx.world.entryUri(e) !== x.uri)
                throw new ApiError(400, `Invalid position ${p} for ${x.uri}`);
              drop.add(p);
            }
          });
          ctx.world.replaceItems(
            pl,
            pl.entries.filter((_, idx) => !drop.has(idx)),
          );
          const rest = refs.filter((_, k) => !Array.isArray(list[k]?.positions));
          if (rest.length > 0) removeRefs(ctx, pl, rest);
        } else removeRefs(ctx, pl, refs);
        return reply.code(200).send({ snapshot_id: ctx.world.snapshotId(pl) });
      },
    });
  }

  addRoute(app, ctx, {
    method: 'POST',
    url: '/users/:user_id/playlists',
    op: 'create-playlist-for-user',
    eqOnly: true,
    scopes: (call) =>
      ((call.body ?? {}) as { public?: boolean }).public === false
        ? ['playlist-modify-private']
        : ['playlist-modify-public'],
    handler: (call, reply) => {
      if (call.params['user_id'] !== call.user.id)
        throw new ApiError(403, 'You cannot create a playlist for another user.');
      return createPlaylist(ctx, call, reply);
    },
  });
}

function replaceOrReorder(ctx: Ctx, call: Call, reply: FastifyReply) {
  const pl = playlistOf(ctx, call);
  if (!ctx.world.canEdit(call.user, pl))
    throw new ApiError(403, "You cannot change a playlist you don't own.");
  requireScopes(call, writeScopes(pl));
  const b = (call.body ?? {}) as {
    uris?: unknown;
    range_start?: number;
    insert_before?: number;
    range_length?: number;
  };
  if (b.range_start !== undefined || b.insert_before !== undefined) {
    const len = b.range_length ?? 1;
    const n = pl.entries.length;
    if (b.range_start === undefined || b.insert_before === undefined)
      throw new ApiError(400, 'Missing range_start or insert_before');
    if (b.range_start < 0 || b.range_start + len > n || b.insert_before < 0 || b.insert_before > n || len < 1)
      throw new ApiError(400, 'Index out of bounds');
    ctx.world.reorder(pl, b.range_start, b.insert_before, len);
  } else {
    const refs = parseUris(ctx, call, b.uris);
    const at = ctx.clock.now();
    ctx.world.replaceItems(
      pl,
      refs.map((r): PlaylistEntry => ({ ...r, addedAt: at, addedBy: call.user.index })),
    );
  }
  return reply.code(200).send({ snapshot_id: ctx.world.snapshotId(pl) });
}

function removeRefs(ctx: Ctx, pl: Playlist, refs: ItemRef[]): void {
  ctx.world.removeItems(
    pl,
    refs.flatMap((r) => (r.g !== undefined ? [r.g] : [])),
    refs.flatMap((r) => (r.episode !== undefined ? [r.episode] : [])),
  );
}
