// GetSongBPM: `GET /search/?api_key=KEY&type=both&lookup=song:T artist:A`. Text match only; send the
// primary artist. A visible link to getsongbpm.com is required wherever it is used.
import { z } from 'zod';
import { meterOfTimeSig, type Meter } from '../meter.ts';
import {
  failed,
  notFound,
  ok,
  parseJson,
  type CallOptions,
  type Outcome,
  type ServiceCaller,
} from './outside.ts';

const Hit = z.looseObject({
  title: z.string(),
  tempo: z.union([z.string(), z.number()]).nullable().optional(),
  time_sig: z.string().nullable().optional(),
  artist: z.looseObject({ name: z.string() }),
});
const Answer = z.object({
  search: z.union([z.array(Hit), z.looseObject({ error: z.string() })]),
});

export interface GetSongBpmHit {
  title: string;
  artist: string;
  tempo: number;
  /** Its `time_sig`, when it reads as a meter. */
  meter?: Meter;
}

export function createGetSongBpmClient(deps: { baseUrl: string; apiKey: string; http: ServiceCaller }) {
  return {
    async search(artist: string, title: string, opts?: CallOptions): Promise<Outcome<GetSongBpmHit[]>> {
      const lookup = `song:${title} artist:${artist}`;
      const url = `${deps.baseUrl}/search/?api_key=${encodeURIComponent(deps.apiKey)}&type=both&lookup=${encodeURIComponent(lookup)}`;
      const r = await deps.http.getText(url, opts);
      if (r.kind !== 'ok') return r;
      if (r.value.status === 401 || r.value.status === 403) {
        return deps.http.cooldown(3_600_000, `key refused (HTTP ${r.value.status})`);
      }
      if (r.value.status === 404) return notFound('getsongbpm: no result');
      if (r.value.status !== 200) return failed(`getsongbpm: HTTP ${r.value.status}`);
      const parsed = Answer.safeParse(parseJson(r.value.body));
      if (!parsed.success) return failed('getsongbpm: unreadable answer');
      if (!Array.isArray(parsed.data.search)) return notFound('getsongbpm: no result');
      const hits: GetSongBpmHit[] = [];
      for (const h of parsed.data.search) {
        const tempo = Number(h.tempo);
        const meter = meterOfTimeSig(h.time_sig);
        if (Number.isFinite(tempo) && tempo > 0)
          hits.push({ title: h.title, artist: h.artist.name, tempo, ...(meter ? { meter } : {}) });
      }
      return ok(hits);
    },
  };
}

export type GetSongBpmClient = ReturnType<typeof createGetSongBpmClient>;
