// Lifecycle: an installation's first weeks. The real server process as production runs it
// (`scripts/server.ts all`), on a PostgreSQL of its own and the simulated world (development mode: one
// shared 1,000-call daily quota, five runners), simulated days passing fast, the runners' lives scripted,
// and everything scored from outside at the end of each day. Not a test. See README.md beside this file.
//
//   node bench/lifecycle/run.ts [--days 7] [--day-minutes 6] [--size default] [--commit REV]
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import pino from 'pino';
import { REALISTIC_TRANSIENT_SHARE, startSandbox, type FaultRule } from '@pacebeat/sandbox';
import { PREVIEW_DISK_CACHE } from '../shared/preview-cache.ts';
import { formatWriterRuns, writerRuns } from '../shared/writer-runs.ts';
import { createDb } from '@pacebeat/server/src/db/client.ts';
import { startEmbeddedPostgres } from '@pacebeat/server/src/db/embedded.ts';
import { createLibraryRepository } from '@pacebeat/server/src/library/library.repository.ts';
import { createTempoRepository } from '@pacebeat/server/src/tempo/tempo.repository.ts';
import { AppClient, type Session } from './app-client.ts';
import { shiftDatabaseTimes } from './db-clock.ts';
import { pacebeatPlaylists, scoreRunner, type RunnerLife, type RunnerScore } from './score.ts';
import { dayTable, pct, recallTable, runnerTable, statusDiff, sumClasses, type DayRow } from './report.ts';
import { fairCompare, fairSummary, type FairRecord } from './fair.ts';
import { emptyCounts, startLooper, type LooperCounts } from './looper.ts';
import { serverProcess } from './server.ts';
import { commitOf, describeTree, makeSnapshot, runInSnapshot } from './snapshot.ts';
import { addOwnSongs, fits, growLibraries, removeSongs, rng, shareTaste, Truth } from './world.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const { values: opt } = parseArgs({
  options: {
    days: { type: 'string', default: '7' },
    'day-minutes': { type: 'string', default: '6' },
    /** Seconds ahead a due job still counts as work to wait for (the writer's 2-minute add wait fits). */
    'quiet-lookahead': { type: 'string', default: '150' },
    size: { type: 'string', default: 'default' },
    seed: { type: 'string', default: '20261122' },
    'transient-failures': { type: 'string', default: String(REALISTIC_TRANSIENT_SHARE) },
    commit: { type: 'string' },
    /** With --commit: the simulated world (tools/sandbox) of this commit instead. */
    world: { type: 'string' },
    json: { type: 'string' },
    /** The stand-in synthesises every preview again (no disk cache): a cold run, as before session 24. */
    'cold-previews': { type: 'boolean', default: false },
    /** Print the tables of an earlier run's `--json` file and exit. */
    reprint: { type: 'string' },
    /** This runner's client loops over every route that costs Spotify calls (looper.ts). */
    looper: { type: 'string' },
    /** The looper disconnects and connects again every so many real seconds. */
    'looper-reconnect-s': { type: 'string', default: '60' },
    /** The looper's requests in flight at once. */
    'looper-parallel': { type: 'string', default: '1' },
    /**
     * Hours of action limits a simulated day holds for the looper: a day is minutes here, so the limits'
     * windows (per hour, ACTION_LIMITS) would give it one hour's allowance a day; every day-minutes/H the
     * looper's counted actions move back one hour, so a day gives it H hours' allowance, as a real day would.
     */
    'looper-hours-per-day': { type: 'string', default: '24' },
    /** Print the fair-share comparison of two runs' `--json` files (without, then with the looper) and exit. */
    compare: { type: 'string', multiple: true },
  },
});

if (opt.commit && !process.env['LIFECYCLE_SNAPSHOT']) {
  const sha = commitOf(repoRoot, opt.commit);
  const worldSha = opt.world ? commitOf(repoRoot, opt.world) : undefined;
  const dir = makeSnapshot(repoRoot, sha, worldSha);
  const own = new Set(['--commit', '--world']);
  const args = process.argv.slice(2).filter((a, i, all) => !own.has(a) && !own.has(all[i - 1] ?? ''));
  const label = `${sha.slice(0, 12)}${worldSha ? ` (world of ${worldSha.slice(0, 12)})` : ''}`;
  process.stderr.write(`running commit ${label} from ${dir}\n`);
  process.exit(await runInSnapshot(dir, label, args));
}

if (opt.compare) {
  const [a, b] = await Promise.all(
    opt.compare.map(
      async (f) => JSON.parse(await fs.readFile(f, 'utf8')) as { commit: string; fair: FairRecord },
    ),
  );
  if (!a?.fair || !b?.fair)
    throw new Error('--compare WITHOUT.json --compare WITH.json (runs with fair data)');
  process.stdout.write(`${fairCompare(a.fair, b.fair)}\n`);
  process.exit(0);
}

if (opt.reprint) {
  // The tables of an earlier run's rows (`--json`), with this version's definitions.
  const saved = JSON.parse(await fs.readFile(opt.reprint, 'utf8')) as { commit: string; rows: DayRow[] };
  process.stdout.write(
    `commit ${saved.commit}\n\n${dayTable(saved.rows)}\n\n${recallTable(saved.rows)}\n\n${runnerTable(saved.rows)}\n`,
  );
  process.exit(0);
}

