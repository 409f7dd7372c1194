// ReccoBeats look-alike: /v1/track?ids=<Spotify ids> maps to its own ids, /v1/audio-features?ids=<its
// ids> gives a tempo that mirrors Spotify's old audio-features (octave errors included).
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Ctx } from '../context.ts';
import { hash32, unit } from '../world/rng.ts';
import { audioFeatures } from '../spotify/catalog.routes.ts';
import { reccoCovers, reccoId, reccoIdToTrack } from './views.ts';

const MAX_IDS = 40;

export function registerReccoBeatsRoutes(app: FastifyInstance, ctx: Ctx): void {
  const badRequest = (reply: FastifyReply, message: string) =>
    reply.code(400).send({
      timestamp: new Date(ctx.clock.now()).toISOString(),
      status: 400,
      error: 'Bad Request',
      message,
    });

  const gate = (reply: FastifyReply, idsParam: string | undefined): string[] | undefined => {
    const rl = ctx.config.reccobeats.rateLimit;
    if (rl) {
      const v = ctx.windows.take('reccobeats', rl, ctx.clock.now());
      if (!v.ok) {
        void reply
          .code(429)
          .header('retry-after', String(Math.max(v.retryAfter, ctx.config.reccobeats.retryAfterSeconds)))
          .send({ status: 429, error: 'Too Many Requests' });
        return undefined;
      }
    }
    const ids = (idsParam ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter((s) => s !== '');
    if (ids.length === 0) {
      void badRequest(reply, 'ids must not be empty');
      return undefined;
    }
    if (ids.length > MAX_IDS) {
      void badRequest(reply, `ids must contain at most ${MAX_IDS} items`);
      return undefined;
    }
    return ids;
  };

  app.get('/track', async (req, reply) => {
    const ids = gate(reply, (req.query as Record<string, string | undefined>)['ids']);
    if (!ids) return reply;
    const content = [];
    for (const id of ids) {
      const g = ctx.world.trackG(id);
      if (g === undefined || !reccoCovers(ctx, g)) continue;
      const cat = ctx.world.catalog;
      const t = cat.track(g);
      content.push({
        id: reccoId(ctx, g),
        trackTitle: t.name,
        artists: t.artists.map((i) => ({
          id: reccoId(ctx, 2_000_000_000 + i),
          name: cat.artists[i]?.name ?? '',
          href: `https://open.spotify.com/artist/${ctx.world.ids.encode('artist', i)}`,
        })),
        durationMs: t.durationMs,
        isrc: t.isrc,
        ean: null,
        upc: null,
        href: `https://open.spotify.com/track/${id}`,
        availableCountries: 'DE,FR,GB,SE,US',
        popularity: hash32(ctx.world.seed, 'recco-pop', g) % 100,
      });
    }
    return { content };
  });

  app.get('/audio-features', async (req, reply) => {
    const ids = gate(reply, (req.query as Record<string, string | undefined>)['ids']);
    if (!ids) return reply;
    const content = [];
    for (const id of ids) {
      const g = reccoIdToTrack(ctx, id);
      if (g === undefined) continue;
      const f = audioFeatures(ctx, g);
      const rec = ctx.world.catalog.recordingOf(g);
      content.push({
        id,
        href: `https://open.spotify.com/track/${ctx.world.trackId(g)}`,
        acousticness: f.acousticness,
        danceability: f.danceability,
        energy: f.energy,
        instrumentalness: f.instrumentalness,
        key: f.key,
        liveness: f.liveness,
        loudness: f.loudness,
        mode: f.mode,
        speechiness: f.speechiness,
        tempo: f.tempo,
        // It mirrors Spotify's audio-features, time signature and its errors included.
        time_signature: f.time_signature,
        valence: Math.round(unit(ctx.world.seed, 'feature', 'valence', rec) * 1000) / 1000,
      });
    }
    return { content };
  });
}
