// The looper (`--looper NAME`): one connected runner whose client loops, for the whole of each
// simulated day, over every runner route that costs Spotify calls, as fast as the server answers, as a
// hostile or buggy client would: add a target, rename it, change its range, delete it; refresh everything
// and one source; switch a source off and on; correct a tempo and undo it; exclude a track and an artist
// of their own library and restore them; and now and then disconnect and connect again. Every request's
// status is counted (200, 409, 429, ..., `error` when the server did not answer: it was stopped or killed).
import type { AppClient, Json, Session } from './app-client.ts';

export interface LooperCounts {
  /** Requests by status, all routes together. */
  byStatus: Record<string, number>;
  /** Requests by route template and status. */
  byRoute: Record<string, Record<string, number>>;
  requests: number;
  reconnects: number;
}

export const emptyCounts = (): LooperCounts => ({ byStatus: {}, byRoute: {}, requests: 0, reconnects: 0 });

export interface LooperOptions {
  app: AppClient;
  session: () => Session;
  /** Disconnect and connect Spotify again (the benchmark's own connect flow, retries included). */
  reconnect: () => Promise<void>;
  /** Real seconds between two reconnects. */
  reconnectEveryS: number;
  /** Requests in flight at once (1: strictly one after the other). */
  parallel: number;
  counts: LooperCounts;
  log: (s: string) => void;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Runs until `stop()` is called; resolves once the requests in flight are answered. */
export function startLooper(o: LooperOptions) {
  let stopped = false;
  let n = 0;
  let keys: string[] = [];
  let artists: string[] = [];
  let sources: Array<{ kind: string; source_id: string }> = [];
  let lastReconnect = Date.now();
  let learnedAt = 0;
  let reconnecting: Promise<void> | undefined;

  const count = (route: string, status: string) => {
    o.counts.requests++;
    o.counts.byStatus[status] = (o.counts.byStatus[status] ?? 0) + 1;
    const r = (o.counts.byRoute[route] ??= {});
    r[status] = (r[status] ?? 0) + 1;
  };
  /** One request, counted under its route template; null when the server did not answer. */
  const call = async (method: string, template: string, route: string, body?: unknown) => {
    try {
      const r = await o.app.call(o.session().cookie, method, route, body);
      count(`${method} ${template}`, String(r.status));
      return r as { status: number; body: Json };
    } catch {
      count(`${method} ${template}`, 'error');
      await sleep(1000); // the server is down (stopped for the night or killed): try again shortly
      return null;
    }
  };

  /** What the loop works on: the runner's sources, and songs and artists of their own targets' lists. */
  const learn = async () => {
    const s = await call('GET', '/api/spotify/sources', '/api/spotify/sources');
    if (s?.status === 200)
      sources = (s.body.data.sources as Json[])
        .filter((x) => x.can_enable)
        .map((x) => ({ kind: x.kind, source_id: x.source_id }));
    const t = await call('GET', '/api/spotify/targets', '/api/spotify/targets');
    if (t?.status !== 200) return;
    const found = new Map<string, string[]>();
    for (const target of t.body.data.targets as Json[]) {
      if (String(target.target).startsWith('Loop ')) continue;
      for (const list of ['placed', 'skipped']) {
        const r = await call(
          'GET',
          '/api/spotify/targets/:id/tracks',
          `/api/spotify/targets/${target.target_id}/tracks?list=${list}&limit=50`,
        );
        for (const row of r?.status === 200 ? (r.body.data.tracks as Json[]) : [])
          found.set(
            row.recording_key,
            (row.artists as Json[]).map((a) => a.id),
          );
      }
    }
    if (found.size) {
      keys = [...found.keys()];
      artists = [...new Set([...found.values()].flat())];
    }
  };

  /** Targets the loop made and could not delete (a 429 on the delete): deleted with the next reads. */
  const leftovers = async () => {
    const t = await call('GET', '/api/spotify/targets', '/api/spotify/targets');
    if (t?.status !== 200) return;
    for (const target of t.body.data.targets as Json[])
      if (String(target.target).startsWith('Loop '))
        await call('DELETE', '/api/spotify/targets/:id', `/api/spotify/targets/${target.target_id}`);
  };

  const round = async (worker: number) => {
    const i = n++;
    // Reads (no Spotify calls) at most every 20 s: the loop is about the routes that cost calls.
    if (Date.now() - learnedAt > 20_000) {
      learnedAt = Date.now();
      await learn();
      await leftovers();
    }
    // A target: added, renamed, its range changed, deleted.
    const lo = 140 + (i % 30);
    const add = await call('POST', '/api/spotify/targets', '/api/spotify/targets', {
      name: `Loop ${worker}-${i}`,
      min_bpm: lo,
      max_bpm: lo + 6,
    });
    const id = add?.status === 200 ? (add.body.data.target.target_id as string) : undefined;
    if (id) {
      await call('PATCH', '/api/spotify/targets/:id', `/api/spotify/targets/${id}`, {
        name: `Loop ${worker}-${i} renamed`,
      });
      await call('PATCH', '/api/spotify/targets/:id', `/api/spotify/targets/${id}`, {
        min_bpm: lo + 2,
        max_bpm: lo + 9,
      });
      await call('DELETE', '/api/spotify/targets/:id', `/api/spotify/targets/${id}`);
    }
    // Refresh everything, then one source.
    await call('POST', '/api/spotify/refresh', '/api/spotify/refresh', {});
    const src = sources[i % Math.max(1, sources.length)];
    if (src) {
      await call('POST', '/api/spotify/refresh (one source)', '/api/spotify/refresh', src);
      // A source switched off and on again.
      await call('POST', '/api/spotify/source_change', '/api/spotify/source_change', {
        ...src,
        enabled: false,
      });
      await call('POST', '/api/spotify/source_change', '/api/spotify/source_change', {
        ...src,
        enabled: true,
      });
    }
    // A tempo correction and its undo; a track and an artist excluded and restored.
    const key = keys[i % Math.max(1, keys.length)];
    if (key) {
      const k = encodeURIComponent(key);
      await call('PUT', '/api/spotify/tempo_corrections/:key', `/api/spotify/tempo_corrections/${k}`, {
        bpm: 150 + (i % 40),
        remove_from_old_targets: true,
      });
      await call('DELETE', '/api/spotify/tempo_corrections/:key', `/api/spotify/tempo_corrections/${k}`);
      await call('PUT', '/api/spotify/exclusions/track/:key', `/api/spotify/exclusions/track/${k}`, {
        remove_from_targets: true,
      });
      await call('DELETE', '/api/spotify/exclusions/track/:key', `/api/spotify/exclusions/track/${k}`);
    }
    const artist = artists[i % Math.max(1, artists.length)];
    if (artist) {
      await call('PUT', '/api/spotify/exclusions/artist/:key', `/api/spotify/exclusions/artist/${artist}`, {
        remove_from_targets: false,
      });
      await call('DELETE', '/api/spotify/exclusions/artist/:key', `/api/spotify/exclusions/artist/${artist}`);
    }
  };

  const worker = async (w: number) => {
    while (!stopped) {
      if (reconnecting) await reconnecting;
      else if (Date.now() - lastReconnect > o.reconnectEveryS * 1000) {
        lastReconnect = Date.now();
        reconnecting = (async () => {
          try {
            await o.reconnect();
            o.counts.reconnects++;
          } catch (err) {
            o.log(`looper: reconnect failed: ${String(err).slice(0, 200)}`);
          } finally {
            reconnecting = undefined;
          }
        })();
        await reconnecting;
      }
      await round(w).catch((err) => o.log(`looper: ${String(err).slice(0, 200)}`));
    }
  };
  const workers = Array.from({ length: o.parallel }, (_, w) => worker(w));
  return {
    async stop() {
      stopped = true;
      await Promise.all(workers);
    },
  };
}