const DAYS = Number(opt.days);
const DAY_MS = Number(opt['day-minutes']) * 60_000;
const LOOKAHEAD_S = Number(opt['quiet-lookahead']);
const SEED = Number(opt.seed);
const COMMIT = process.env['LIFECYCLE_COMMIT'] ?? describeTree(repoRoot);
const RUNNERS = ['ana.runs', 'ben.pace', 'chloe', 'dana', 'eli'] as const;
type RunnerId = (typeof RUNNERS)[number];
const LOOPER = opt.looper as RunnerId | undefined;
if (LOOPER && !RUNNERS.includes(LOOPER)) throw new Error(`--looper: one of ${RUNNERS.join(', ')}`);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const t0 = Date.now();
const stamp = () => `${((Date.now() - t0) / 1000).toFixed(0).padStart(5)} s`;
const say = (s: string) => process.stderr.write(`[${stamp()}] ${s}\n`);

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const a = s.address();
      s.close(() => resolve(typeof a === 'object' && a ? a.port : 0));
    });
  });
}

// ---- the installation ------------------------------------------------------------------------------

const logDir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacebeat-lifecycle-'));
await fs.chmod(logDir, 0o755); // PostgreSQL's OS user (when run as root) must reach its folder
const pgServer = await startEmbeddedPostgres(path.join(logDir, 'pg'), pino({ level: 'silent' }));
const sb = await startSandbox({
  seed: SEED,
  size: opt.size as 'tiny' | 'small' | 'default' | 'large',
  port: 0,
  transientFailures: Number(opt['transient-failures']),
  // Previews kept on disk between runs (bench/shared/preview-cache.ts): synthesising one costs the stand-in
  // two to three times what the product's estimator spends on it, so without the cache a slow machine
  // measured the stand-in (session 23's drop on a 2.0 GHz Xeon; bench/lifecycle/README.md).
  ...(opt['cold-previews']
    ? {}
    : { previews: { diskCacheDir: process.env['LIFECYCLE_PREVIEW_CACHE'] ?? PREVIEW_DISK_CACHE } }),
});
const appPort = await freePort();
const appUrl = `http://127.0.0.1:${appPort}`;
const server = serverProcess({
  repoRoot,
  logDir,
  appUrl,
  env: {
    PATH: process.env['PATH'] ?? '',
    HOME: process.env['HOME'] ?? os.tmpdir(),
    DATABASE_URL: pgServer.url,
    DEMO_SANDBOX_URL: sb.url,
    TOKEN_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    DATA_DIR: path.join(logDir, 'data'),
    HOST: '127.0.0.1',
    PORT: String(appPort),
    LOG_LEVEL: 'info',
    WEB_DIST_DIR: path.join(logDir, 'no-web-build'),
  },
});
// Interrupted (Ctrl-C, a kill): stop what the benchmark started before leaving.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.once(signal, () => {
    say(`${signal}: stopping the server and PostgreSQL`);
    void server
      .kill()
      .then(() => pgServer.stop())
      .finally(() => process.exit(130));
  });
const dbHandle = createDb(pgServer.url, { max: 2 });
const library = createLibraryRepository(dbHandle.db);
const tempoCache = createTempoRepository(dbHandle.db);
const app = new AppClient(appUrl);
const truth = new Truth(sb);
const life = rng(SEED);
say(`commit ${COMMIT}; world ${opt.size} (seed ${SEED}); logs in ${logDir}`);

// ---- the request log: Spotify calls, harvested before the log's ring drops them --------------------

interface Call {
  day: number;
  method: string;
  route: string;
  status: number;
  userId?: string;
  fault?: string;
  url?: string;
}
const calls: Call[] = [];
let logSeq = 0;
let today = 1;
function harvest() {
  for (const e of sb.admin.requests({ since: logSeq })) {
    logSeq = Math.max(logSeq, e.seq);
    if (e.service !== 'spotify-api' && e.service !== 'spotify-accounts') continue;
    calls.push({
      day: today,
      method: e.method,
      route: `${e.service === 'spotify-accounts' ? 'accounts ' : ''}${e.route.replace(/^\/spotify\/(api\/v1|accounts)/, '')}`,
      status: e.status,
      ...(e.userId ? { userId: e.userId } : {}),
      ...(e.fault ? { fault: e.fault, url: e.url } : {}),
    });
  }
}
const harvester = setInterval(harvest, 2000);

// ---- runners ---------------------------------------------------------------------------------------

interface Runner extends RunnerLife {
  spotifyUser: RunnerId;
  session?: Session;
  appUserId?: string;
}
const runners = new Map<RunnerId, Runner>(
  RUNNERS.map((id) => [
    id,
    {
      spotifyUser: id,
      connected: false,
      disabled: false,
      targets: [],
      removed: new Map(),
      ownAdded: new Map(),
    },
  ]),
);
const runner = (id: RunnerId) => runners.get(id)!;
const events: string[] = [];
/** The sandbox clock's lead over real time (it moves 24 h each night). */
let clockLeadMs = 0;
const note = (day: number, s: string) => {
  events.push(`day ${day}: ${s}`);
  say(s);
};

