// Spotify Web API calls as the simulated Spotify logged them (its request log, read over its admin API
// before the log's ring drops them): when, with whose token, and how many were refused (429).
export interface CallLog {
  /** Web API calls by Spotify user: when each was made, ms since the start. */
  byUser: Map<string, number[]>;
  total: number;
  refused429: number;
  /** Calls per outside service (spotify-api, deezer, reccobeats, previews, …). */
  byService: Map<string, number>;
  /** Web API calls by method and route pattern. */
  byRoute: Map<string, number>;
  /** The other services' calls by service, method and route pattern (e.g. Deezer's searches and track reads). */
  outsideByRoute: Map<string, number>;
  /** Those calls again for a path and query already asked before (what a cache of answers would save). */
  outsideRepeats: Map<string, number>;
  /** Those calls that failed: no answer (the client gave up, a reset) or an HTTP error status. */
  outsideFailed: Map<string, number>;
  /** The playlist adds (`POST /playlists/{id}/items`) by Spotify user: when each was made, ms since the start. */
  addsByUser: Map<string, number[]>;
}

interface Logged {
  seq: number;
  /** The sandbox's clock (real time here), ms since the epoch. */
  at: number;
  service: string;
  status: number;
  method: string;
  route: string;
  /** Path and query as sent. */
  url: string;
  userId?: string;
}

export function callHarvester(admin: <T>(m: string, r: string) => Promise<T>, t0: number) {
  const log: CallLog = {
    byUser: new Map(),
    total: 0,
    refused429: 0,
    byService: new Map(),
    byRoute: new Map(),
    outsideByRoute: new Map(),
    outsideRepeats: new Map(),
    outsideFailed: new Map(),
    addsByUser: new Map(),
  };
  const asked = new Set<string>();
  let since = 0;
  let busy = false;
  const harvest = async () => {
    if (busy) return;
    busy = true;
    try {
      const entries = await admin<Logged[]>('GET', `/requests?since=${since}`);
      for (const e of entries) {
        if (e.seq <= since) continue;
        since = Math.max(since, e.seq);
        log.byService.set(e.service, (log.byService.get(e.service) ?? 0) + 1);
        if (e.service !== 'spotify-api') {
          const key = `${e.service} ${e.method} ${e.route}`;
          log.outsideByRoute.set(key, (log.outsideByRoute.get(key) ?? 0) + 1);
          if (e.status === 0 || e.status >= 400)
            log.outsideFailed.set(key, (log.outsideFailed.get(key) ?? 0) + 1);
          if (asked.has(e.url)) log.outsideRepeats.set(key, (log.outsideRepeats.get(key) ?? 0) + 1);
          else asked.add(e.url);
          continue;
        }
        log.total++;
        const route = `${e.method} ${e.route.replace('/spotify/api/v1', '')}`;
        log.byRoute.set(route, (log.byRoute.get(route) ?? 0) + 1);
        if (e.status === 429) log.refused429++;
        if (!e.userId) continue;
        let list = log.byUser.get(e.userId);
        if (!list) log.byUser.set(e.userId, (list = []));
        list.push(e.at - t0);
        if (route === 'POST /playlists/:playlist_id/items' && e.status < 300) {
          let adds = log.addsByUser.get(e.userId);
          if (!adds) log.addsByUser.set(e.userId, (adds = []));
          adds.push(e.at - t0);
        }
      }
    } finally {
      busy = false;
    }
  };
  const timer = setInterval(() => void harvest().catch(() => undefined), 2000);
  return {
    log,
    async stop() {
      clearInterval(timer);
      await harvest();
    },
  };
}
