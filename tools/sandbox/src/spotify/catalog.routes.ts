// Catalog reads: artists, their albums, albums, album tracks, tracks, search; and for extended-quota
// apps the multi-get endpoints and audio-features.
import type { FastifyInstance } from 'fastify';
import type { Ctx } from '../context.ts';
import { ApiError, NO_MESSAGE, addRoute, intParam, strParam, type Call } from './route.ts';
import { paging } from './present.ts';
import { BASE62_ID } from '../world/ids.ts';
import type { Release } from '../world/catalog.ts';
import { reportedTempo } from '../tempo/views.ts';
import { hash32, unit } from '../world/rng.ts';
import { search } from './search.ts';
import { reportMeter, spotifyTimeSignature } from '../world/tempo-errors.ts';

const GROUP_ORDER = ['album', 'single', 'compilation', 'appears_on'] as const;
type Group = (typeof GROUP_ORDER)[number];

function lookup<T>(id: string | undefined, find: (id: string) => T | undefined): T {
  if (!id || !BASE62_ID.test(id)) throw new ApiError(400, 'Invalid base62 id');
  const v = find(id);
  if (v === undefined) throw new ApiError(404, 'Resource not found');
  return v;
}

function idsParam(call: Call, max: number): string[] {
  const ids = (strParam(call, 'ids') ?? '').split(',').filter((s) => s !== '');
  if (ids.length === 0) throw new ApiError(400, 'Missing parameter ids');
  if (ids.length > max) throw new ApiError(400, 'Too many ids requested');
  return ids;
}

export function audioFeatures(ctx: Ctx, g: number) {
  const cat = ctx.world.catalog;
  const t = cat.track(g);
  const truth = cat.tempoOf(g);
  const rec = cat.recordingOf(g);
  const id = ctx.world.trackId(g);
  const f = (k: string) => Math.round(unit(ctx.world.seed, 'feature', k, rec) * 1000) / 1000;
  return {
    acousticness: f('acousticness'),
    analysis_url: `${ctx.baseUrls.spotifyApi}/audio-analysis/${id}`,
    danceability: f('danceability'),
    duration_ms: t.durationMs,
    energy: f('energy'),
    id,
    instrumentalness: f('instrumentalness'),
    key: (hash32(ctx.world.seed, 'key', rec) % 12) as number,
    liveness: cat.releaseOf(g).kind === 'live' ? 0.8 : f('liveness') / 3,
    loudness: -Math.round(unit(ctx.world.seed, 'loud', rec) * 14000) / 1000 - 2,
    mode: hash32(ctx.world.seed, 'mode', rec) % 2,
    speechiness: f('speechiness') / 4,
    tempo: reportedTempo(ctx, 'spotify', rec, g, truth, ctx.config.audioFeaturesOctaveErrorShare).bpm,
    time_signature: spotifyTimeSignature(reportMeter(ctx.world.seed, rec, truth, 'spotify')),
    track_href: `${ctx.baseUrls.spotifyApi}/tracks/${id}`,
    type: 'audio_features' as const,
    uri: `spotify:track:${id}`,
    valence: f('valence'),
  };
}

/** An extended-quota app that did not use audio-features before 2024-11-27 gets 403, as a new app does. */
function requireAudioFeatures(ctx: Ctx): void {
  if (!ctx.config.audioFeaturesAccess) throw new ApiError(403, NO_MESSAGE);
}