async function connect(day: number, id: RunnerId, why: string) {
  const r = runner(id);
  // The simulated Spotify fails now and then (transient failures), as the real one does: a runner whose
  // consent page or token exchange failed starts again, as they would by pressing the button again. So
  // does one whose sign-up met the server down (day 2's SIGKILL can land during it).
  let res: { display_name: string } | undefined;
  for (let attempt = 1; !res; attempt++) {
    try {
      if (!r.session)
        r.session = await app.signUp(`${id.replace('.', '-')}@runners.example`, id, `Run4${id}-every-day`);
      r.appUserId ??= (await app.whoami(r.session)).user.id;
      res = await app.connectSpotify(r.session, id);
    } catch (err) {
      if (attempt >= 4) throw err;
      note(day, `${id}'s connect failed (${String(err).slice(0, 120)}); trying again`);
      await sleep(5000);
    }
  }
  r.connected = true;
  r.disabled = false;
  if (why === 'looper reconnect') say(`${id} connects Spotify again (${why})`);
  else note(day, `${id} connects Spotify (${why}): "${res.display_name}"`);
  if (!firstLink.has(id)) watchFirstLink(id, day);
}

// ---- fairness: the first playlist link of each runner, and the looper ------------------------------

/** Real-time intervals the server was down for the night (left out of the time to a first playlist). */
const nights: Array<[number, number]> = [];
const offlineBetween = (a: number, b: number) =>
  nights.reduce((n, [s, e]) => n + Math.max(0, Math.min(e, b) - Math.max(s, a)), 0);
const firstLink = new Map<
  RunnerId,
  { connectedAt: number; day: number; seconds?: number; foundDay?: number }
>();
let benchDone = false;
/**
 * From a runner's first connect, GET /api/spotify/targets every 15 s (as the status page polls) until a
 * target has a playlist link (`public_url`); the seconds taken, nights left out.
 */
function watchFirstLink(id: RunnerId, day: number) {
  const entry: { connectedAt: number; day: number; seconds?: number; foundDay?: number } = {
    connectedAt: Date.now(),
    day,
  };
  firstLink.set(id, entry);
  void (async () => {
    while (!benchDone) {
      const t = await app
        .call(runner(id).session!.cookie, 'GET', '/api/spotify/targets')
        .catch(() => undefined);
      if (
        t?.status === 200 &&
        (t.body.data.targets as Array<{ public_url: string | null }>).some((x) => x.public_url)
      ) {
        const now = Date.now();
        entry.seconds = Math.round((now - entry.connectedAt - offlineBetween(entry.connectedAt, now)) / 1000);
        entry.foundDay = today;
        note(today, `${id}'s first playlist link after ${entry.seconds} s (connected day ${entry.day})`);
        return;
      }
      await sleep(15_000);
    }
  })();
}

const looperTotal: LooperCounts = emptyCounts();
const looperByDay: LooperCounts[] = [];
/** Starts the looper once its runner is connected; the returned stop() ends it for the day. */
function looperDay(day: number) {
  if (!LOOPER) return { stop: async () => {} };
  const counts = emptyCounts();
  looperByDay[day - 1] = counts;
  let stopped = false;
  const hours = Number(opt['looper-hours-per-day']);
  let hoursPassed = 0;
  const clock =
    hours > 1
      ? setInterval(() => {
          hoursPassed++;
          db.query(`update auth_attempts set at = at - interval '1 hour' where kind = 'action'`).catch(
            (err: unknown) => say(`looper clock: ${String(err)}`),
          );
        }, DAY_MS / hours)
      : undefined;
  let loop: ReturnType<typeof startLooper> | undefined;
  const waiting = (async () => {
    while (!stopped && !runner(LOOPER).connected) await sleep(1000);
    if (stopped) return;
    say(`looper ${LOOPER} starts looping (day ${day})`);
    loop = startLooper({
      app,
      session: () => runner(LOOPER).session!,
      reconnect: async () => {
        await app.disconnect(runner(LOOPER).session!);
        runner(LOOPER).connected = false;
        await connect(day, LOOPER, 'looper reconnect');
      },
      reconnectEveryS: Number(opt['looper-reconnect-s']),
      parallel: Number(opt['looper-parallel']),
      counts,
      log: say,
    });
  })();
  return {
    async stop() {
      stopped = true;
      clearInterval(clock);
      await waiting;
      await loop?.stop();
      for (const [k, v] of Object.entries(counts.byStatus))
        looperTotal.byStatus[k] = (looperTotal.byStatus[k] ?? 0) + v;
      for (const [route, m] of Object.entries(counts.byRoute))
        for (const [k, v] of Object.entries(m)) {
          const r = (looperTotal.byRoute[route] ??= {});
          r[k] = (r[k] ?? 0) + v;
        }
      looperTotal.requests += counts.requests;
      looperTotal.reconnects += counts.reconnects;
      const line = Object.entries(counts.byStatus)
        .sort()
        .map(([k, v]) => `${k}: ${v}`)
        .join(', ');
      note(
        day,
        `looper ${LOOPER}: ${counts.requests} requests (${line}), ${counts.reconnects} reconnects; its action limits' hour passed ${hoursPassed} times`,
      );
    },
  };
}

