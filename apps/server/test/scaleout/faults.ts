// Faults injected into a scale-out cluster while one runner's library is scanned and playlists written:
// work processes SIGKILLed in the middle of a Liked Songs page, a playlist creation and an add (the
// sandbox holds that call open, so the kill lands while it is in flight; the writes have already landed),
// the serve process SIGKILLed, PostgreSQL restarted, and Spotify answering 429, 5xx, time-outs, resets and
// QUOTA_EXCEEDED, and every access token expiring at once (the sandbox's clock moved an hour on: every
// process meets a 401 and must refresh once, under the per-user lock). Each fault can run alone (bench/scaleout-faults) or all together (the fault test).
import type { Cluster } from './cluster.ts';
import { api, signUpAndConnect, spotifyCalls, type Runner } from './scenario.ts';

export const FAULTS = [
  'kill-work-mid-page',
  'kill-work-mid-create',
  'kill-work-mid-add',
  'kill-serve',
  'restart-postgres',
  'spotify-429',
  'spotify-5xx',
  'spotify-timeout',
  'spotify-reset',
  'quota-exceeded',
  'token-expiry',
] as const;
export type Fault = (typeof FAULTS)[number];

interface Rule {
  kind: 'status' | 'slow' | 'reset';
  service: 'spotify-api';
  method: string;
  path: string;
  status?: number;
  delayMs?: number;
  retryAfterSeconds?: number;
  times: number;
  afterApply?: boolean;
}

/** Held this long, a call is surely in flight when the processes are killed (the client waits 10 s). */
const HOLD_MS = 8000;

const get = (path: string, r: Omit<Rule, 'service' | 'method' | 'path'>): Rule => ({
  service: 'spotify-api',
  method: 'GET',
  path,
  ...r,
});
const post = (path: string, r: Omit<Rule, 'service' | 'method' | 'path'>): Rule => ({
  service: 'spotify-api',
  method: 'POST',
  path,
  ...r,
});

/** The sandbox rules of each fault; a rule named in KILL_ON kills every work process while it holds a call. */
const RULES: Partial<Record<Fault, Rule[]>> = {
  'kill-work-mid-page': [get('/me/tracks', { kind: 'slow', delayMs: HOLD_MS, times: 1 })],
  'kill-work-mid-create': [
    post('/me/playlists', { kind: 'slow', delayMs: HOLD_MS, times: 1, afterApply: true }),
  ],
  'kill-work-mid-add': [post('/items', { kind: 'slow', delayMs: HOLD_MS, times: 1, afterApply: true })],
  // On an add, when the window holds the run's calls: a 429 teaches every process the rate of the 30 s
  // before it for a day (budget.repository.ts learnRate), so one after a quiet spell would crawl at 1 call
  // per 30 s (see the scale-out findings in docs/operating.md).
  'spotify-429': [post('/items', { kind: 'status', status: 429, retryAfterSeconds: 2, times: 1 })],
  'spotify-5xx': [
    get('/me/tracks', { kind: 'status', status: 503, times: 2 }),
    post('/me/playlists', { kind: 'status', status: 500, times: 1, afterApply: true }),
    post('/items', { kind: 'status', status: 502, times: 1, afterApply: true }),
  ],
  // Past SPOTIFY_TIMEOUT_SECONDS (10 s): the client gives up; the add lands all the same.
  'spotify-timeout': [
    get('/me/tracks', { kind: 'slow', delayMs: 11_000, times: 1 }),
    post('/items', { kind: 'slow', delayMs: 11_000, times: 1, afterApply: true }),
  ],
  'spotify-reset': [
    get('/me/playlists', { kind: 'reset', times: 1 }),
    post('/items', { kind: 'reset', times: 1, afterApply: true }),
  ],
};
const KILL_ON: Fault[] = ['kill-work-mid-page', 'kill-work-mid-create', 'kill-work-mid-add'];

