// Deezer look-alike: /track/isrc:{ISRC}, /track/{id}, /search/track?q=, and preview MP3s. Errors are
// HTTP 200 bodies ({"error":{"code":4}} quota, 800 not found), as Deezer does.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Ctx } from '../context.ts';
import { hash32 } from '../world/rng.ts';
import { fold } from '../world/names.ts';
import { parseQuery, searchTracks } from '../spotify/search.ts';
import { PreviewCache } from './previews.ts';
import {
  deezerArtistId,
  deezerById,
  deezerCovers,
  deezerView,
  deezerWrongVersion,
  type DeezerView,
} from './views.ts';

const NOT_FOUND = { error: { type: 'DataException', message: 'no data', code: 800 } };
const QUOTA = { error: { type: 'Exception', message: 'Quota limit exceeded', code: 4 } };
const WEB = 'https://www.deezer.com';

export function registerDeezerRoutes(app: FastifyInstance, ctx: Ctx): void {
  const previews = new PreviewCache(() => ctx.config.previews, ctx.previewStats);
  app.addHook('onClose', async () => previews.close());
  const base = () => ctx.baseUrls.deezer;
  const md5 = (n: number) =>
    [0, 1, 2, 3].map((k) => hash32(ctx.world.seed, 'md5', n, k).toString(16).padStart(8, '0')).join('');

  const limited = (reply: FastifyReply): boolean => {
    const rl = ctx.config.deezer.rateLimit;
    if (!rl) return false;
    const v = ctx.windows.take('deezer', rl, ctx.clock.now());
    if (v.ok) return false;
    void reply.send(QUOTA);
    return true;
  };

  const artist = (v: DeezerView) => {
    const id = deezerArtistId(v.artistIndex);
    const pic = `https://e-cdns-images.dzcdn.net/images/artist/${md5(id)}`;
    return {
      id,
      name: v.artistName,
      link: `${WEB}/artist/${id}`,
      picture: `${pic}/120x120-000000-80-0-0.jpg`,
      picture_small: `${pic}/56x56-000000-80-0-0.jpg`,
      picture_medium: `${pic}/250x250-000000-80-0-0.jpg`,
      picture_big: `${pic}/500x500-000000-80-0-0.jpg`,
      picture_xl: `${pic}/1000x1000-000000-80-0-0.jpg`,
      tracklist: `${base()}/artist/${id}/top?limit=50`,
      type: 'artist',
    };
  };
  const album = (v: DeezerView) => {
    const cover = `https://e-cdns-images.dzcdn.net/images/cover/${md5(v.albumId)}`;
    return {
      id: v.albumId,
      title: v.albumTitle,
      cover: `${cover}/120x120-000000-80-0-0.jpg`,
      cover_small: `${cover}/56x56-000000-80-0-0.jpg`,
      cover_medium: `${cover}/250x250-000000-80-0-0.jpg`,
      cover_big: `${cover}/500x500-000000-80-0-0.jpg`,
      cover_xl: `${cover}/1000x1000-000000-80-0-0.jpg`,
      md5_image: md5(v.albumId),
      tracklist: `${base()}/album/${v.albumId}/tracks`,
      type: 'album',
    };
  };
  const brief = (v: DeezerView) => ({
    id: v.id,
    readable: true,
    title: v.title,
    title_short: v.title.replace(/ \((feat\.|Live)[^)]*\)$/, ''),
    title_version: v.titleVersion,
    link: `${WEB}/track/${v.id}`,
    duration: v.durationS,
    rank: v.rank,
    explicit_lyrics: v.explicit,
    explicit_content_lyrics: v.explicit ? 1 : 0,
    explicit_content_cover: 0,
    preview: v.hasPreview ? `${base()}/previews/${v.id}.mp3` : '',
    md5_image: md5(v.albumId),
    artist: artist(v),
    album: album(v),
    type: 'track',
  });
  const full = (v: DeezerView) => ({
    ...brief(v),
    isrc: v.isrc,
    share: `${WEB}/track/${v.id}?utm_source=deezer`,
    track_position: v.trackPosition,
    disk_number: 1,
    release_date: v.releaseDate,
    bpm: v.bpm,
    gain: -Math.round((6 + (hash32(ctx.world.seed, 'gain', v.id) % 80) / 10) * 10) / 10,
    available_countries: ['DE', 'FR', 'GB', 'SE', 'US'],
    contributors: [{ ...artist(v), role: 'Main' }],
    artist: artist(v),
    album: { ...album(v), link: `${WEB}/album/${v.albumId}`, release_date: v.releaseDate },
  });

  app.get('/track/:id', async (req, reply) => {
    if (limited(reply)) return reply;
    const raw = (req.params as { id: string }).id;
    if (raw.toLowerCase().startsWith('isrc:')) {
      const g = ctx.world.catalog.trackByIsrc(raw.slice(5));
      if (g === undefined || !deezerCovers(ctx, g)) return NOT_FOUND;
      return full(deezerView(ctx, g, deezerWrongVersion(ctx, ctx.world.catalog.recordingOf(g))));
    }
    if (!/^\d+$/.test(raw)) return NOT_FOUND;
    const v = deezerById(ctx, Number(raw));
    return v ? full(v) : NOT_FOUND;
  });

  const search = async (req: { query: unknown }, reply: FastifyReply) => {
    if (limited(reply)) return reply;
    const q = (req.query as Record<string, string | undefined>)['q'] ?? '';
    const index = Math.max(0, Number((req.query as Record<string, string>)['index'] ?? 0) || 0);
    const limit = Math.min(
      100,
      Math.max(1, Number((req.query as Record<string, string>)['limit'] ?? 25) || 25),
    );
    if (q.trim() === '')
      return { error: { type: 'ParameterException', message: 'Missing parameters: q', code: 501 } };
    const pq = parseQuery(q);
    const track = pq.filters.get('track');
    if (track) pq.filters.set('track', fold(track));
    const hits: DeezerView[] = [];
    for (const g of searchTracks(ctx, pq)) {
      if (!deezerCovers(ctx, g)) continue;
      if (deezerWrongVersion(ctx, ctx.world.catalog.recordingOf(g))) hits.push(deezerView(ctx, g, true));
      hits.push(deezerView(ctx, g));
      if (hits.length >= 300) break;
    }
    const page = hits.slice(index, index + limit).map(brief);
    const next =
      index + limit < hits.length
        ? `${base()}/search/track?q=${encodeURIComponent(q)}&index=${index + limit}`
        : undefined;
    return { data: page, total: hits.length, ...(next ? { next } : {}) };
  };
  app.get('/search/track', search);
  app.get('/search', search);

  app.get('/previews/:file', async (req, reply) => {
    const m = /^(\d+)\.mp3$/.exec((req.params as { file: string }).file);
    const v = m ? deezerById(ctx, Number(m[1])) : undefined;
    if (!v || !v.hasPreview) return reply.code(404).type('text/plain').send('Not Found');
    const mp3 = await previews.get({
      key: v.id,
      bpm: v.previewBpm,
      pattern: v.pattern,
      seed: hash32(ctx.world.seed, 'preview', v.id),
    });
    return reply.type('audio/mpeg').header('cache-control', 'public, max-age=86400').send(Buffer.from(mp3));
  });
}
