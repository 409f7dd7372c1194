// Test harness: the tempo resolver on the real service callers and clients, with outside services that
// answer from a table after a short delay, a pacer that reserves every slot a little ahead, and no
// database. Only tests import this file.
import { createDeezerClient } from './clients/deezer.client.ts';
import { createGetSongBpmClient } from './clients/getsongbpm.client.ts';
import { createServiceCaller, type Pacer } from './clients/outside.ts';
import { createPreviewClient } from './clients/preview.client.ts';
import { createReccoBeatsClient } from './clients/reccobeats.client.ts';
import type { AudioEstimate } from './decide.ts';
import type { CachedTempo } from './tempo.repository.ts';
import { createTempoService, type TrackInput } from './tempo.service.ts';

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A pace whose next free slot is `aheadMs` away (a line of waiting calls): given to a call that may wait that long. */
type Line = { aheadMs: number };

/**
 * Every slot reserved `waitMs` ahead; or refused until a second from now; or `busy`: the next free slot
 * is 200 ms ahead (given to a call that may wait for it, refused to one that takes only a slot free at once);
 * or a `Line`.
 */
const pacer = (waitMs: number | 'refuse' | 'busy' | Line): Pacer => ({
  takeSlot: async (_s, now, _interval, _burst, maxWaitMs = 0) => {
    if (typeof waitMs === 'object')
      return maxWaitMs >= waitMs.aheadMs
        ? { ok: true, at: new Date(now.getTime() + waitMs.aheadMs) }
        : { ok: false, retryAt: new Date(now.getTime() + waitMs.aheadMs), reason: 'pacing' };
    return waitMs === 'refuse' || (waitMs === 'busy' && maxWaitMs < 200)
      ? { ok: false, retryAt: new Date(now.getTime() + 1000), reason: 'pacing' }
      : { ok: true, at: new Date(now.getTime() + (waitMs === 'busy' ? 200 : waitMs)) };
  },
  setCooldown: async () => undefined,
});

export const fakeTrack = (c: string): TrackInput => ({
  spotifyId: `sp${c}`,
  isrc: `USAAA26000${String(c.charCodeAt(0)).padStart(2, '0')}`,
  artists: ['Band'],
  title: 'Song',
  durationMs: 200_000,
});

export interface FakeSources {
  /** ReccoBeats' tempo by Spotify id (absent: not known). */
  reccobeats?: Record<string, number>;
  /** ReccoBeats' time_signature by Spotify id (absent: none given). */
  reccobeatsTimeSignature?: Record<string, number>;
  /** Deezer's bpm for every track (0: unknown). */
  deezerBpm?: number;
  /**
   * Deezer knows no track by ISRC and finds this one by name (artist and title search, then by id):
   * its title and length (the fake tracks are 'Song', 200 s).
   */
  deezerByName?: { title: string; duration: number };
  /**
   * Previews: answered after 10 ms, never (a CDN that hangs), refused by the pacer, or HTTP 503; or
   * answered once a slot `aheadMs` away comes (the wait is not slept: it is added to `slept`, and a
   * `signal` that aborts while waiting ends it).
   */
  previews?: 'answer' | 'hang' | 'refuse' | 'fail' | Line;
  /** The preview pace's waits for a slot, in ms, as the caller would have slept them. */
  slept?: number[];
  /** Called during each such wait (a test's shutdown). */
  whileWaiting?: () => void;
  /** The estimator's time, and its answer (as the pool reports it: 40 ms on its thread, 25 of CPU). */
  estimateMs?: number;
  estimate?: AudioEstimate;
  /**
   * GetSongBPM (absent: no key): its one song for every search (the fake tracks share artist and title),
   * or a pace with no slot to give.
   */
  getsongbpm?:
    { tempo: number; time_sig?: string } | 'refuse' | { busy: { tempo: number; time_sig?: string } };
  saved?: Array<{ spotifyId: string | null; bpm: number | null; meter?: string | null }>;
  /** The cache's rows (absent: an empty cache); a test may add to it while jobs run. */
  cached?: CachedTempo[];
  /** Each outside call's service, in the order sent. */
  calls?: string[];
  /** Deezer's pace: every slot 30 ms ahead (absent), or `busy` (no slot free at once: others wait for it). */
  deezerPace?: 'busy';
  /** A background call's wait for a free slot, ms (absent: the product's). */
  backgroundWaitMs?: number;
}