export interface FaultEvent {
  fault: Fault;
  /** Seconds after connect. */
  at: number;
  what: string;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function killAndRestartWorks(c: Cluster) {
  await Promise.all(c.works.map((w) => w.kill('SIGKILL')));
  await Promise.all(c.works.map((w) => w.start()));
}

/**
 * Connects `spotifyUser` with `faults` injected, and drives the faults the sandbox cannot inject itself
 * (kills, PostgreSQL, the daily quota). Call `done()` once the runner's work is complete: it stops the
 * watcher and answers the events.
 */
export async function connectWithFaults(c: Cluster, spotifyUser: string, faults: readonly Fault[]) {
  const rules: Array<Rule & { fault: Fault }> = faults.flatMap((f) =>
    (RULES[f] ?? []).map((r) => ({ ...r, fault: f })),
  );
  await c.admin(
    'PUT',
    '/faults',
    rules.map(({ fault: _f, ...r }) => r),
  );
  const runner = await signUpAndConnect(c, spotifyUser);
  const events: FaultEvent[] = [];
  const at = () => Math.round((Date.now() - runner.connectedAt) / 100) / 10;
  const note = (fault: Fault, what: string) => events.push({ fault, at: at(), what });
  let stop = false;
  const killed = new Set<Fault>();

  // Kills: when a held call has started, kill every work process (whichever runs it) and start them again.
  const watcher = (async () => {
    while (!stop) {
      const stats = await c.admin<Array<{ fired: number }>>('GET', '/faults').catch(() => []);
      for (const [i, r] of rules.entries()) {
        if (!KILL_ON.includes(r.fault) || killed.has(r.fault) || !stats[i]?.fired) continue;
        killed.add(r.fault);
        await sleep(1000); // well inside the 8 s hold
        await killAndRestartWorks(c);
        note(
          r.fault,
          `SIGKILL of ${c.works.length} work processes while ${r.method} ${r.path} was in flight; restarted`,
        );
      }
      await sleep(200);
    }
  })();

  // The faults the sandbox does not inject, a few seconds into the scan.
  if (faults.includes('token-expiry')) {
    await sleep(1000);
    await c.admin('POST', '/clock', { advanceSeconds: 3700 });
    note('token-expiry', "the sandbox's clock moved 3,700 s on: every access token expired");
  }
  if (faults.includes('kill-serve')) {
    await sleep(1500);
    await c.serve.kill('SIGKILL');
    note('kill-serve', 'SIGKILL of serve');
    await c.serve.start();
    const who = await api(c, runner.cookie, 'GET', '/api/whoami');
    note('kill-serve', `serve restarted; the session still signs in (whoami ${who.status})`);
    if (who.status !== 200) throw new Error(`the session did not survive a serve restart: ${who.status}`);
  }
  if (faults.includes('restart-postgres')) {
    await sleep(1500);
    await c.restartPostgres(2000);
    note('restart-postgres', 'PostgreSQL stopped (fast shutdown), down 2 s, started again');
  }
  if (faults.includes('quota-exceeded')) {
    note('quota-exceeded', await exhaustDailyQuota(c, runner));
  }

  return {
    runner,
    async done(): Promise<FaultEvent[]> {
      stop = true;
      await watcher;
      const stats = await c.admin<Array<{ fired: number }>>('GET', '/faults');
      for (const [i, r] of rules.entries())
        if (!KILL_ON.includes(r.fault))
          note(
            r.fault,
            `${r.kind}${r.status ? ` ${r.status}` : ''}${r.afterApply ? ' after apply' : ''} on ${r.method} ${r.path}: fired ${stats[i]?.fired ?? 0} of ${r.times}`,
          );
      await c.admin('DELETE', '/faults');
      if (faults.includes('token-expiry')) {
        const t = await tokenRequests(c, runner);
        note('token-expiry', `token refreshes: ${t.ok} answered, ${t.refused} refused`);
      }
      return events.sort((a, b) => a.at - b.at);
    },
  };
}

/**
 * Sets the sandbox's daily quota to what the account has used, so Spotify's next call answers 429
 * QUOTA_EXCEEDED (Retry-After 5-6 s instead of 13-15 h), waits for that answer, then lifts the quota.
 */
async function exhaustDailyQuota(c: Cluster, r: Runner): Promise<string> {
  const before = (await spotifyCalls(c, r)).length;
  const { dailyQuotaUsed } = await c.admin<{ dailyQuotaUsed: number }>('GET', '/usage');
  const quota = (maxRequests: number) => ({
    dailyQuota: { windowSeconds: 86_400, maxRequests, minRetryAfterSeconds: 5, maxRetryAfterSeconds: 6 },
  });
  await c.admin('PUT', '/config', quota(Math.max(1, dailyQuotaUsed)));
  const deadline = Date.now() + 120_000;
  let refused = 0;
  while (Date.now() < deadline && refused === 0) {
    await sleep(250);
    refused = (await spotifyCalls(c, r)).slice(before).filter((x) => x.status === 429 && !x.fault).length;
  }
  await c.admin('PUT', '/config', quota(1_000_000));
  return refused
    ? `daily quota spent: Spotify answered 429 QUOTA_EXCEEDED (Retry-After 5-6 s)`
    : 'no call came within 120 s: QUOTA_EXCEEDED not exercised';
}

/** Refresh-token grants sent to the accounts service since the runner connected (only they are active). */
export async function tokenRequests(c: Cluster, r: Runner): Promise<{ ok: number; refused: number }> {
  const log = await c.admin<Array<{ route: string; method: string; status: number }>>(
    'GET',
    `/requests?service=spotify-accounts&since=${r.sinceSeq}`,
  );
  const grants = log.filter((x) => x.method === 'POST' && x.route.endsWith('/api/token'));
  return {
    ok: grants.filter((x) => x.status === 200).length,
    refused: grants.filter((x) => x.status !== 200).length,
  };
}
