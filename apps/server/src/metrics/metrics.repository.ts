// The SQL the metrics read at scrape time: counts over the shared tables (Spotify budget and ledger,
// pg-boss's jobs, the tempo cache). Read-only; every number is the whole installation's.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  spotifyAccounts,
  spotifyBudgetState,
  spotifyCallLedger,
  spotifyCallSlots,
  spotifyCooldowns,
} from '../db/spotify.schema.ts';
import { tempoRecordings, tempoServiceLimits } from '../db/tempo.schema.ts';
import { users } from '../db/schema.ts';
import { DAILY_WINDOW_MS, RATE_WINDOW_MS } from '../spotify/budget.ts';
import { LEARNED_RATE_TTL_MS } from '../spotify/budget.repository.ts';

const num = (v: unknown) => Number(v ?? 0);

/** `jobSchema`: pg-boss's schema (app/job-registry.ts `createBoss` builds it with `schema: 'pgboss'`). */
export function createMetricsRepository(db: Db, o: { jobSchema?: string } = {}) {
  const jobSchema = o.jobSchema ?? 'pgboss';
  if (!/^[a-z_][a-z0-9_]*$/.test(jobSchema)) throw new Error(`bad job schema name: ${jobSchema}`);
  const jobTable = `${jobSchema}.job`;
  return {
    async ping(): Promise<void> {
      await db.execute(sql`select 1`);
    },

    /** Calls in the rolling windows, the learned rate and the cooldowns' remaining seconds, of one budget. */
    async spotifyBudget(budget: string) {
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        select
          (select count(*) from ${spotifyCallSlots} where ${spotifyCallSlots.budget} = ${budget}
             and ${spotifyCallSlots.at} > now() - ${`${DAILY_WINDOW_MS} milliseconds`}::interval) as in_day,
          (select count(*) from ${spotifyCallSlots} where ${spotifyCallSlots.budget} = ${budget}
             and ${spotifyCallSlots.at} > now() - ${`${RATE_WINDOW_MS} milliseconds`}::interval) as in_rate,
          (select ${spotifyBudgetState.learnedRate} from ${spotifyBudgetState}
             where ${spotifyBudgetState.budget} = ${budget}
               and ${spotifyBudgetState.learnedAt} > now() - ${`${LEARNED_RATE_TTL_MS} milliseconds`}::interval) as learned_rate,
          (select greatest(0, extract(epoch from max(${spotifyCooldowns.until}) - now())) from ${spotifyCooldowns}
             where ${spotifyCooldowns.budget} = ${budget} and ${spotifyCooldowns.kind} = 'rate') as rate_cooldown,
          (select greatest(0, extract(epoch from max(${spotifyCooldowns.until}) - now())) from ${spotifyCooldowns}
             where ${spotifyCooldowns.budget} = ${budget} and ${spotifyCooldowns.kind} = 'quota') as quota_cooldown`);
      const r = rows[0] ?? {};
      return {
        inDay: num(r.in_day),
        inRate: num(r.in_rate),
        learnedRate: r.learned_rate == null ? null : num(r.learned_rate),
        rateCooldownSeconds: num(r.rate_cooldown),
        quotaCooldownSeconds: num(r.quota_cooldown),
      };
    },

    /** Today's (UTC) ledger, all users together, by endpoint and purpose. */
    async spotifyLedgerToday() {
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        select ${spotifyCallLedger.endpoint} as endpoint, ${spotifyCallLedger.purpose} as purpose,
               sum(${spotifyCallLedger.calls}) as calls, sum(${spotifyCallLedger.failures}) as failures
        from ${spotifyCallLedger}
        where ${spotifyCallLedger.day} = (clock_timestamp() at time zone 'UTC')::date
        group by 1, 2`);
      return rows.map((r) => ({
        endpoint: String(r.endpoint),
        purpose: String(r.purpose),
        calls: num(r.calls),
        failures: num(r.failures),
      }));
    },

    /** Users, and their Spotify accounts connected and usable or disabled (Spotify refused them). */
    async accounts() {
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        select (select count(*) from ${users}) as users,
               (select count(*) from ${spotifyAccounts} where ${spotifyAccounts.disabledReason} is null) as connected,
               (select count(*) from ${spotifyAccounts} where ${spotifyAccounts.disabledReason} is not null) as disabled`);
      const r = rows[0] ?? {};
      return { users: num(r.users), connected: num(r.connected), disabled: num(r.disabled) };
    },

    /**
     * Jobs by queue and state. pg-boss's `created` is split into `queued` (may run now) and `deferred`
     * (waits for its start time, e.g. a Spotify cooldown). Empty before pg-boss created its tables.
     */
    async jobs() {
      const { rows: found } = await db.execute<{ ok: boolean }>(
        sql`select to_regclass(${jobTable}) is not null as ok`,
      );
      if (!found[0]?.ok) return [];
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        select name as queue,
               case when state = 'created' and start_after > now() then 'deferred'
                    when state = 'created' then 'queued'
                    else state::text end as state,
               count(*) as jobs
        from ${sql.raw(jobTable)}
        group by 1, 2`);
      return rows.map((r) => ({ queue: String(r.queue), state: String(r.state), jobs: num(r.jobs) }));
    },

    /** Recordings in the tempo cache, by source, with and without a tempo. */
    async tempoRecordings() {
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        select coalesce(${tempoRecordings.source}, 'none') as source, ${tempoRecordings.bpm} is not null as known,
               count(*) as recordings
        from ${tempoRecordings}
        group by 1, 2`);
      return rows.map((r) => ({
        source: String(r.source),
        known: r.known === true,
        recordings: num(r.recordings),
      }));
    },

    /** Seconds left of each tempo service's cooldown (0 when none). */
    async tempoCooldowns() {
      const { rows } = await db.execute<Record<string, unknown>>(sql`
        select ${tempoServiceLimits.service} as service,
               greatest(0, coalesce(extract(epoch from ${tempoServiceLimits.cooldownUntil} - now()), 0)) as seconds
        from ${tempoServiceLimits}`);
      return rows.map((r) => ({ service: String(r.service), seconds: num(r.seconds) }));
    },
  };
}
export type MetricsRepository = ReturnType<typeof createMetricsRepository>;
