// What a runner does against a scale-out cluster, through the public API only: sign up, connect a simulated
// Spotify user, keep the library to Liked Songs, and wait until every scan is complete and every playlist
// written. What ended up in Spotify is read from the sandbox's own state, the calls from its request log.
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import type { Cluster } from './cluster.ts';

/** What the scenario needs of an installation: the app, the simulated world and the database. */
export type Reachable = Pick<Cluster, 'appUrl' | 'sandboxUrl' | 'databaseUrl' | 'admin'>;

export interface Runner {
  spotifyUser: string;
  userId: string;
  cookie: string;
  /** The sandbox request log's sequence number when this runner connected. */
  sinceSeq: number;
  connectedAt: number;
}

interface LoggedRequest {
  seq: number;
  method: string;
  route: string;
  url: string;
  status: number;
  userId?: string;
  fault?: string;
  clientGone?: boolean;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A reply body as the test reads it: any shape, looked into with optional chaining. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- test code reading replies of any route
type Json = any;

/** A request to the serve process as the browser sends it (same origin, so the CSRF checks pass). */
export async function api(c: Reachable, cookie: string, method: string, route: string, body?: unknown) {
  const res = await fetch(`${c.appUrl}${route}`, {
    method,
    headers: {
      origin: c.appUrl,
      'sec-fetch-site': 'same-origin',
      ...(cookie ? { cookie } : {}),
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  return { status: res.status, body: (text ? JSON.parse(text) : undefined) as Json, res };
}

/** A new simulated Spotify user with `liked` generated Liked Songs, no playlists and no followed artists. */
export async function newSpotifyUser(c: Reachable, liked: number): Promise<string> {
  const u = await c.admin<{ id: string }>('POST', '/users', {
    username: `runner${randomUUID().slice(0, 8)}`,
    liked,
    owned: 0,
    followedArtists: 0,
  });
  return u.id;
}

/** Another simulated user who likes the same songs, at the same times (so the same library, in order). */
export async function copyOfLibrary(c: Reachable, liked: Array<{ id: string; addedAt: string }>) {
  const id = await newSpotifyUser(c, 0);
  for (const l of liked)
    await c.admin('POST', `/users/${id}/liked`, { trackIds: [l.id], addedAt: l.addedAt });
  return id;
}

/** The user's Liked Songs as Spotify lists them, read with a grant of the test's own (not Pacebeat's). */
export async function likedSongsOf(c: Reachable, spotifyUser: string) {
  const { access_token } = await c.admin<{ access_token: string }>('POST', '/connect', {
    userId: spotifyUser,
  });
  const out: Array<{ id: string; addedAt: string }> = [];
  for (let offset = 0; ; offset += 50) {
    const res = await fetch(`${c.sandboxUrl}/spotify/api/v1/me/tracks?limit=50&offset=${offset}`, {
      headers: { authorization: `Bearer ${access_token}` },
    });
    const page = (await res.json()) as {
      items: Array<{ added_at: string; track: { id: string } }>;
      next: string | null;
    };
    out.push(...page.items.map((i) => ({ id: i.track.id, addedAt: i.added_at })));
    if (!page.next) return out;
  }
}

async function lastSeq(c: Reachable): Promise<number> {
  const log = await c.admin<LoggedRequest[] | { requests: LoggedRequest[] }>('GET', '/requests');
  const list = Array.isArray(log) ? log : log.requests;
  return list.length ? list[list.length - 1]!.seq : 0;
}

/**
 * Signs up on the serve process and connects `spotifyUser` (the token reply the connect page would send),
 * then switches the Artist catalogs source off, so the library is the user's Liked Songs.
 */
export async function signUpAndConnect(c: Reachable, spotifyUser: string): Promise<Runner> {
  const email = `${spotifyUser}@example.org`;
  const signup = await api(c, '', 'POST', '/api/signup', { email, name: 'Runner', password: 'run4fun!run' });
  if (signup.status !== 200) throw new Error(`signup: ${signup.status} ${JSON.stringify(signup.body)}`);
  const set = signup.res.headers.getSetCookie().find((h) => h.startsWith('pacebeat_session='))!;
  const cookie = set.split(';')[0]!;
  const who = await api(c, cookie, 'GET', '/api/whoami');
  const sinceSeq = await lastSeq(c);
  const tokens = await c.admin<Record<string, unknown>>('POST', '/connect', { userId: spotifyUser });
  const connectedAt = Date.now();
  const connect = await api(c, cookie, 'PUT', '/api/spotify/connect', { token_info: tokens });
  if (connect.status !== 200) throw new Error(`connect: ${connect.status} ${JSON.stringify(connect.body)}`);
  const userId = await appUserId(c, email);
  // The catalogs of every artist would be thousands of songs: this scenario is about one library's pages.
  for (let i = 0; i < 100; i++) {
    const sources = await api(c, cookie, 'GET', '/api/spotify/sources');
    const catalogs = (sources.body?.data?.sources ?? []).find((s: Json) => s.kind === 'artist_catalogs');
    if (catalogs) {
      const off = await api(c, cookie, 'POST', '/api/spotify/source_change', {
        kind: 'artist_catalogs',
        source_id: catalogs.source_id,
        enabled: false,
      });
      if (off.status !== 200) throw new Error(`source_change: ${off.status} ${JSON.stringify(off.body)}`);
      break;
    }
    await sleep(100);
  }
  void who;
  return { spotifyUser, userId, cookie, sinceSeq, connectedAt };
}

async function withDb<T>(c: Reachable, f: (db: pg.Client) => Promise<T>): Promise<T> {
  const db = new pg.Client({ connectionString: c.databaseUrl });
  await db.connect();
  try {
    return await f(db);
  } finally {
    await db.end();
  }
}

async function appUserId(c: Reachable, email: string): Promise<string> {
  return withDb(
    c,
    async (db) => (await db.query('select id from users where email = $1', [email])).rows[0].id,
  );
}

/** What is still to do for the user (empty when done): scans, jobs, pending adds, unclear creations. */
export async function outstanding(c: Reachable, userId: string): Promise<string[]> {
  return withDb(c, async (db) => {
    const q = async (sql: string) => Number((await db.query(sql, [userId])).rows[0].n);
    const left: string[] = [];
    const scans = await q(`select count(*) n from library_sources where user_id = $1 and enabled and readable
      and (state <> 'idle' or full_read_at is null or cursor is not null)`);
    if (scans) left.push(`${scans} source(s) not completely scanned`);
    const jobs = await q(`select count(*) n from pgboss.job where state in ('created','retry','active')
      and name in ('library-scan','playlist-sync') and data->>'userId' = $1::text`);
    if (jobs) left.push(`${jobs} scan or writer job(s)`);
    const lookups = await q(`select count(*) n from pgboss.job where state in ('created','retry','active')
      and name in ('tempo-lookup', 'tempo-audio') and data->>'userId' = $1::text`);
    if (lookups) left.push(`${lookups} tempo lookup(s)`);
    const pending = await q(`select count(*) n from playlist_target_tracks tt join playlist_targets t
      on t.id = tt.target_id where t.user_id = $1 and tt.state = 'pending'`);
    if (pending) left.push(`${pending} pending add(s)`);
    const creating = await q(
      `select count(*) n from playlist_targets where user_id = $1 and state = 'creating'`,
    );
    if (creating) left.push(`${creating} unclear creation(s)`);
    return left;
  });
}

/** Waits until nothing is outstanding twice in a row; throws with what is left after `timeoutMs`. */
export async function waitUntilDone(c: Reachable, r: Runner, timeoutMs: number): Promise<number> {
  const deadline = Date.now() + timeoutMs;
  let quiet = 0;
  let left: string[] = [];
  while (Date.now() < deadline) {
    try {
      left = await outstanding(c, r.userId);
    } catch (err) {
      left = [`database: ${String(err)}`]; // e.g. while PostgreSQL restarts
    }
    quiet = left.length === 0 ? quiet + 1 : 0;
    if (quiet >= 2) return (Date.now() - r.connectedAt) / 1000;
    await sleep(1000);
  }
  throw new Error(`not done after ${timeoutMs} ms: ${left.join('; ')} (logs in the cluster's folder)`);
}

/** Each target's BPM range and the track ids of its playlist, from the sandbox's own state. */
export async function playlistsInSpotify(c: Reachable, r: Runner) {
  const targets = await withDb(c, async (db) => {
    const rows = await db.query(
      'select min_bpm, max_bpm, playlist_id from playlist_targets where user_id = $1 order by min_bpm',
      [r.userId],
    );
    return rows.rows as Array<{ min_bpm: number; max_bpm: number; playlist_id: string | null }>;
  });
  const out: Array<{ range: string; trackIds: string[] }> = [];
  for (const t of targets) {
    const items = t.playlist_id
      ? (await c.admin<{ trackIds: string[] }>('GET', `/playlists/${t.playlist_id}/items`)).trackIds
      : [];
    out.push({ range: `${t.min_bpm}-${t.max_bpm}`, trackIds: items });
  }
  return out;
}

/**
 * The songs of each target that are ready but not placed (the target page's Waiting tab, as the runner sees
 * it), by range: which of a runner's songs wait for other artists' company depends on the order their
 * tempos came in, so two runs compare what is placed and waiting together.
 */
export async function waitingInPacebeat(c: Reachable, r: Runner) {
  const targets = await withDb(c, async (db) => {
    const rows = await db.query('select id, min_bpm, max_bpm from playlist_targets where user_id = $1', [
      r.userId,
    ]);
    return rows.rows as Array<{ id: string; min_bpm: number; max_bpm: number }>;
  });
  const out = new Map<string, string[]>();
  for (const t of targets) {
    const ids: string[] = [];
    for (let offset: number | null = 0; offset !== null;) {
      const page = await api(
        c,
        r.cookie,
        'GET',
        `/api/spotify/targets/${t.id}/tracks?list=waiting&limit=100&offset=${offset}`,
      );
      if (page.status !== 200) throw new Error(`waiting list: ${page.status} ${JSON.stringify(page.body)}`);
      ids.push(...page.body.data.tracks.map((x: { track_id: string }) => x.track_id));
      offset = page.body.data.next_offset;
    }
    out.set(`${t.min_bpm}-${t.max_bpm}`, ids);
  }
  return out;
}

/** The runner's Spotify calls since they connected, from the sandbox's request log. */
export async function spotifyCalls(c: Reachable, r: Runner): Promise<LoggedRequest[]> {
  const log = await c.admin<LoggedRequest[] | { requests: LoggedRequest[] }>(
    'GET',
    `/requests?userId=${encodeURIComponent(r.spotifyUser)}&since=${r.sinceSeq}`,
  );
  const list = Array.isArray(log) ? log : log.requests;
  return list.filter((x) => x.route.startsWith('/spotify/api/') && x.seq > r.sinceSeq);
}

/** Liked Songs pages answered in full to a client that heard the answer, by offset: each must be 1. */
export function likedPageReads(calls: LoggedRequest[]): Map<number, number> {
  const out = new Map<number, number>();
  for (const x of calls) {
    if (x.method !== 'GET' || !x.route.endsWith('/me/tracks') || x.status !== 200 || x.clientGone) continue;
    const offset = Number(new URL(x.url, 'http://x').searchParams.get('offset') ?? 0);
    out.set(offset, (out.get(offset) ?? 0) + 1);
  }
  return out;
}
