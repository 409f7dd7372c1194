// Deezer: a track by ISRC (`/track/isrc:X`), by id (`/track/{id}`), or a search
// (`/search/track?q=artist:"A" track:"T"`). Errors arrive as HTTP 200 bodies: code 4 is the quota
// (→ a short cooldown for every process), 800 is "not found". `bpm` 0 means unknown.
import { z } from 'zod';
import {
  failed,
  notFound,
  ok,
  parseJson,
  type CallOptions,
  type Outcome,
  type ServiceCaller,
} from './outside.ts';

const QUOTA_COOLDOWN_MS = 5_000;

const ErrorBody = z.object({
  error: z.looseObject({ code: z.number().optional(), message: z.string().optional() }),
});
const Brief = z.looseObject({
  id: z.number().int(),
  title: z.string(),
  title_version: z.string().optional(),
  duration: z.number(),
  preview: z.string().optional().nullable(),
  artist: z.looseObject({ name: z.string() }),
  album: z.looseObject({ title: z.string() }),
});
const Full = Brief.extend({
  isrc: z.string().optional(),
  bpm: z.number().optional().nullable(),
});
const SearchPage = z.looseObject({ data: z.array(Brief) });

export type DeezerBrief = z.infer<typeof Brief>;
export type DeezerTrack = z.infer<typeof Full>;

export function createDeezerClient(deps: { baseUrl: string; http: ServiceCaller }) {
  async function getJson<S extends z.ZodType>(
    path: string,
    schema: S,
    opts?: CallOptions,
  ): Promise<Outcome<z.infer<S>>> {
    const r = await deps.http.getText(`${deps.baseUrl}${path}`, opts);
    if (r.kind !== 'ok') return r;
    if (r.value.status === 404) return notFound('deezer: not found');
    if (r.value.status !== 200) return failed(`deezer: HTTP ${r.value.status}`);
    const body = parseJson(r.value.body);
    const err = ErrorBody.safeParse(body);
    if (err.success) {
      const code = err.data.error.code;
      if (code === 4) return deps.http.cooldown(QUOTA_COOLDOWN_MS, 'quota exceeded (code 4)');
      if (code === 800) return notFound('deezer: not found');
      return failed(`deezer: error ${code ?? '?'} ${err.data.error.message ?? ''}`.trim());
    }
    const parsed = schema.safeParse(body);
    return parsed.success ? ok(parsed.data) : failed('deezer: unreadable answer');
  }

  return {
    byIsrc: (isrc: string, opts?: CallOptions) =>
      getJson(`/track/isrc:${encodeURIComponent(isrc)}`, Full, opts),
    byId: (id: number, opts?: CallOptions) => getJson(`/track/${id}`, Full, opts),
    async search(artist: string, title: string, opts?: CallOptions): Promise<Outcome<DeezerBrief[]>> {
      const q = `artist:"${artist.replace(/"/g, '')}" track:"${title.replace(/"/g, '')}"`;
      const page = await getJson(`/search/track?q=${encodeURIComponent(q)}&limit=10`, SearchPage, opts);
      return page.kind === 'ok' ? ok(page.value.data) : page;
    },
    /** Whether a call could go now without waiting behind other callers' reserved slots. */
    hasRoom: () => deps.http.hasRoom(),
  };
}

export type DeezerClient = ReturnType<typeof createDeezerClient>;
