// bench/spotify-client: the Spotify client against the simulated Spotify with a rate limit.
//  1. Throughput: workers call as fast as the shared budget lets them (deferred calls wait until the
//     budget's retryAt, as a re-queued job would); measured over whole 30 s windows after a first
//     warm-up window, as a share of the allowed rate; and the 429s the sandbox answered. Three runs:
//     interactive and library-scan priority with the budget set to the sandbox's limit, and interactive
//     with the budget set 50 % above it (the client must learn the limit from its first 429).
//     The simulated Spotify fails a realistic share of calls transiently (--transient-failures 0 for none).
//  2. Overhead per call: the client (budget slot, ledger, token, parsing) against a bare fetch of the
//     same endpoint, both sequential, no limits, no failures.
// Run: node bench/spotify-client/run.ts [--rate 60] [--windows 2] [--workers 4] [--calls 300] [--overhead-only]
//                                       [--transient-failures 0.005]
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { sql } from 'drizzle-orm';
import pino from 'pino';
import { REALISTIC_TRANSIENT_SHARE, startSandbox } from '@pacebeat/sandbox';
import { createDb } from '../../apps/server/src/db/client.ts';
import { startEmbeddedPostgres } from '../../apps/server/src/db/embedded.ts';
import { runMigrations } from '../../apps/server/src/db/migrate.ts';
import type { Priority } from '../../apps/server/src/spotify/budget.ts';
import { SpotifyDeferredError } from '../../apps/server/src/spotify/errors.ts';
import { createSpotifyModule } from '../../apps/server/src/spotify/spotify.module.ts';
import { sandboxSpotifyEndpoints } from '../../apps/server/src/spotify/demo.ts';

const arg = (name: string, fallback: number) => {
  const i = process.argv.indexOf(`--${name}`);
  return i > 0 ? Number(process.argv[i + 1]) : fallback;
};
const RATE = arg('rate', 60); // calls per 30 s, the sandbox's limit and the client's budget
const WINDOWS = arg('windows', 2); // measured 30 s windows after the warm-up window
const WORKERS = arg('workers', 4);
const CALLS = arg('calls', 300);
const OVERHEAD_ONLY = process.argv.includes('--overhead-only');
const WINDOW_MS = 30_000;

const log = pino({ level: 'silent' });
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pacebeat-bench-spotify-'));
fs.chmodSync(dir, 0o755);
const pg = await startEmbeddedPostgres(path.join(dir, 'pg'), log);
const sandbox = await startSandbox({
  size: 'tiny',
  rateLimit: { windowSeconds: 30, maxRequests: RATE },
  dailyQuota: false,
  transientFailures: arg('transient-failures', REALISTIC_TRANSIENT_SHARE),
});
const handles: ReturnType<typeof createDb>[] = [];
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function spotifyProcess(rate: number | null, budgetKey: string) {
  const h = createDb(pg.url, { max: 4 });
  handles.push(h);
  return createSpotifyModule(h.db, {
    spotify: sandboxSpotifyEndpoints(sandbox),
    settings: {
      SPOTIFY_RATE_PER_30S: rate,
      SPOTIFY_DAILY_QUOTA: null,
      SPOTIFY_TIMEOUT_SECONDS: 10,
      TOKEN_ENCRYPTION_KEY: 'ab'.repeat(32),
      dataDir: dir,
    },
    log,
    budgetKey,
  });
}

