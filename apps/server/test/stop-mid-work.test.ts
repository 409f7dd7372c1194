// A stop in the middle of the work (issue 22, item 4). The real server process (`scripts/server.ts all`,
// what `npm start` runs once the web app is built) on its embedded PostgreSQL in a fresh data folder, in demo
// mode, with a runner whose Liked Songs are being scanned, looked up and written to their playlists when
// SIGTERM reaches its process group (what Ctrl-C and supervisors send). It must end on its own within
// SHUTDOWN_TIMEOUT_SECONDS (exit 0, not "killed by timeout"), leave no PostgreSQL behind, and a second start on
// the same data must finish the work with nothing lost and nothing done twice.
// The simulated world runs in this test's process (DEMO_SANDBOX_URL), so its playlists outlive the server.
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { startSandbox, type Sandbox } from '@pacebeat/sandbox';
import { afterAll, beforeAll, describe, expect, it, onTestFailed } from 'vitest';
import { freePort } from './scaleout/cluster.ts';
import {
  likedPageReads,
  newSpotifyUser,
  playlistsInSpotify,
  signUpAndConnect,
  spotifyCalls,
  waitUntilDone,
  type Reachable,
} from './scaleout/scenario.ts';

const SERVER = fileURLToPath(new URL('../../../scripts/server.ts', import.meta.url));
/** Longer than a slow Liked Songs page (LIKED): a page read under way when the stop comes is finished, not lost. */
const SHUTDOWN_TIMEOUT_SECONDS = 30;
/**
 * Liked Songs of the runner: 4 pages, each answered 25 s late, so the scan is still going when the first fill
 * (15 s after the first match) places tracks and the stop comes. (8 s was enough until a running tempo
 * waited for the audio to settle its meter: the scan then ended before the first placement, in CI; 20 s
 * was not always enough on cores busy with other work.) After the stop the pages answer at once.
 */
const LIKED = 200;

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));
const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
};

interface Server {
  child: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
}