/** The product's own ledger of the day (spotify_call_ledger): calls by runner and priority. */
const ledgerByDay: Array<Record<string, { calls: number; byPriority: Record<string, number> }>> = [];
async function readLedger(day: number) {
  const byUser = new Map([...runners].map(([id, r]) => [r.appUserId ?? `?${id}`, id as string]));
  const q = await db.query<{ user_key: string; priority: number; calls: number }>(
    `select user_key, priority, sum(calls)::int as calls from spotify_call_ledger
      where day = (select max(day) from spotify_call_ledger) group by 1, 2`,
  );
  const out: Record<string, { calls: number; byPriority: Record<string, number> }> = {};
  for (const r of q.rows) {
    const who = byUser.get(r.user_key) ?? (r.user_key || '(none)');
    const e = (out[who] ??= { calls: 0, byPriority: {} });
    e.calls += r.calls;
    e.byPriority[String(r.priority)] = (e.byPriority[String(r.priority)] ?? 0) + r.calls;
  }
  ledgerByDay[day - 1] = out;
}

/** The runner opens the app: whoami, the sources and the targets, as the status page reads them. */
async function look(id: RunnerId) {
  const r = runner(id);
  if (!r.session) return undefined;
  const who = await app.whoami(r.session);
  r.disabled = (who.disabled_services ?? []).some((d: { service: string }) => d.service === 'spotify');
  const sources = await app.sources(r.session).catch(() => undefined);
  r.targets = await app.targets(r.session).catch(() => r.targets);
  return { who, sources };
}

// ---- one day ---------------------------------------------------------------------------------------

const db = dbHandle.pool;

/** Jobs running now or due within the look-ahead (pg-boss), all users. */
async function busy(): Promise<{ active: number; due: number; lookups: number }> {
  const r = await db.query<{ active: number; due: number; lookups: number }>(
    `select count(*) filter (where state = 'active')::int as active,
            count(*) filter (where state in ('created', 'retry')
                             and start_after <= now() + make_interval(secs => $1))::int as due,
            count(*) filter (where name in ('tempo-lookup', 'tempo-audio') and state in ('created', 'retry', 'active'))::int
              as lookups
       from pgboss.job where name <> 'housekeeping'`,
    [LOOKAHEAD_S],
  );
  return r.rows[0]!;
}

/** Runs the day's script and then waits until the work is quiet (twice in a row) or the day's time is up. */
async function liveDay(day: number, script: (until: number) => Promise<void>): Promise<string> {
  const until = Date.now() + DAY_MS;
  await script(until).catch((err) => {
    note(day, `script failed: ${String(err)}`);
    throw err;
  });
  let quiet = 0;
  while (Date.now() < until) {
    const b = await busy().catch(() => ({ active: 1, due: 1, lookups: -1 }));
    quiet = b.active === 0 && b.due === 0 ? quiet + 1 : 0;
    if (quiet >= 2) return `quiet after ${((Date.now() - (until - DAY_MS)) / 60_000).toFixed(1)} min`;
    await sleep(10_000);
  }
  return `time up (${(DAY_MS / 60_000).toFixed(0)} min)`;
}

/** Waits for a condition, checking every few seconds, until it holds or the day is over. */
async function waitFor(until: number, what: () => Promise<boolean>, everyMs = 5000): Promise<boolean> {
  while (Date.now() < until) {
    if (await what().catch(() => false)) return true;
    await sleep(everyMs);
  }
  return false;
}

/** SIGKILL the server while a playlist add is in flight (the sandbox holds its answer; the add has landed). */
async function killDuringAdd(day: number, until: number): Promise<void> {
  const rule: FaultRule = {
    kind: 'slow',
    service: 'spotify-api',
    method: 'POST',
    path: '/items',
    delayMs: 8000,
    times: 1,
    afterApply: true,
  };
  sb.admin.setFaults([rule]);
  const fired = await waitFor(until, async () => (sb.admin.faults()[0]?.fired ?? 0) > 0, 200);
  if (!fired) {
    note(day, 'no playlist add happened today: the server was not killed');
    sb.admin.setFaults([]);
    return;
  }
  await sleep(500);
  await server.kill();
  note(day, 'server SIGKILLed while a playlist add was in flight (it landed; the answer was held back)');
  sb.admin.setFaults([]);
  await sleep(2000);
  const s = await server.start(`day${day}-after-kill`);
  note(day, `server started again (ready in ${s.toFixed(1)} s)`);
}

function largestTarget(r: Runner) {
  const withLists = r.targets.filter((t) => t.playlistId);
  const size = (id: string) => sb.admin.playlistItems(id).length;
  return withLists.sort((a, b) => size(b.playlistId!) - size(a.playlistId!))[0];
}

let deletedPlaylist: { id: string; name: string; held: number } | undefined;
/** What the nights added to the libraries: new liked songs, new releases by followed artists. */
const grown: Array<{ user: string; day: number; kind: 'liked' | 'release'; trackIds: string[] }> = [];

