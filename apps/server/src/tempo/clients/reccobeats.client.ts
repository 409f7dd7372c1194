// ReccoBeats: Spotify ids → its own ids (`GET /track?ids=`), then tempo (`GET /audio-features?ids=`),
// up to 40 ids per call. No key; limits unpublished (429 + Retry-After).
import { z } from 'zod';
import { meterOfTimeSignature, type Meter } from '../meter.ts';
import { failed, ok, parseJson, type Outcome, type ServiceCaller } from './outside.ts';

export const RECCOBEATS_BATCH = 40;

const TrackPage = z.object({
  content: z.array(
    z.looseObject({ id: z.string().min(1), href: z.string(), isrc: z.string().nullable().optional() }),
  ),
});

/**
 * What ReccoBeats knows of a Spotify track: its tempo, its time signature when it gives one (it mirrors
 * Spotify's audio-features), and its ISRC (Deezer finds the recording by it).
 */
export interface ReccoBeatsTrack {
  bpm: number | null;
  meter?: Meter;
  isrc: string | null;
}

const ISRC = /^[A-Z]{2}[A-Z0-9]{3}[0-9]{7}$/;
const FeaturesPage = z.object({
  content: z.array(
    z.looseObject({
      id: z.string().min(1),
      tempo: z.number().nullable().optional(),
      time_signature: z.number().nullable().optional(),
    }),
  ),
});

const spotifyIdOf = (href: string) => /\/track\/([A-Za-z0-9]+)/.exec(href)?.[1];

export function createReccoBeatsClient(deps: { baseUrl: string; http: ServiceCaller }) {
  async function getJson<S extends z.ZodType>(path: string, schema: S): Promise<Outcome<z.infer<S>>> {
    const r = await deps.http.getText(`${deps.baseUrl}${path}`);
    if (r.kind !== 'ok') return r;
    if (r.value.status !== 200) return failed(`reccobeats: HTTP ${r.value.status}`);
    const parsed = schema.safeParse(parseJson(r.value.body));
    return parsed.success ? ok(parsed.data) : failed('reccobeats: unreadable answer');
  }

  return {
    /** Tempo and ISRC by Spotify track id for up to 40 ids; ids ReccoBeats does not know are absent. */
    async tempos(spotifyIds: string[]): Promise<Outcome<Map<string, ReccoBeatsTrack>>> {
      if (spotifyIds.length > RECCOBEATS_BATCH) throw new Error(`at most ${RECCOBEATS_BATCH} ids`);
      const out = new Map<string, ReccoBeatsTrack>();
      if (spotifyIds.length === 0) return ok(out);
      const tracks = await getJson(`/track?ids=${spotifyIds.map(encodeURIComponent).join(',')}`, TrackPage);
      if (tracks.kind !== 'ok') return tracks;
      const wanted = new Set(spotifyIds);
      const byRecco = new Map<string, string>();
      for (const t of tracks.value.content) {
        const sid = spotifyIdOf(t.href);
        if (!sid || !wanted.has(sid)) continue;
        byRecco.set(t.id, sid);
        const isrc = t.isrc?.trim().toUpperCase();
        out.set(sid, { bpm: null, isrc: isrc && ISRC.test(isrc) ? isrc : null });
      }
      if (byRecco.size === 0) return ok(out);
      const features = await getJson(
        `/audio-features?ids=${[...byRecco.keys()].map(encodeURIComponent).join(',')}`,
        FeaturesPage,
      );
      if (features.kind !== 'ok') return features;
      for (const f of features.value.content) {
        const sid = byRecco.get(f.id);
        const known = sid ? out.get(sid) : undefined;
        if (known && typeof f.tempo === 'number' && f.tempo > 0) {
          known.bpm = f.tempo;
          const meter = meterOfTimeSignature(f.time_signature);
          if (meter) known.meter = meter;
        }
      }
      return ok(out);
    },
  };
}

export type ReccoBeatsClient = ReturnType<typeof createReccoBeatsClient>;