describe('a stop in the middle of the work', () => {
  let sandbox: Sandbox;
  let dir: string;
  let port: number;
  const servers: Server[] = [];
  const c: Reachable = {
    appUrl: '',
    sandboxUrl: '',
    databaseUrl: '',
    admin: async <T>(method: string, route: string, body?: unknown) => {
      const res = await fetch(`${sandbox.url}/admin${route}`, {
        method,
        ...(body === undefined
          ? {}
          : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }),
      });
      const text = await res.text();
      if (!res.ok) throw new Error(`sandbox ${method} ${route}: ${res.status} ${text}`);
      return (text ? JSON.parse(text) : undefined) as T;
    },
  };
  const pidFile = () => path.join(dir, 'pg', 'postmaster.pid');

  beforeAll(async () => {
    sandbox = await startSandbox({
      size: 'tiny',
      port: 0,
      faults: [{ kind: 'slow', service: 'spotify-api', method: 'GET', path: '/me/tracks', delayMs: 25_000 }],
      // Most tempos checked by two metadata sources, and short previews for the rest: the audio (synthesised
      // here, estimated in the server, 2 cores for both) would take minutes for a library of this size.
      deezer: { unknownBpmShare: 0.05 },
      reccobeats: { coverage: 1 },
      previews: { seconds: 12 },
    });
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'pacebeat-stop-'));
    await fs.chmod(dir, 0o755); // the postgres OS user (when we run as root) must reach its folder
    port = await freePort();
    c.appUrl = `http://127.0.0.1:${port}`;
    c.sandboxUrl = sandbox.url;
  });
  afterAll(async () => {
    for (const s of servers)
      if (s.child.exitCode === null && s.child.signalCode === null) s.child.kill('SIGKILL');
    // A server left behind by a failed run (the bug this test is about) is stopped here.
    if (existsSync(pidFile())) {
      const pid = Number(readFileSync(pidFile(), 'utf8').split('\n')[0]);
      if (pid > 0 && alive(pid)) process.kill(pid, 'SIGQUIT');
    }
    await sandbox?.close();
    await fs.rm(dir, { recursive: true, force: true });
  }, 30_000);

  /** `scripts/server.ts all` in its own process group, ready when it listens and runs jobs. */
  async function startServer(): Promise<Server> {
    const child = spawn(process.execPath, ['--max-semi-space-size=16', SERVER, 'all'], {
      env: {
        PATH: process.env['PATH'] ?? '',
        HOME: process.env['HOME'] ?? os.tmpdir(),
        DATA_DIR: dir,
        HOST: '127.0.0.1',
        PORT: String(port),
        LOG_LEVEL: 'info',
        WEB_DIST_DIR: path.join(dir, 'no-web-build'),
        SHUTDOWN_TIMEOUT_SECONDS: String(SHUTDOWN_TIMEOUT_SECONDS),
        DEMO_SANDBOX_URL: sandbox.url,
        // Short add waits, so the writer places tracks within seconds.
        PLAYLIST_ADD_WAIT_SECONDS: '2',
        // The slow Liked Songs pages (25 s) are answers, not time-outs.
        SPOTIFY_TIMEOUT_SECONDS: '40',
      },
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let out = '';
    child.stdout!.on('data', (b: Buffer) => (out += b.toString('utf8')));
    child.stderr!.on('data', (b: Buffer) => (out += b.toString('utf8')));
    const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
    const server: Server = { child, output: () => out, exited };
    servers.push(server);
    const deadline = Date.now() + 120_000;
    while (!(out.includes('Server listening') && out.includes('background jobs running'))) {
      if (child.exitCode !== null || Date.now() > deadline)
        throw new Error(`the server did not start:\n${out.slice(-3000)}`);
      await sleep(50);
    }
    // The embedded PostgreSQL listens on a new port at every start.
    const pgPort = readFileSync(pidFile(), 'utf8').split('\n')[3]!.trim();
    const password = readFileSync(path.join(dir, 'pg.password'), 'utf8').trim();
    c.databaseUrl = `postgres://pacebeat:${encodeURIComponent(password)}@127.0.0.1:${pgPort}/pacebeat`;
    return server;
  }

  async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
    const db = new pg.Client({ connectionString: c.databaseUrl });
    await db.connect();
    try {
      return (await db.query(sql, params)).rows as T[];
    } finally {
      await db.end();
    }
  }

  /** What is running for the user right now. */
  async function work(userId: string) {
    const [row] = await query<{ lookups: number; scanning: number; added: number }>(
      `select
         (select count(*)::int from pgboss.job where name in ('tempo-lookup', 'tempo-audio') and state = 'active'
            and data->>'userId' = $1) as lookups,
         (select count(*)::int from library_sources where user_id::text = $1 and enabled and readable
            and (cursor is not null or full_read_at is null)) as scanning,
         (select count(*)::int from playlist_target_tracks tt join playlist_targets t on t.id = tt.target_id
            where t.user_id::text = $1 and tt.state = 'added') as added`,
      [userId],
    );
    return row!;
  }

  it('ends within SHUTDOWN_TIMEOUT_SECONDS with its PostgreSQL stopped; a restart finishes the work, nothing lost or twice', async () => {
    // On failure, what the servers said.
    onTestFailed(() => {
      for (const [i, s] of servers.entries()) console.log(`server ${i + 1}:\n${s.output().slice(-6000)}`);
    });
    const first = await startServer();
    const runner = await signUpAndConnect(c, await newSpotifyUser(c, LIKED));

    // The middle: lookups running, the scan not done, and the writer has placed tracks already.
    let now = await work(runner.userId);
    for (const end = Date.now() + 150_000; Date.now() < end; await sleep(200)) {
      now = await work(runner.userId);
      if (now.lookups > 0 && now.scanning > 0 && now.added > 0) break;
    }
    expect(now.lookups, 'tempo lookups running').toBeGreaterThan(0);
    expect(now.scanning, 'the scan not done').toBeGreaterThan(0);
    expect(now.added, 'tracks placed').toBeGreaterThan(0);

    const postgres = Number(readFileSync(pidFile(), 'utf8').split('\n')[0]);
    process.kill(-first.child.pid!, 'SIGTERM');
    // The server's own time limit ends it; this bound only keeps a hung process from hanging the test.
    const code = await Promise.race([
      first.exited,
      sleep(3 * SHUTDOWN_TIMEOUT_SECONDS * 1000).then(() => 'hung'),
    ]);
    const log = first.output();
    expect(log).toContain('shutting down');
    expect(log).not.toContain('killed by timeout');
    expect(code, log.slice(-3000)).toBe(0);
    expect(alive(postgres), 'the embedded PostgreSQL still runs').toBe(false);
    expect(existsSync(pidFile())).toBe(false);
    expect(existsSync(path.join(dir, 'pg.owner'))).toBe(false);

    // A second start on the same data finishes the work; the rest of the Liked Songs answer at once.
    sandbox.admin.setFaults([]);
    const second = await startServer();
    await waitUntilDone(c, runner, 180_000); // about 30 s on quiet cores; room for busy ones

    // Nothing twice: no track twice in a playlist, no Liked Songs page read twice.
    const playlists = await playlistsInSpotify(c, runner);
    const placed = playlists.flatMap((p) => p.trackIds);
    expect(placed.length).toBeGreaterThan(0);
    for (const p of playlists)
      expect(p.trackIds.length, `duplicates in ${p.range}`).toBe(new Set(p.trackIds).size);
    for (const [offset, reads] of likedPageReads(await spotifyCalls(c, runner)))
      expect(reads, `Liked Songs page at ${offset} read`).toBe(1);
    // Nothing lost: what Pacebeat recorded as added is what the playlists hold; every liked track has its
    // tempo answer, none of them cut short by the stop (an estimate ended with the estimator's threads).
    const recorded = await query<{ track_id: string }>(
      `select tt.track_id from playlist_target_tracks tt join playlist_targets t on t.id = tt.target_id
       where t.user_id = $1 and tt.state = 'added'`,
      [runner.userId],
    );
    expect([...placed].sort()).toEqual(recorded.map((r) => r.track_id).sort());
    const [tempo] = await query<{ liked: number; missing: number; cut: number }>(
      `select count(*)::int as liked,
              count(*) filter (where r.key is null)::int as missing,
              count(*) filter (where r.reason like '%estimator%failed%')::int as cut
       from library_sources s join library_source_tracks st on st.source_ref = s.id
       join library_tracks t on t.id = st.track_id left join tempo_recordings r on r.key = t.recording_key
       where s.user_id = $1 and s.kind = 'liked_songs'`,
      [runner.userId],
    );
    expect(tempo).toEqual({ liked: LIKED, missing: 0, cut: 0 });
    const failed = await query(
      `select name from pgboss.job where state = 'failed' and data->>'userId' = $1`,
      [runner.userId],
    );
    expect(failed).toEqual([]);

    process.kill(-second.child.pid!, 'SIGTERM');
    expect(await second.exited).toBe(0);
  }, 420_000);
});