/** When each copy of a track id was added to a playlist (sandbox time, by day). */
const addedWhen = (playlistId: string, trackIds: string[]) => {
  const want = new Set(trackIds.map((id) => truth.song(id)));
  return sb.world
    .playlist(playlistId)!
    .entries.filter((e) => e.g !== undefined && want.has(truth.song(sb.world.trackId(e.g))))
    .map((e) => `${sb.world.trackId(e.g!)} (${whenInSandbox(e.addedAt)})`);
};

/** What became of each scripted event, read from the world at the end. */
function outcomes(): string[] {
  const out: string[] = [];
  for (const [pid, ids] of runner('ana.runs').removed) {
    const back = addedWhen(pid, ids);
    out.push(
      `ana.runs removed ${ids.length} songs: ${back.length} of their songs are in the playlist again${back.length ? `: ${back.join(', ')}` : ''}`,
    );
  }
  for (const [pid, ids] of runner('ben.pace').ownAdded) {
    const copies = addedWhen(pid, ids);
    out.push(
      `ben.pace added ${ids.length} songs of his own: the playlist holds ${copies.length} entries of those songs (${ids.length} = none doubled)${copies.length > ids.length ? `: ${copies.join(', ')}` : ''}`,
    );
  }
  if (deletedPlaylist) {
    const now = sb.admin.playlistItems(deletedPlaylist.id).length;
    const again = pacebeatPlaylists(sb, 'chloe').filter(
      (p) => p.name === deletedPlaylist!.name && p.followed,
    ).length;
    const t = runner('chloe').targets.find((x) => x.playlistId === deletedPlaylist!.id);
    out.push(
      `chloe deleted "${deletedPlaylist.name}" holding ${deletedPlaylist.held}: it holds ${now} now (${now - deletedPlaylist.held} added after the deletion); ${again} followed playlist(s) of that name; the status page names it "${t?.name ?? '(gone)'}"`,
    );
  }
  const held = calls.filter((c) => c.fault === 'slow after apply');
  for (const c of held) {
    const pid = /playlists\/([^/?]+)/.exec(c.url ?? '')?.[1];
    if (!pid) continue;
    // Copies of a track id added the day of the kill while an earlier copy was already there.
    const pl = sb.world.playlist(pid)!;
    const seen = new Set<number>();
    let doubled = 0;
    for (const e of pl.entries) {
      if (e.g === undefined) continue;
      if (seen.has(e.g) && whenInSandbox(e.addedAt).startsWith(`day ${c.day} `)) doubled++;
      seen.add(e.g);
    }
    const owner = sb.world.users[pl.owner]!.id;
    out.push(
      `the add in flight when the server was killed (day ${c.day}, ${owner}'s "${pl.name}"): ${doubled} track id(s) added a second time that day`,
    );
  }
  // The libraries' growth: of the new songs that fit one of their runner's live targets, how many are placed.
  for (const kind of ['liked', 'release'] as const) {
    let all = 0;
    let fitting = 0;
    let placed = 0;
    let lastNight = 0;
    for (const gr of grown.filter((x) => x.kind === kind)) {
      const r = runner(gr.user as RunnerId);
      const lists = r.targets.filter((t) => t.playlistId);
      const held = new Set(
        lists.flatMap((t) =>
          sb.admin
            .playlistItems(t.playlistId!)
            .filter((x): x is string => x !== null)
            .map((id) => truth.song(id)),
        ),
      );
      for (const id of gr.trackIds) {
        all++;
        const bpm = truth.bpm(id);
        if (!lists.some((t) => fits(bpm, t.minBpm, t.maxBpm))) continue;
        fitting++;
        if (held.has(truth.song(id))) {
          placed++;
          if (gr.day === DAYS) lastNight++;
        }
      }
    }
    out.push(
      `${kind === 'liked' ? 'new liked songs' : 'tracks of new releases by followed artists'} (every night): ${all}, ${fitting} fit a target of their runner, ${placed} of those placed by the end (${lastNight} from the last night)`,
    );
  }
  const dana = runner('dana');
  out.push(
    `dana after reconnecting: ${pacebeatPlaylists(sb, 'dana').length} Pacebeat playlists in her account for ${dana.targets.length} targets; status page ${dana.targets.map((t) => t.tracksAdded ?? 'N/A').join('/')} tracks added vs ${dana.targets.map((t) => (t.playlistId ? sb.admin.playlistItems(t.playlistId).length : 0)).join('/')} held`,
  );
  return out;
}

