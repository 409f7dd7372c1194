// GetSongBPM look-alike: /search/?api_key=KEY&type=both&lookup=song:TITLE artist:ARTIST. Text match
// only, on the plain song title and the primary artist; tempo as a string, with octave errors.
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Ctx } from '../context.ts';
import { fold } from '../world/names.ts';
import { hash32 } from '../world/rng.ts';
import { getSongBpmCovers, getSongBpmTempo, plainTitle } from './views.ts';
import { reportMeter } from '../world/tempo-errors.ts';

const KEYS = ['C', 'C♯/D♭', 'D', 'D♯/E♭', 'E', 'F', 'F♯/G♭', 'G', 'G♯/A♭', 'A', 'A♯/B♭', 'B'];
const NO_RESULT = { search: { error: 'no result' } };

/** Splits "song:Title artist:Name" (either part optional). */
export function parseLookup(lookup: string): { song?: string; artist?: string } {
  const m = /^(?:song:(.*?))?\s*(?:artist:(.*))?$/i.exec(lookup.trim());
  const song = m?.[1]?.trim();
  const artist = m?.[2]?.trim();
  return { ...(song ? { song } : {}), ...(artist ? { artist } : {}) };
}

export function registerGetSongBpmRoutes(app: FastifyInstance, ctx: Ctx): void {
  const handler = async (req: { query: unknown }, reply: FastifyReply) => {
    const q = req.query as Record<string, string | undefined>;
    if (!q['api_key'] || !ctx.config.getsongbpm.apiKeys.includes(q['api_key']))
      return reply.code(401).send({ error: 'Invalid API key' });
    const rl = ctx.config.getsongbpm.rateLimit;
    if (rl) {
      const v = ctx.windows.take('getsongbpm', rl, ctx.clock.now());
      if (!v.ok)
        return reply
          .code(429)
          .header('retry-after', String(v.retryAfter))
          .send({ error: 'Too many requests, 3000 requests per hour max' });
    }
    const type = q['type'] ?? 'both';
    const lookup = q['lookup'] ?? '';
    const parsed = type === 'song' ? { song: lookup } : parseLookup(lookup);
    if (!parsed.song || (type === 'both' && !parsed.artist)) return NO_RESULT;
    const cat = ctx.world.catalog;
    const artistName = parsed.artist ? fold(parsed.artist) : undefined;
    const artists = artistName
      ? cat.artists.filter((a) => a.i > 0 && fold(a.name) === artistName)
      : cat.artists.slice(1);
    const title = fold(parsed.song);
    const results = [];
    const seen = new Set<number>();
    for (const a of artists) {
      for (const r of a.releases) {
        const rel = cat.releases[r];
        if (!rel || rel.kind === 'compilation' || rel.kind === 'live' || rel.kind === 'remaster') continue;
        for (const t of cat.tracksOf(r)) {
          if (
            t.artists[0] !== a.i ||
            seen.has(t.song) ||
            fold(plainTitle(t.name)) !== title ||
            !getSongBpmCovers(ctx, t.song)
          )
            continue;
          seen.add(t.song);
          const truth = cat.tempoOf(t.g);
          const id = hash32(ctx.world.seed, 'gsb-id', t.song).toString(36);
          results.push({
            id,
            title: plainTitle(t.name),
            uri: `https://getsongbpm.com/song/${encodeURIComponent(fold(plainTitle(t.name)).replace(/ /g, '-'))}/${id}`,
            tempo: String(getSongBpmTempo(ctx, t.song)),
            // Its contributors' meter, wrong on its own (not Spotify's errors).
            time_sig: reportMeter(ctx.world.seed, t.song, truth, 'getsongbpm'),
            key_of: KEYS[hash32(ctx.world.seed, 'key', t.recording) % 12],
            open_key: `${(hash32(ctx.world.seed, 'key', t.recording) % 12) + 1}d`,
            danceability: hash32(ctx.world.seed, 'gsb-dance', t.song) % 100,
            acousticness: hash32(ctx.world.seed, 'gsb-ac', t.song) % 100,
            artist: {
              id: hash32(ctx.world.seed, 'gsb-artist', a.i).toString(36),
              name: a.name,
              uri: `https://getsongbpm.com/artist/${encodeURIComponent(fold(a.name).replace(/ /g, '-'))}`,
              genres: a.genres,
              from: a.country,
              mbid: null,
            },
            album: {
              title: cat.releaseTitle(rel),
              uri: `https://getsongbpm.com/album/${rel.r}`,
              year: String(rel.year),
            },
          });
        }
      }
    }
    return results.length > 0 ? { search: results.slice(0, 20) } : NO_RESULT;
  };
  app.get('/search/', handler);
  app.get('/search', handler);
}
