// The gauges every installation has, read from PostgreSQL at scrape time: the Spotify budget and its
// cooldowns, today's calls, accounts, jobs, and the tempo cache. Features add theirs the same way
// (`metrics.addSqlGauge`), from their own repository.
import type { Metrics } from './metrics.ts';
import type { MetricsRepository } from './metrics.repository.ts';

export interface BudgetSettings {
  /** The budget key (the Spotify client id) whose windows are shown. */
  key: string;
  ratePer30s: number | null;
  dailyQuota: number | null;
}

/** One read shared by the gauges of one scrape (they are collected together). */
function sharedRead<T>(read: () => Promise<T>, ttlMs = 1000): () => Promise<T> {
  let last: { at: number; value: Promise<T> } | undefined;
  return () => {
    if (!last || Date.now() - last.at > ttlMs) last = { at: Date.now(), value: read() };
    return last.value;
  };
}

export function registerCoreGauges(
  metrics: Metrics,
  repo: MetricsRepository,
  /** The budget in force, or how to read it (the Spotify app may change while running). */
  budgetNow: BudgetSettings | (() => Promise<BudgetSettings>),
): void {
  const current = async () => (typeof budgetNow === 'function' ? budgetNow() : budgetNow);
  const readBudget = sharedRead(async () => {
    const budget = await current();
    return { ...(await repo.spotifyBudget(budget.key)), budget };
  });
  /** The 30 s limit in force: the setting, or the lower rate learned from a 429 (for a day). */
  const limits = async () => {
    const b = await readBudget();
    const budget = b.budget;
    const rate = [budget.ratePer30s, b.learnedRate].filter((v): v is number => v !== null);
    return { b, limit: { '24h': budget.dailyQuota, '30s': rate.length ? Math.min(...rate) : null } };
  };
  const used = (b: { inDay: number; inRate: number }) => ({ '24h': b.inDay, '30s': b.inRate });

  metrics.addSqlGauge({
    name: 'pacebeat_spotify_budget_used_calls',
    help: 'Spotify calls made in the rolling window (24h: the daily quota, 30s: the rate limit), all processes',
    labelNames: ['window'],
    read: async () => {
      const u = used(await readBudget());
      return [
        { labels: { window: '24h' }, value: u['24h'] },
        { labels: { window: '30s' }, value: u['30s'] },
      ];
    },
  });
  metrics.addSqlGauge({
    name: 'pacebeat_spotify_budget_limit_calls',
    help: 'Calls allowed in the rolling window (SPOTIFY_DAILY_QUOTA; SPOTIFY_RATE_PER_30S or the lower learned rate); absent when unlimited',
    labelNames: ['window'],
    read: async () => {
      const { limit } = await limits();
      return (['24h', '30s'] as const)
        .filter((w) => limit[w] !== null)
        .map((w) => ({ labels: { window: w }, value: limit[w]! }));
    },
  });
  metrics.addSqlGauge({
    name: 'pacebeat_spotify_budget_remaining_calls',
    help: 'Calls left in the rolling window (limit minus used, at least 0); absent when unlimited',
    labelNames: ['window'],
    read: async () => {
      const { b, limit } = await limits();
      const u = used(b);
      return (['24h', '30s'] as const)
        .filter((w) => limit[w] !== null)
        .map((w) => ({ labels: { window: w }, value: Math.max(0, limit[w]! - u[w]) }));
    },
  });
  metrics.addSqlGauge({
    name: 'pacebeat_spotify_cooldown_seconds',
    help: 'Seconds until Spotify work may go on (rate: after a 429; quota: after QUOTA_EXCEEDED); 0 when none',
    labelNames: ['kind'],
    read: async () => {
      const b = await readBudget();
      return [
        { labels: { kind: 'rate' }, value: b.rateCooldownSeconds },
        { labels: { kind: 'quota' }, value: b.quotaCooldownSeconds },
      ];
    },
  });
  metrics.addSqlGauge({
    name: 'pacebeat_spotify_calls_today',
    help: "Spotify calls counted in today's ledger (UTC day), all users and processes, by endpoint, purpose and result",
    labelNames: ['endpoint', 'purpose', 'result'],
    read: async () =>
      (await repo.spotifyLedgerToday()).flatMap((r) => [
        { labels: { endpoint: r.endpoint, purpose: r.purpose, result: 'ok' }, value: r.calls - r.failures },
        { labels: { endpoint: r.endpoint, purpose: r.purpose, result: 'failed' }, value: r.failures },
      ]),
  });
  const readAccounts = sharedRead(() => repo.accounts());
  metrics.addSqlGauge({
    name: 'pacebeat_users',
    help: 'Pacebeat accounts',
    read: async () => [{ value: (await readAccounts()).users }],
  });
  metrics.addSqlGauge({
    name: 'pacebeat_spotify_accounts',
    help: 'Connected Spotify accounts: usable, or disabled (Spotify refused them; the user must reconnect)',
    labelNames: ['state'],
    read: async () => {
      const a = await readAccounts();
      return [
        { labels: { state: 'connected' }, value: a.connected },
        { labels: { state: 'disabled' }, value: a.disabled },
      ];
    },
  });
  metrics.addSqlGauge({
    name: 'pacebeat_jobs',
    help: 'Background jobs by queue and state (queued, deferred, retry, active, completed, cancelled, failed; finished ones until pg-boss deletes them)',
    labelNames: ['queue', 'state'],
    read: async () =>
      (await repo.jobs()).map((r) => ({ labels: { queue: r.queue, state: r.state }, value: r.jobs })),
  });
  metrics.addSqlGauge({
    name: 'pacebeat_tempo_recordings',
    help: 'Recordings in the shared tempo cache, by the source of their tempo (none when unknown) and whether one is known',
    labelNames: ['source', 'tempo'],
    read: async () =>
      (await repo.tempoRecordings()).map((r) => ({
        labels: { source: r.source, tempo: r.known ? 'known' : 'unknown' },
        value: r.recordings,
      })),
  });
  metrics.addSqlGauge({
    name: 'pacebeat_tempo_service_cooldown_seconds',
    help: 'Seconds until a tempo service (reccobeats, deezer, deezer-preview, getsongbpm) is asked again after a 429, quota or failures; 0 when none',
    labelNames: ['service'],
    read: async () =>
      (await repo.tempoCooldowns()).map((r) => ({ labels: { service: r.service }, value: r.seconds })),
  });
}