/** What happens overnight, before day `day` (the server is stopped). */
function overnight(day: number) {
  const g = growLibraries(sb, life, { 'ana.runs': 8, 'ben.pace': 3, chloe: 4, dana: 6, eli: 2 }, [
    'ana.runs',
    'eli',
    'chloe',
  ]);
  for (const [user, ids] of Object.entries(g.liked)) grown.push({ user, day, kind: 'liked', trackIds: ids });
  for (const r of g.releases) grown.push({ user: r.user, day, kind: 'release', trackIds: r.trackIds });
  note(
    day,
    `overnight: new liked songs ${Object.entries(g.liked)
      .map(([u, ids]) => `${u} +${ids.length}`)
      .join(', ')}; new releases by followed artists: ${g.releases
      .map((x) => `${x.trackIds.length} track(s) for ${x.user}`)
      .join(', ')}`,
  );
  if (day === 2) {
    const ana = runner('ana.runs');
    const t = largestTarget(ana);
    if (t) {
      const removed = removeSongs(sb, t.playlistId!, 5, life);
      ana.removed.set(t.playlistId!, removed);
      note(day, `ana.runs removes ${removed.length} songs from "${t.name}" in Spotify`);
    } else note(day, 'ana.runs has no Pacebeat playlist to remove songs from');
    const ben = runner('ben.pace');
    const b = largestTarget(ben);
    if (b) {
      const added = addOwnSongs(sb, truth, 'ben.pace', b.playlistId!, { min: b.minBpm, max: b.maxBpm }, 4);
      ben.ownAdded.set(b.playlistId!, added);
      note(day, `ben.pace adds ${added.length} songs of his own (liked, fitting) to "${b.name}" in Spotify`);
    } else note(day, 'ben.pace has no Pacebeat playlist to add songs to');
  }
  if (day === 3) {
    const c = largestTarget(runner('chloe'));
    if (c) {
      sb.admin.unfollowPlaylist('chloe', c.playlistId!);
      deletedPlaylist = {
        id: c.playlistId!,
        name: c.name,
        held: sb.admin.playlistItems(c.playlistId!).length,
      };
      note(
        day,
        `chloe deletes "${c.name}" in Spotify (unfollows it; it held ${sb.admin.playlistItems(c.playlistId!).length})`,
      );
    } else note(day, 'chloe has no Pacebeat playlist to delete');
  }
  if (day === 4) {
    const n = sb.admin.expireTokens({ userId: 'eli' }).expired;
    note(day, `eli's refresh token expires (${n} grant(s))`);
  }
}

/** The day's script while the server runs. */
async function script(day: number, until: number) {
  // Every morning each runner opens the app; a runner whose status page said last evening that Spotify
  // must be connected again (the app lost their grant during the day) does so now.
  for (const id of RUNNERS) {
    const r = runner(id);
    if (!r.connected) continue;
    const sawIt = r.disabled;
    await look(id);
    if (sawIt && r.disabled) {
      note(day, `${id}'s status page says Spotify must be connected again`);
      await connect(day, id, 'after the status page asked');
    }
  }
  if (day === 1) {
    await connect(day, 'ana.runs', 'first runner');
    // Ben connects while Ana's artist catalogs are being read.
    const reading = await waitFor(until - DAY_MS / 2, async () => {
      const s = await look('ana.runs');
      const cat = (s?.sources?.sources ?? []).find((x: { kind: string }) => x.kind === 'artist_catalogs');
      return cat?.progress?.state === 'scanning' && cat.progress.items_read > 0;
    });
    await connect(day, 'ben.pace', reading ? "while ana.runs's catalogs are read" : 'at mid-day');
    await sleep(60_000);
    await connect(day, 'dana', 'a minute later');
  }
  if (day === 2) {
    const kill = killDuringAdd(day, until);
    await connect(day, 'chloe', 'shares favourite artists with ana.runs');
    await sleep(90_000);
    await connect(day, 'eli', 'a friend joins');
    await kill;
  }
  if (day === 3) {
    await sleep(30_000);
    await app.disconnect(runner('dana').session!);
    runner('dana').connected = false;
    note(day, 'dana disconnects Spotify');
    await sleep(60_000);
    await connect(day, 'dana', 'reconnects a minute later');
  }
}

// ---- scoring ---------------------------------------------------------------------------------------

const rows: DayRow[] = [];

/** Sandbox clock (ms) at the start of each day: tells on which day and when a playlist entry was added. */
const dayStarts: number[] = [];
const whenInSandbox = (ms: number) => {
  let d = dayStarts.length;
  while (d > 1 && ms < dayStarts[d - 1]!) d--;
  return `day ${d} +${((ms - (dayStarts[d - 1] ?? ms)) / 60_000).toFixed(1)} min`;
};

/**
 * For the record (a file per day in the log folder): every track id a runner's Pacebeat playlist holds
 * more than once or whose song it holds twice, when each copy was added (sandbox clock, by day), and
 * the product's row for its recording.
 */