export function fakeResolver(o: FakeSources = {}) {
  const hang = new Promise<never>(() => undefined);
  const caller = (
    service: string,
    waitMs: number | 'refuse' | 'busy' | Line,
    answer: (url: string) => Promise<Response>,
  ) =>
    createServiceCaller({
      service,
      pacer: pacer(waitMs),
      ...(typeof waitMs === 'object'
        ? {
            sleep: async (ms: number) => {
              o.slept?.push(ms);
              o.whileWaiting?.();
            },
          }
        : {}),
      ratePerSecond: 1000,
      timeoutMs: 60_000,
      fetch: async (url) => {
        o.calls?.push(service);
        await sleep(10);
        return answer(String(url));
      },
    });
  const track = (isrc: string) =>
    Response.json({
      id: 1,
      title: o.deezerByName?.title ?? 'Song',
      duration: o.deezerByName?.duration ?? 200,
      preview: 'https://cdns-preview.dzcdn.net/1.mp3',
      artist: { name: 'Band' },
      album: { title: 'Album' },
      isrc,
      bpm: o.deezerBpm ?? 0,
    });
  const recco = o.reccobeats ?? {};
  return createTempoService({
    repo: {
      getByKeys: async (keys) =>
        new Map((o.cached ?? []).filter((c) => keys.includes(c.key)).map((c) => [c.key, c])),
      save: async (rows) =>
        void o.saved?.push(
          ...rows.map((r) => ({
            spotifyId: r.spotifyId,
            bpm: r.bpm,
            ...(r.meter ? { meter: r.meter } : {}),
          })),
        ),
    },
    reccobeats: createReccoBeatsClient({
      baseUrl: 'https://reccobeats.test',
      http: caller('reccobeats', 0, async (url) => {
        const ids = decodeURIComponent(url.split('ids=')[1] ?? '').split(',');
        if (url.includes('/track?'))
          return Response.json({
            content: ids
              .filter((id) => recco[id] !== undefined)
              .map((id) => ({ id: `r-${id}`, href: `https://open.spotify.com/track/${id}` })),
          });
        return Response.json({
          content: ids.map((rid) => ({
            id: rid,
            tempo: recco[rid.replace(/^r-/, '')],
            time_signature: o.reccobeatsTimeSignature?.[rid.replace(/^r-/, '')],
          })),
        });
      }),
    }),
    deezer: createDeezerClient({
      baseUrl: 'https://deezer.test',
      http: caller('deezer', o.deezerPace ?? 30, async (url) => {
        if (!o.deezerByName) return track(url.split('isrc:')[1] ?? '');
        if (url.includes('isrc:')) return Response.json({ error: { code: 800, message: 'no data' } });
        if (url.includes('/search/track'))
          return Response.json({
            data: [{ id: 1, ...o.deezerByName, artist: { name: 'Band' }, album: { title: 'Album' } }],
          });
        return track('');
      }),
    }),
    previews: createPreviewClient({
      http: caller(
        'deezer-preview',
        o.previews === 'refuse' ? 'refuse' : typeof o.previews === 'object' ? o.previews : 20,
        async () =>
          o.previews === 'hang'
            ? hang
            : o.previews === 'fail'
              ? new Response('busy', { status: 503 })
              : new Response(new Uint8Array(10)),
      ),
      allowedHosts: ['dzcdn.net'],
    }),
    ...(o.getsongbpm
      ? {
          getsongbpm: createGetSongBpmClient({
            baseUrl: 'https://getsongbpm.test',
            apiKey: 'key',
            http: caller(
              'getsongbpm',
              o.getsongbpm === 'refuse' ? 'refuse' : 'busy' in o.getsongbpm ? 'busy' : 0,
              async () => {
                const g = o.getsongbpm as Exclude<FakeSources['getsongbpm'], 'refuse' | undefined>;
                const song = 'busy' in g ? g.busy : g;
                return Response.json({ search: [{ title: 'Song', artist: { name: 'Band' }, ...song }] });
              },
            ),
          }),
        }
      : {}),
    estimatePreview: async () => {
      await sleep(o.estimateMs ?? 0);
      return {
        ...(o.estimate ?? { bpm: 170, confidence: 0.9, candidates: [{ bpm: 170, score: 1 }] }),
        runMs: 40,
        cpuMs: 25,
      };
    },
    settings: { retryUnknownDays: 30 },
    ...(o.backgroundWaitMs !== undefined ? { backgroundWaitMs: o.backgroundWaitMs } : {}),
  });
}
