// Metrics on the real test PostgreSQL: the gauges read from SQL at scrape time, the HTTP and Spotify
// counters, the estimator's histogram, the listener with its token, and a database that does not answer.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { PgBoss } from 'pg-boss';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { inject } from 'vitest';
import { buildTestApp } from '../../test/accounts-app.ts';
import { startMetricsServer } from '../http/metrics-server.ts';
import { startHarness, type Harness } from '../spotify/sandbox-harness.test-helper.ts';
import { registerCoreGauges } from './core-gauges.ts';
import { createMetrics, type Metrics } from './metrics.ts';
import { createMetricsRepository } from './metrics.repository.ts';

/** The value of one series after a scrape, or undefined when it is absent. */
async function series(metrics: Metrics, name: string, labels: Record<string, string> = {}) {
  await metrics.render();
  const metric = (await metrics.registry.getMetricsAsJSON()).find((m) => m.name === name);
  const match = metric?.values.find((v) =>
    Object.entries(labels).every(([k, want]) => String((v.labels as Record<string, unknown>)[k]) === want),
  );
  return match?.value;
}

describe('gauges read from PostgreSQL at scrape time', () => {
  let h: Harness;
  let boss: PgBoss;
  let metrics: Metrics;
  const budgetKey = `metrics-${randomUUID()}`;
  const jobSchema = `pgboss_metrics_${randomUUID().slice(0, 8)}`;
  const source = `metrics-test-${randomUUID().slice(0, 8)}`;
  const endpoint = `GET /metrics-test/${randomUUID().slice(0, 8)}`;

  beforeAll(async () => {
    h = await startHarness();
    boss = new PgBoss({
      connectionString: inject('databaseUrl'),
      schema: jobSchema,
      supervise: false,
      schedule: false,
    });
    await boss.start();
    await boss.createQueue('metrics-test');
    await boss.send('metrics-test', {});
    await boss.send('metrics-test', {}, { startAfter: 3600 });
    const repo = createMetricsRepository(h.db.db, { jobSchema });
    metrics = createMetrics({ pingDatabase: () => repo.ping() });
    registerCoreGauges(metrics, repo, { key: budgetKey, ratePer30s: 100, dailyQuota: 1000 });
    const db = h.db.db;
    await db.execute(
      sql`insert into spotify_call_slots (budget, priority) values (${budgetKey}, 0), (${budgetKey}, 2), (${budgetKey}, 2)`,
    );
    await db.execute(
      sql`insert into spotify_call_slots (budget, at, priority) values (${budgetKey}, now() - interval '2 hours', 2)`,
    );
    await db.execute(
      sql`insert into spotify_cooldowns (budget, kind, until) values (${budgetKey}, 'quota', now() + interval '2 hours')`,
    );
    await db.execute(sql`insert into spotify_call_ledger (day, user_key, endpoint, purpose, priority, calls, failures)
      values ((clock_timestamp() at time zone 'UTC')::date, 'u1', ${endpoint}, 'scan:liked', 2, 7, 2),
             ((clock_timestamp() at time zone 'UTC')::date, 'u2', ${endpoint}, 'scan:liked', 2, 3, 0),
             ((clock_timestamp() at time zone 'UTC')::date - 1, 'u1', ${endpoint}, 'scan:liked', 2, 50, 0)`);
    await db.execute(sql`insert into tempo_recordings (key, bpm, source) values
      (${`k1-${source}`}, 170, ${source}), (${`k2-${source}`}, 172, ${source}), (${`k3-${source}`}, null, ${source})`);
    await db.execute(
      sql`insert into tempo_service_limits (service, next_at, cooldown_until) values (${source}, now(), now() + interval '10 minutes')`,
    );
  });
  afterAll(async () => {
    await boss.stop({ graceful: false, close: true });
    await h.db.db.execute(sql`drop schema ${sql.identifier(jobSchema)} cascade`);
    await h.close();
  });

  it('shows the daily and 30 s budget used, limited and remaining, and the cooldowns', async () => {
    expect(await series(metrics, 'pacebeat_database_up')).toBe(1);
    expect(await series(metrics, 'pacebeat_spotify_budget_used_calls', { window: '24h' })).toBe(4);
    expect(await series(metrics, 'pacebeat_spotify_budget_used_calls', { window: '30s' })).toBe(3);
    expect(await series(metrics, 'pacebeat_spotify_budget_limit_calls', { window: '24h' })).toBe(1000);
    expect(await series(metrics, 'pacebeat_spotify_budget_remaining_calls', { window: '24h' })).toBe(996);
    expect(await series(metrics, 'pacebeat_spotify_budget_remaining_calls', { window: '30s' })).toBe(97);
    const quota = (await series(metrics, 'pacebeat_spotify_cooldown_seconds', { kind: 'quota' }))!;
    expect(quota).toBeGreaterThan(7100);
    expect(quota).toBeLessThanOrEqual(7200);
    expect(await series(metrics, 'pacebeat_spotify_cooldown_seconds', { kind: 'rate' })).toBe(0);
  });

  it("sums today's ledger over users, by endpoint, purpose and result", async () => {
    const labels = { endpoint, purpose: 'scan:liked' };
    expect(await series(metrics, 'pacebeat_spotify_calls_today', { ...labels, result: 'ok' })).toBe(8);
    expect(await series(metrics, 'pacebeat_spotify_calls_today', { ...labels, result: 'failed' })).toBe(2);
  });

  it('counts jobs by queue and state, deferred apart from queued', async () => {
    expect(await series(metrics, 'pacebeat_jobs', { queue: 'metrics-test', state: 'queued' })).toBe(1);
    expect(await series(metrics, 'pacebeat_jobs', { queue: 'metrics-test', state: 'deferred' })).toBe(1);
  });

  it('counts tempo recordings with and without a tempo by source, and tempo services cooling down', async () => {
    expect(await series(metrics, 'pacebeat_tempo_recordings', { source, tempo: 'known' })).toBe(2);
    expect(await series(metrics, 'pacebeat_tempo_recordings', { source, tempo: 'unknown' })).toBe(1);
    const cooldown = (await series(metrics, 'pacebeat_tempo_service_cooldown_seconds', { service: source }))!;
    expect(cooldown).toBeGreaterThan(500);
    expect(cooldown).toBeLessThanOrEqual(600);
  });

  it('takes gauges that features add (the extension point), and counts one that fails', async () => {
    metrics.addSqlGauge({
      name: 'pacebeat_test_scans_in_progress',
      help: 'a feature gauge',
      labelNames: ['kind'],
      read: async () => [{ labels: { kind: 'liked_songs' }, value: 2 }],
    });
    metrics.addSqlGauge({
      name: 'pacebeat_test_broken',
      help: 'a gauge whose SQL fails',
      read: () => h.db.db.execute(sql`select * from no_such_table`).then(() => []),
    });
    expect(await series(metrics, 'pacebeat_test_scans_in_progress', { kind: 'liked_songs' })).toBe(2);
    expect(
      await series(metrics, 'pacebeat_metrics_sql_errors_total', { gauge: 'pacebeat_test_broken' }),
    ).toBeGreaterThan(0);
    expect(await series(metrics, 'pacebeat_database_up')).toBe(1);
  });
});