async function dumpDuplicates(day: number, r: Runner) {
  const out: unknown[] = [];
  for (const l of pacebeatPlaylists(sb, r.spotifyUser)) {
    const pl = sb.world.playlist(l.id)!;
    const bySong = new Map<number, Array<{ id: string; at: number; pos: number }>>();
    pl.entries.forEach((e, pos) => {
      if (e.g === undefined) return;
      const id = sb.world.trackId(e.g);
      const song = truth.song(id);
      bySong.set(song, [...(bySong.get(song) ?? []), { id, at: e.addedAt, pos }]);
    });
    for (const copies of bySong.values()) {
      if (copies.length < 2) continue;
      const rows = await db.query(
        `select t.recording_key, t.track_id, t.state, t.batch_id, t.added_at, t.recorded_at, g.name
           from playlist_target_tracks t join playlist_targets g on g.id = t.target_id
          where g.playlist_id = $1 and t.track_id = any($2)`,
        [l.id, copies.map((c) => c.id)],
      );
      out.push({
        playlist: l.name,
        playlistId: l.id,
        copies: copies.map((c) => ({
          trackId: c.id,
          recording: truth.recording(c.id),
          position: c.pos,
          added: whenInSandbox(c.at),
        })),
        product: rows.rows,
      });
    }
  }
  if (out.length)
    await fs.writeFile(
      path.join(logDir, `duplicates-day${day}-${r.spotifyUser}.json`),
      JSON.stringify(out, null, 1),
    );
}

async function scoreDay(day: number, ended: string): Promise<DayRow> {
  harvest();
  let withoutTempo = 0;
  const scores: RunnerScore[] = [];
  for (const id of RUNNERS) {
    const r = runner(id);
    if (!r.session) continue;
    const seen = await look(id);
    withoutTempo += seen?.sources?.summary?.tracks_without_tempo ?? 0;
    const candidates = r.appUserId ? await library.listMatchCandidates(r.appUserId) : [];
    await dumpDuplicates(day, r);
    const tempos = await tempoCache.getByKeys([...new Set(candidates.map((c) => c.recordingKey))]);
    const keyOf = new Map(candidates.map((c) => [c.trackId, c.recordingKey]));
    const score = scoreRunner(
      sb,
      truth,
      r,
      candidates.map((c) => c.trackId),
      (trackId) => tempos.get(keyOf.get(trackId) ?? ''),
    );
    score.calls = calls.filter(
      (c) => c.day === day && c.userId === id && !c.route.startsWith('accounts '),
    ).length;
    scores.push(score);
  }
  const todays = calls.filter((c) => c.day === day);
  const api = todays.filter((c) => !c.route.startsWith('accounts '));
  const sum = (f: (s: RunnerScore) => number) => scores.reduce((n, s) => n + f(s), 0);
  const placed = sum((s) => s.placed);
  const b = await busy().catch(() => ({ lookups: -1 }));
  return {
    day,
    ended,
    calls: api.length,
    quotaUsed: sb.admin.usage().dailyQuotaUsed,
    refused429: api.filter((c) => c.status === 429).length,
    playlistCalls: api.filter(
      (c) => /playlists/.test(c.route) && !/^GET \/me\/playlists/.test(`${c.method} ${c.route}`),
    ).length,
    placed,
    placedToday: placed - (rows.at(-1)?.placed ?? 0),
    duplicates: sum((s) => s.duplicates),
    sameId: sum((s) => s.sameId),
    sameRecording: sum((s) => s.sameRecording),
    sameSong: sum((s) => s.sameSong),
    readds: sum((s) => s.readds),
    right: sum((s) => s.right),
    threeTwo: sum((s) => s.threeTwo),
    fittingScanned: sum((s) => s.fittingScanned),
    placedScanned: sum((s) => s.placedScanned),
    lookedUpFitting: sum((s) => s.lookedUpFitting ?? 0),
    placedLookedUp: sum((s) => s.placedLookedUp ?? 0),
    recallClasses: sumClasses(scores),
    libraryFitting: sum((s) => s.libraryFitting),
    libraryPlaced: sum((s) => s.libraryPlaced),
    withoutTempo,
    lookupJobs: b.lookups,
    runners: scores,
  };
}

// ---- the weeks -------------------------------------------------------------------------------------