try {
  const setup = createDb(pg.url);
  await runMigrations(setup);
  const userRows = await setup.db.execute<{ id: string }>(
    sql`insert into users (email, name) values ('bench@example.org', 'Bench') returning id`,
  );
  await setup.close();
  const userId = userRows.rows[0]!.id;

  // Two "processes" share one budget, as a serve and a work process would.
  const processes = [spotifyProcess(RATE, 'bench'), spotifyProcess(RATE, 'bench')];
  const token = sandbox.admin.connect({ userId: 'ana.runs' });
  await processes[0]!.connect.connect(userId, { ...token, refresh_token: token.refresh_token! });
  sandbox.admin.clearRequests();

  async function throughput(priority: Priority, procs: typeof processes) {
    const started = Date.now();
    const measureFrom = started + WINDOW_MS;
    const measureTo = measureFrom + WINDOWS * WINDOW_MS;
    let measured = 0;
    let deferred = 0;
    let failed = 0;
    const worker = async (i: number) => {
      const api = procs[i % procs.length]!.api({ userId, purpose: 'bench', priority });
      while (Date.now() < measureTo) {
        try {
          await api.me();
          const now = Date.now();
          if (now >= measureFrom && now < measureTo) measured++;
        } catch (err) {
          if (err instanceof SpotifyDeferredError) {
            deferred++;
            await sleep(Math.max(0, Math.min(err.retryAt.getTime(), measureTo) - Date.now()));
          } else {
            failed++;
          }
        }
      }
    };
    await Promise.all(Array.from({ length: WORKERS }, (_, i) => worker(i)));
    const answers = sandbox.admin.requests({ service: 'spotify-api' });
    const refused = answers.filter((r) => r.status === 429).map((r) => r.at);
    const tooMany = refused.length;
    // 429s to calls that were already on their way when the first one came back are part of "the first".
    const first = refused.length ? Math.min(...refused) : 0;
    const later = refused.filter((at) => at > first + 1000).length;
    sandbox.admin.clearRequests();
    const allowed = RATE * WINDOWS;
    return { measured, allowed, share: measured / allowed, deferred, failed, tooMany, later };
  }

  console.log(
    `Spotify client benchmark: sandbox limit ${RATE} calls / 30 s, budget ${RATE} / 30 s shared by 2 processes, ` +
      `${WORKERS} workers, 1 warm-up window + ${WINDOWS} measured windows (${(WINDOWS + 1) * 30} s each run)`,
  );
  const above = Math.round(RATE * 1.5);
  const learning = [spotifyProcess(above, 'bench-learn'), spotifyProcess(above, 'bench-learn')];
  const runs = [
    { label: 'interactive', priority: 'interactive' as const, procs: processes, ceiling: 1 },
    { label: 'library_scan', priority: 'library_scan' as const, procs: processes, ceiling: 0.9 },
    { label: `setting ${above}`, priority: 'interactive' as const, procs: learning, ceiling: 1 },
  ];
  for (const run of OVERHEAD_ONLY ? [] : runs) {
    const r = await throughput(run.priority, run.procs);
    console.log(
      `  ${run.label.padEnd(12)} ${r.measured} calls in ${WINDOWS} windows of ${r.allowed} allowed: ` +
        `${(r.share * 100).toFixed(1)} % of the rate (priority ceiling ${run.ceiling * 100} %, ` +
        `${((r.share / run.ceiling) * 100).toFixed(1)} % of it); 429 answers: ${r.tooMany} ` +
        `(${r.later} more than 1 s after the first); ` +
        `deferrals: ${r.deferred}; other failures: ${r.failed}`,
    );
    await sleep(WINDOW_MS + 500); // let the window empty before the next run
  }

  // Overhead per call, sequential, no limits (a separate budget).
  sandbox.admin.setConfig({ rateLimit: false, transientFailures: 0 });
  const unlimited = spotifyProcess(null, 'bench-unlimited');
  const api = unlimited.api({ userId, purpose: 'bench', priority: 'interactive' });
  const accessToken = await unlimited.tokens.getAccessToken(userId);
  const bare = async () => {
    const res = await fetch(`${sandbox.baseUrls.spotifyApi}/me`, {
      headers: { authorization: `Bearer ${accessToken}` },
    });
    await res.json();
  };
  for (let i = 0; i < 20; i++) {
    await bare();
    await api.me();
  }
  const time = async (f: () => Promise<unknown>) => {
    const t0 = performance.now();
    for (let i = 0; i < CALLS; i++) await f();
    return (performance.now() - t0) / CALLS;
  };
  const bareMs = await time(bare);
  const clientMs = await time(() => api.me());
  console.log(
    `  overhead: ${CALLS} sequential GET /me: bare fetch ${bareMs.toFixed(2)} ms/call, ` +
      `client ${clientMs.toFixed(2)} ms/call → ${(clientMs - bareMs).toFixed(2)} ms per call ` +
      `(budget slot + ledger in one PostgreSQL transaction, token, zod parse, log)`,
  );
} finally {
  for (const h of handles) await h.close();
  await sandbox.close();
  await pg.stop();
  fs.rmSync(dir, { recursive: true, force: true });
}
