// One runner of the crowd, as their browser behaves: sign up, connect Spotify through the real flow
// (lifecycle's AppClient: consent page, PKCE, PUT /api/spotify/connect), then keep the status page open:
// whoami when the page opens, targets and sources every 15 s (targets every 5 s while the first fill is
// under way, for at most the page's first 2 minutes), the web app's timers (apps/web status-queries.ts). Every read's latency and outcome is kept,
// and the moments the runner's placed tracks (the page's own "tracks added") first reach 1 and 50.
import { RETRY_AFTER_ERROR_MS } from '@pacebeat/web/src/timing.ts';
import type { AppClient, Json, Session } from '../lifecycle/app-client.ts';

/** The status page's timers (apps/web/src/status/status-queries.ts; that module imports React). */
const RELOAD_AFTER_SUCCESS_MS = 15_000;
const FIRST_FILL_RELOAD_MS = 5_000;
const FIRST_FILL_FAST_FOR_MS = 2 * 60_000;
export const FIRST_N = 50;

/** When each of `n` runners arrives, ms from the start: a tenth in the first minute, the rest over the storm. */
export function plannedArrivals(n: number, stormMs: number): number[] {
  const firstTenth = Math.max(1, Math.round(n / 10));
  return Array.from({ length: n }, (_, i) =>
    i < firstTenth
      ? (60_000 * i) / firstTenth
      : 60_000 + (stormMs * (i - firstTenth)) / Math.max(1, n - firstTenth),
  );
}

export type Route = 'whoami' | 'targets' | 'sources';

export interface Read {
  route: Route;
  /** Milliseconds since the benchmark started. */
  at: number;
  ms: number;
  ok: boolean;
}

export interface RunnerRecord {
  spotifyUser: string;
  /** Planned arrival, ms since the start. */
  arrival: number;
  connectedAt?: number;
  connectError?: string;
  /** ms from connect until the page first showed a playlist link / 1 / FIRST_N placed tracks. */
  firstLinkMs?: number;
  firstTrackMs?: number;
  firstNMs?: number;
  /** What the page showed placed when it first showed FIRST_N or more. */
  placedAtN?: number;
  placed: number;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export interface RunnerDeps {
  app: AppClient;
  t0: number;
  reads: Read[];
  /** True once the benchmark is over: the page closes. */
  done: () => boolean;
}

async function timed(d: RunnerDeps, route: Route, s: Session, path: string): Promise<Json | undefined> {
  const start = performance.now();
  let ok: boolean;
  let body: Json;
  try {
    const r = await d.app.call(s.cookie, 'GET', path);
    ok = r.status === 200;
    body = r.body;
  } catch {
    ok = false;
  }
  d.reads.push({ route, at: Date.now() - d.t0, ms: performance.now() - start, ok });
  return ok ? body : undefined;
}

/** Arrives at `rec.arrival`, connects, and polls its status page until `done()`. */
export async function runnerLife(d: RunnerDeps, rec: RunnerRecord): Promise<void> {
  await sleep(Math.max(0, d.t0 + rec.arrival - Date.now()));
  let s: Session;
  try {
    s = await d.app.signUp(
      `${rec.spotifyUser}@crowd.example`,
      rec.spotifyUser,
      `pw-${rec.spotifyUser}-crowd-27`,
    );
    await d.app.connectSpotify(s, rec.spotifyUser);
  } catch (err) {
    rec.connectError = String(err).slice(0, 300);
    return;
  }
  const connected = Date.now();
  rec.connectedAt = connected - d.t0;
  await timed(d, 'whoami', s, '/api/whoami');
  let nextSources = 0;
  while (!d.done()) {
    const t = await timed(d, 'targets', s, '/api/spotify/targets');
    const now = Date.now();
    if (now >= nextSources) {
      nextSources = now + RELOAD_AFTER_SUCCESS_MS;
      await timed(d, 'sources', s, '/api/spotify/sources');
    }
    let wait = RETRY_AFTER_ERROR_MS;
    if (t) {
      const targets = (t.data?.targets ?? []) as Json[];
      const placed = targets.reduce((n: number, x: Json) => n + (x.stats?.tracks_added ?? 0), 0);
      rec.placed = placed;
      const since = now - connected;
      if (rec.firstLinkMs === undefined && targets.some((x: Json) => x.public_url)) rec.firstLinkMs = since;
      if (rec.firstTrackMs === undefined && placed > 0) rec.firstTrackMs = since;
      if (rec.firstNMs === undefined && placed >= FIRST_N) [rec.firstNMs, rec.placedAtN] = [since, placed];
      const filling = t.data?.first_fill != null || !targets.some((x: Json) => x.public_url);
      wait = filling && since < FIRST_FILL_FAST_FOR_MS ? FIRST_FILL_RELOAD_MS : RELOAD_AFTER_SUCCESS_MS;
    }
    await sleep(wait);
  }
}