let exitCode = 0;
try {
  const shared = shareTaste(sb, 'ana.runs', 'chloe', life);
  note(0, `chloe follows ${shared.length} of ana.runs's followed artists and likes 30 of their songs`);
  for (let day = 1; day <= DAYS; day++) {
    if (day > 1) {
      nights.push([Date.now(), 0]);
      const stopS = await server.stop();
      harvest(); // the calls of the shutdown still belong to the day that ends
      today = day;
      const shift = await shiftDatabaseTimes(pgServer.adminUrl, 24);
      const now = sb.admin.advanceClock(86_400).now;
      clockLeadMs = Date.parse(now) - Date.now();
      say(
        `day ${day}: server stopped in ${stopS.toFixed(1)} s; ${shift.rows} rows of ${shift.tables} tables (${shift.columns} time columns) moved back 24 h in ${(shift.ms / 1000).toFixed(1)} s; sandbox clock ${now}`,
      );
      overnight(day);
    }
    dayStarts.push(Date.now() + clockLeadMs);
    const readyS = await server.start(`day${day}`);
    if (nights.length && nights.at(-1)![1] === 0) nights.at(-1)![1] = Date.now();
    say(`day ${day}: server ready in ${readyS.toFixed(1)} s`);
    const looping = looperDay(day);
    const ended = await liveDay(day, (until) => script(day, until)).finally(() => looping.stop());
    await readLedger(day).catch((err) => say(`ledger: ${String(err)}`));
    const row = await scoreDay(day, ended);
    rows.push(row);
    process.stdout.write(`\n${dayTable(rows)}\n\n${recallTable(rows)}\n`);
  }
  await server.stop();
} catch (err) {
  exitCode = 1;
  say(`failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  await server.kill();
} finally {
  benchDone = true;
  clearInterval(harvester);
  harvest();
}
const fair: FairRecord = {
  looper: LOOPER ?? null,
  looperOptions: LOOPER
    ? {
        reconnectEveryS: Number(opt['looper-reconnect-s']),
        parallel: Number(opt['looper-parallel']),
        hoursPerDay: Number(opt['looper-hours-per-day']),
      }
    : null,
  dayMinutes: Number(opt['day-minutes']),
  firstLink: Object.fromEntries(
    [...firstLink].map(([id, e]) => [
      id,
      { day: e.day, seconds: e.seconds ?? null, foundDay: e.foundDay ?? null },
    ]),
  ),
  placed: Object.fromEntries(
    RUNNERS.map((id) => [id, rows.map((r) => r.runners.find((s) => s.runner === id)?.placed ?? 0)]),
  ),
  sandboxCalls: Object.fromEntries(
    RUNNERS.map((id) => [id, rows.map((r) => r.runners.find((s) => s.runner === id)?.calls ?? 0)]),
  ),
  killedAdd: calls
    .filter((c) => c.fault === 'slow after apply')
    .map((c) => {
      const pl = sb.world.playlist(/playlists\/([^/?]+)/.exec(c.url ?? '')?.[1] ?? '');
      return { day: c.day, runner: pl ? sb.world.users[pl.owner]!.id : '?' };
    }),
  installationCalls: rows.map((r) => r.calls),
  quotaUsed: rows.map((r) => r.quotaUsed),
  refused429: rows.map((r) => r.refused429),
  ledger: ledgerByDay,
  looperByDay,
  looperTotal,
};

const byRoute = new Map<string, number>();
for (const c of calls)
  byRoute.set(`${c.method} ${c.route}`, (byRoute.get(`${c.method} ${c.route}`) ?? 0) + 1);
const last = rows.at(-1);
// Each day's server logs: the day's start and, after a kill, its restart (`server-day<N>[-…].log`).
const logFiles = await fs.readdir(logDir);
const writerRunsByDay = rows.map((_, i) =>
  writerRuns(
    logFiles
      .filter((f) => f === `server-day${i + 1}.log` || f.startsWith(`server-day${i + 1}-`))
      .map((f) => path.join(logDir, f)),
  ),
);
const out = [
  '',
  `## Lifecycle: ${rows.length} simulated day(s), commit ${COMMIT}`,
  '',
  `\`npm run bench:lifecycle -- ${process.env['LIFECYCLE_ARGS'] ?? process.argv.slice(2).join(' ')}\` (world ${opt.size}, seed ${SEED}, ${opt['day-minutes']} min a day at most, ${os.cpus().length} cores, load ${os
    .loadavg()
    .map((x) => x.toFixed(1))
    .join(' ')})`,
  '',
  dayTable(rows),
  '',
  recallTable(rows),
  '',
  runnerTable(rows),
  '',
  'Events:',
  ...events.map((e) => `- ${e}`),
  '',
  'What became of them:',
  ...outcomes().map((e) => `- ${e}`),
  ...(server.unexpectedExits.length
    ? [`- the server exited on its own: ${server.unexpectedExits.join(', ')}`]
    : []),
  '',
  `Spotify calls by endpoint: ${[...byRoute]
    .sort((a, b) => b[1] - a[1])
    .map(([k, n]) => `${k} ${n}`)
    .join(', ')}`,
  '',
  last
    ? `Summary: ${last.placed} songs placed for ${last.runners.length} runners in ${rows.length} days with ${calls.filter((c) => !c.route.startsWith('accounts ')).length} Spotify calls; duplicates ${last.duplicates}, re-adds ${last.readds}, precision ${pct(last.right, last.placed)}, at 3:2 ${last.threeTwo}, recall over the scanned library ${pct(last.placedScanned, last.fittingScanned)}, status page ≠ playlists ${last.runners.reduce((n, s) => n + statusDiff(s), 0)}; most calls in a day ${Math.max(...rows.map((r) => r.calls))} (quota 1000).`
    : 'No day finished.',
  '',
  fairSummary(fair),
  // Optional: an older world (`--world`) may not count them.
  ...(sb.previewStats
    ? [
        `Previews the stand-in synthesised ${sb.previewStats.generated}, read from its disk cache ${sb.previewStats.fromDisk}${opt['cold-previews'] ? ' (--cold-previews)' : ''}`,
      ]
    : []),
  `Writer runs (ended done) by day: ${writerRunsByDay.map((w, i) => `day ${i + 1} ${formatWriterRuns(w)}`).join('; ')}`,
  `Logs: ${logDir}`,
];
process.stdout.write(`${out.join('\n')}\n`);
if (opt.json)
  await fs.writeFile(
    opt.json,
    JSON.stringify({ commit: COMMIT, rows, events, calls: byRoute.size, fair, writerRunsByDay }, null, 1),
  );
await dbHandle.close();
await sb.close();
await pgServer.stop();
process.exit(exitCode);