export function registerCatalogRoutes(app: FastifyInstance, ctx: Ctx): void {
  const w = ctx.world;
  addRoute(app, ctx, {
    method: 'GET',
    url: '/artists/:id',
    op: 'get-an-artist',
    handler: (call) => call.present.artist(lookup(call.params['id'], (id) => w.artistI(id))),
  });

  addRoute(app, ctx, {
    method: 'GET',
    url: '/artists/:id/albums',
    op: 'get-an-artists-albums',
    handler: (call) => {
      const i = lookup(call.params['id'], (id) => w.artistI(id));
      const limit = intParam(call, 'limit', 5);
      if (limit < 1) throw new ApiError(400, 'Invalid limit');
      const offset = intParam(call, 'offset', 0);
      const groupsParam = strParam(call, 'include_groups');
      const groups = groupsParam ? groupsParam.split(',').map((s) => s.trim()) : [...GROUP_ORDER];
      if (groups.some((g) => !(GROUP_ORDER as readonly string[]).includes(g)))
        throw new ApiError(400, 'Invalid include_groups');
      const artist = w.catalog.artists[i];
      if (!artist) throw new ApiError(404, 'Resource not found');
      const all: Array<{ r: number; group: Group }> = [];
      const byDate = (a: number, b: number) => {
        const ra = w.catalog.releases[a] as Release;
        const rb = w.catalog.releases[b] as Release;
        return rb.year - ra.year || rb.month - ra.month || rb.day - ra.day || b - a;
      };
      for (const group of GROUP_ORDER) {
        if (!groups.includes(group)) continue;
        const rs =
          group === 'appears_on'
            ? artist.appearsOn
            : artist.releases.filter((r) => (w.catalog.releases[r] as Release).albumType === group);
        for (const r of [...rs].sort(byDate)) all.push({ r, group });
      }
      const items = all.slice(offset, offset + limit).map((x) => call.present.albumSimplified(x.r, x.group));
      const extra = groupsParam ? `&include_groups=${groupsParam}` : '';
      return paging(
        ctx.baseUrls.spotifyApi,
        `/artists/${call.params['id']}/albums`,
        items,
        all.length,
        limit,
        offset,
        extra,
      );
    },
  });

  addRoute(app, ctx, {
    method: 'GET',
    url: '/albums/:id',
    op: 'get-an-album',
    handler: (call) => call.present.album(lookup(call.params['id'], (id) => w.albumR(id))),
  });

  addRoute(app, ctx, {
    method: 'GET',
    url: '/albums/:id/tracks',
    op: 'get-an-albums-tracks',
    handler: (call) => {
      const r = lookup(call.params['id'], (id) => w.albumR(id));
      const limit = intParam(call, 'limit', 20);
      const offset = intParam(call, 'offset', 0);
      const tracks = w.catalog.tracksOf(r);
      const items = tracks.slice(offset, offset + limit).map((t) => call.present.trackSimplified(t));
      return paging(
        ctx.baseUrls.spotifyApi,
        `/albums/${call.params['id']}/tracks`,
        items,
        tracks.length,
        limit,
        offset,
      );
    },
  });

  addRoute(app, ctx, {
    method: 'GET',
    url: '/tracks/:id',
    op: 'get-track',
    handler: (call) => call.present.track(lookup(call.params['id'], (id) => w.trackG(id))),
  });

  addRoute(app, ctx, {
    method: 'GET',
    url: '/search',
    op: 'search',
    aliases: { query: 'q' },
    handler: (call) => {
      const limit = intParam(call, 'limit', 5);
      const offset = intParam(call, 'offset', 0);
      const q = strParam(call, 'q') ?? '';
      if (q.trim() === '') throw new ApiError(400, 'No search query');
      const types = call.query['type'] as string[];
      return search(ctx, call, q, types, limit, offset);
    },
  });

  // ---- extended quota only --------------------------------------------------------------------

  addRoute(app, ctx, {
    method: 'GET',
    url: '/tracks',
    op: 'get-several-tracks',
    eqOnly: true,
    handler: (call) => ({
      tracks: idsParam(call, 50).map((id) =>
        w.trackG(id) === undefined ? null : call.present.track(w.trackG(id) as number),
      ),
    }),
  });
  addRoute(app, ctx, {
    method: 'GET',
    url: '/albums',
    op: 'get-multiple-albums',
    eqOnly: true,
    handler: (call) => ({
      albums: idsParam(call, 20).map((id) =>
        w.albumR(id) === undefined ? null : call.present.album(w.albumR(id) as number),
      ),
    }),
  });
  addRoute(app, ctx, {
    method: 'GET',
    url: '/artists',
    op: 'get-multiple-artists',
    eqOnly: true,
    handler: (call) => ({
      artists: idsParam(call, 50).map((id) =>
        w.artistI(id) === undefined ? null : call.present.artist(w.artistI(id) as number),
      ),
    }),
  });
  addRoute(app, ctx, {
    method: 'GET',
    url: '/audio-features',
    op: 'get-several-audio-features',
    eqOnly: true,
    removedSilently: true,
    handler: (call) => {
      requireAudioFeatures(ctx);
      return {
        audio_features: idsParam(call, 100).map((id) =>
          w.trackG(id) === undefined ? null : audioFeatures(ctx, w.trackG(id) as number),
        ),
      };
    },
  });
  addRoute(app, ctx, {
    method: 'GET',
    url: '/audio-features/:id',
    op: 'get-audio-features',
    eqOnly: true,
    removedSilently: true,
    handler: (call) => {
      requireAudioFeatures(ctx);
      return audioFeatures(
        ctx,
        lookup(call.params['id'], (id) => w.trackG(id)),
      );
    },
  });
}