describe('when the database does not answer', () => {
  it('says pacebeat_database_up 0 and leaves the SQL gauges out, within the time limit', async () => {
    const metrics = createMetrics({ pingDatabase: () => new Promise(() => undefined), timeoutMs: 200 });
    let reads = 0;
    metrics.addSqlGauge({
      name: 'pacebeat_test_value',
      help: 'x',
      read: async () => (reads++, [{ value: 1 }]),
    });
    const text = await metrics.render();
    expect(text).toMatch(/^pacebeat_database_up 0$/m);
    expect(text).not.toMatch(/^pacebeat_test_value /m);
    expect(reads).toBe(0);
    expect(text).toMatch(/^pacebeat_process_resident_memory_bytes \d+/m); // the process's own still show
  });
});

describe('process-local counters', () => {
  it('counts HTTP requests by route pattern and status, never by raw URL', async () => {
    const metrics = createMetrics({ pingDatabase: async () => undefined });
    const t = await buildTestApp({ metrics });
    try {
      await t.app.inject({ method: 'GET', url: '/api/ping?sudo=x' });
      await t.app.inject({ method: 'GET', url: '/api/ping' });
      await t.app.inject({ method: 'GET', url: '/api/no/such/thing/123' });
      await t.app.inject({ method: 'GET', url: '/healthz' });
    } finally {
      await t.close();
    }
    const text = await metrics.render();
    expect(text).toMatch(
      /^pacebeat_http_request_duration_seconds_count\{method="GET",route="\/api\/ping",status="401"\} 2$/m,
    );
    expect(text).toMatch(
      /^pacebeat_http_request_duration_seconds_count\{method="GET",route="unmatched",status="404"\} 1$/m,
    );
    expect(text).toMatch(
      /^pacebeat_http_request_duration_seconds_count\{method="GET",route="\/healthz",status="200"\} 1$/m,
    );
    expect(text).not.toContain('/api/no/such');
  });

  it('counts Spotify requests by endpoint, purpose and status through the client hook', async () => {
    const metrics = createMetrics({ pingDatabase: async () => undefined });
    const h = await startHarness();
    try {
      const p = h.process({ observe: metrics.spotifyRequest });
      const userId = await h.newUser();
      const spotifyUser = h.sandbox.admin.createUser({ username: `m${randomUUID().slice(0, 8)}` });
      const token = h.sandbox.admin.connect({ userId: spotifyUser.id });
      await p.connect.connect(userId, { ...token, refresh_token: token.refresh_token! });
    } finally {
      await h.close();
    }
    const text = await metrics.render();
    expect(text).toMatch(
      /^pacebeat_spotify_requests_total\{endpoint="GET \/me",purpose="connect",status="200"\} 1$/m,
    );
  });

  it('times the estimator per clip, by outcome', async () => {
    const metrics = createMetrics({ pingDatabase: async () => undefined });
    const estimate = metrics.timeEstimator(async (bpm: number | null) => {
      if (bpm === -1) throw new Error('worker died');
      return { bpm };
    });
    await estimate(170);
    await estimate(null);
    await expect(estimate(-1)).rejects.toThrow('worker died');
    const text = await metrics.render();
    for (const outcome of ['tempo', 'no_tempo', 'error']) {
      expect(text).toMatch(
        new RegExp(`^pacebeat_tempo_estimator_seconds_count\\{outcome="${outcome}"\\} 1$`, 'm'),
      );
    }
  });
});

describe('the /metrics listener', () => {
  it('answers the exposition format to a scraper with the token, 401 without, 404 elsewhere', async () => {
    const metrics = createMetrics({ pingDatabase: async () => undefined });
    const token = 'a-long-enough-metrics-token';
    const server = await startMetricsServer(metrics, {
      host: '127.0.0.1',
      port: 0,
      token,
      log: pino({ level: 'silent' }),
    });
    const base = `http://127.0.0.1:${server.port}`;
    try {
      expect((await fetch(`${base}/metrics`)).status).toBe(401);
      expect((await fetch(`${base}/metrics`, { headers: { authorization: 'Bearer wrong' } })).status).toBe(
        401,
      );
      const ok = await fetch(`${base}/metrics`, { headers: { authorization: `Bearer ${token}` } });
      expect(ok.status).toBe(200);
      expect(ok.headers.get('content-type')).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(await ok.text()).toMatch(/^# TYPE pacebeat_http_request_duration_seconds histogram$/m);
      expect((await fetch(`${base}/other`, { headers: { authorization: `Bearer ${token}` } })).status).toBe(
        404,
      );
    } finally {
      await server.close();
    }
  });
});
