// The shared Spotify call budget, cooldowns, capabilities and ledger: the only SQL on those tables.
// Every process reserves a slot here before it calls Spotify, under one advisory lock, using the
// database clock, so the windows hold across any number of processes.
import { and, eq, gt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import {
  spotifyAccounts,
  spotifyBudgetState,
  spotifyCallLedger,
  spotifyCallSlots,
  spotifyCapabilities,
  spotifyCooldowns,
} from '../db/spotify.schema.ts';
import {
  allowance,
  CEILINGS,
  DAILY_WINDOW_MS,
  PACE_WINDOW_MS,
  paceAllowance,
  priorityCode,
  RATE_SAFETY_MS,
  RATE_WINDOW_MS,
  runnerShare,
  type BudgetLimits,
  type Priority,
} from './budget.ts';

/**
 * A learned rate limit is trusted this long; then the setting applies again until the next 429. An hour:
 * a limit that really is lower costs one more 429 (and its Retry-After pause) an hour, while a 429 that said
 * little about the rate (Spotify's own load, a burst) does not slow every process for a day.
 */
export const LEARNED_RATE_TTL_MS = 3600_000;

/**
 * The lowest rate a 429 can teach, per 30 s. A 429 after a quiet spell (fewer calls than this in the 30 s
 * before it) is not a rate Spotify's limit can be: its Retry-After pause is kept, nothing more is learned
 * below this. Development-mode apps are reported to get far more than this per 30 s.
 */
export const LEARNED_RATE_FLOOR = 10;

const effectiveRate = (setting: number | null, learned: number | null) =>
  learned === null ? setting : setting === null ? learned : Math.min(setting, learned);

export type Reservation =
  | { granted: true; at: Date }
  | { granted: false; reason: 'rate' | 'quota' | 'share'; retryAt: Date; cooldown: boolean };

export interface LedgerEntry {
  userKey: string;
  endpoint: string;
  purpose: string;
  priority: Priority;
}

/**
 * A call outside the runner's own share of the day: the first read of their own library after a connect
 * (Liked Songs, their playlists, followed artists; never the catalogs). A runner who reconnects the same
 * day has often used their share already, and their library is what they wait for. It stays under the
 * installation's day (with the priorities' ceilings) and the rate; it is bounded by the library's size
 * (one call per 50 songs, playlists or artists), so the other runners' shares keep all but that.
 */
export interface ReserveOptions {
  beyondShare?: boolean;
}

/** The ledger key of calls made for users who have since disconnected. */
export const LEDGER_GONE_KEY = 'gone';

/**
 * The runner's calls of the last 24 h, and the runners sharing the day: those still connected who made a
 * call in it, and this one (for the `runnerShare`). Counting the day's runners rather than every account
 * row keeps a budget's share to the runners of that budget (one Spotify app; each test has its own).
 */
const runnerCounts = (budget: string, userKey: string) => sql`
  (select count(*) from ${spotifyCallSlots}
    where ${spotifyCallSlots.budget} = ${budget} and ${spotifyCallSlots.userKey} = ${userKey}
      and ${spotifyCallSlots.at} > t.now - ${`${DAILY_WINDOW_MS} milliseconds`}::interval) as in_day_runner,
  (select 1 + count(distinct ${spotifyCallSlots.userKey}) from ${spotifyCallSlots}
    join ${spotifyAccounts} on ${spotifyAccounts.userId}::text = ${spotifyCallSlots.userKey}
      and ${spotifyAccounts.disabledReason} is null
    where ${spotifyCallSlots.budget} = ${budget} and ${spotifyCallSlots.userKey} <> ${userKey}
      and ${spotifyCallSlots.at} > t.now - ${`${DAILY_WINDOW_MS} milliseconds`}::interval) as runners,`;

export function createBudgetRepository(db: Db) {
  /** Adds calls and failures to today's ledger row of this user, endpoint and purpose. */
  async function addToLedger(entry: LedgerEntry, calls: number, failures: number): Promise<void> {
    await db
      .insert(spotifyCallLedger)
      .values({
        day: sql`(clock_timestamp() at time zone 'UTC')::date`,
        userKey: entry.userKey,
        endpoint: entry.endpoint,
        purpose: entry.purpose,
        priority: priorityCode(entry.priority),
        calls,
        failures,
      })
      .onConflictDoUpdate({
        target: [
          spotifyCallLedger.day,
          spotifyCallLedger.userKey,
          spotifyCallLedger.endpoint,
          spotifyCallLedger.purpose,
        ],
        set: {
          calls: sql`${spotifyCallLedger.calls} + ${calls}`,
          failures: sql`${spotifyCallLedger.failures} + ${failures}`,
        },
      });
  }

  /** Whether a call of `priority` for `userKey` may go now, or when it may; takes nothing. */
  async function check(
    tx: Pick<Db, 'execute'>,
    limits: BudgetLimits,
    priority: Priority,
    userKey: string,
    opts: ReserveOptions = {},
  ): Promise<Reservation> {
    const rateMs = RATE_WINDOW_MS + RATE_SAFETY_MS;
    const paceMs = PACE_WINDOW_MS + RATE_SAFETY_MS;
    // One round trip for the clock, the cooldowns, the windows' counts and the runner's.
    const state = await tx.execute<{
      now: Date;
      cooldown_until: Date | null;
      quota_cooldown: boolean | null;
      in_rate: string;
      in_pace: string;
      in_day: string;
      in_day_runner: string;
      runners: string;
      learned_rate: number | null;
    }>(sql`
      -- A slot's time is kept to the millisecond (what a JS Date carries back) and never repeats within a
      -- budget: learnRate counts the slots before a refused one by time, and two calls in one millisecond
      -- made one of them uncounted (a learned rate one too low).
      with t as (
        select greatest(
          date_trunc('milliseconds', clock_timestamp()),
          (select max(${spotifyCallSlots.at}) + interval '1 millisecond' from ${spotifyCallSlots}
            where ${spotifyCallSlots.budget} = ${limits.key})
        ) as now
      )
      select t.now,
        (select max(${spotifyCooldowns.until}) from ${spotifyCooldowns}
          where ${spotifyCooldowns.budget} = ${limits.key} and ${spotifyCooldowns.until} > t.now) as cooldown_until,
        (select bool_or(${spotifyCooldowns.kind} = 'quota') from ${spotifyCooldowns}
          where ${spotifyCooldowns.budget} = ${limits.key} and ${spotifyCooldowns.until} > t.now) as quota_cooldown,
        (select count(*) from ${spotifyCallSlots}
          where ${spotifyCallSlots.budget} = ${limits.key}
            and ${spotifyCallSlots.at} > t.now - ${`${rateMs} milliseconds`}::interval) as in_rate,
        (select count(*) from ${spotifyCallSlots}
          where ${spotifyCallSlots.budget} = ${limits.key}
            and ${spotifyCallSlots.at} > t.now - ${`${paceMs} milliseconds`}::interval) as in_pace,
        (select count(*) from ${spotifyCallSlots}
          where ${spotifyCallSlots.budget} = ${limits.key}
            and ${spotifyCallSlots.at} > t.now - ${`${DAILY_WINDOW_MS} milliseconds`}::interval) as in_day,
        ${limits.dailyQuota === null ? sql`0 as in_day_runner, 1 as runners,` : runnerCounts(limits.key, userKey)}
        (select ${spotifyBudgetState.learnedRate} from ${spotifyBudgetState}
          where ${spotifyBudgetState.budget} = ${limits.key}
            and ${spotifyBudgetState.learnedAt} > t.now - ${`${LEARNED_RATE_TTL_MS} milliseconds`}::interval) as learned_rate
      from t`);
    const row = state.rows[0]!;
    const now = new Date(row.now);
    if (row.cooldown_until) {
      return {
        granted: false,
        reason: row.quota_cooldown ? 'quota' : 'rate',
        retryAt: new Date(row.cooldown_until),
        cooldown: true,
      };
    }
    const rate = effectiveRate(limits.ratePer30s, row.learned_rate);
    const ceiling = CEILINGS[priority];
    const windows = [
      {
        kind: 'rate' as const,
        limit: rate,
        allowed: (l: number) => allowance(l, ceiling.rate),
        ms: rateMs,
        used: Number(row.in_rate),
      },
      // The rate's last PACE_WINDOW_MS, for every priority below what a person waits on.
      {
        kind: 'rate' as const,
        limit: priority === 'interactive' ? null : rate,
        allowed: (l: number) => paceAllowance(l, ceiling.rate),
        ms: paceMs,
        used: Number(row.in_pace),
      },
      // The installation's day, with the priorities' ceilings over all calls together: whatever shares the
      // runners had when they made them, 40 % of the day stays free of catalogs and 20 % of scans, for what
      // the runners wait for and their playlists.
      {
        kind: 'quota' as const,
        limit: limits.dailyQuota,
        allowed: (l: number) => allowance(l, ceiling.daily),
        ms: DAILY_WINDOW_MS,
        used: Number(row.in_day),
      },
      // The runner's own fair share of the day, with their priorities inside it.
      {
        kind: 'share' as const,
        limit:
          limits.dailyQuota === null || opts.beyondShare
            ? null
            : runnerShare(limits.dailyQuota, Number(row.runners)),
        allowed: (l: number) => allowance(l, ceiling.daily),
        ms: DAILY_WINDOW_MS,
        used: Number(row.in_day_runner),
      },
    ];
    for (const w of windows) {
      if (w.limit === null) continue;
      const allowed = w.allowed(w.limit);
      if (w.used < allowed) continue;
      // The slot that frees us is the (used - allowed + 1)-th oldest of the window (the runner's own).
      const since = new Date(now.getTime() - w.ms);
      const runnerOnly = w.kind === 'share' ? sql`and ${spotifyCallSlots.userKey} = ${userKey}` : sql``;
      const freeing = await tx.execute<{ at: Date }>(
        sql`select ${spotifyCallSlots.at} as at from ${spotifyCallSlots}
            where ${spotifyCallSlots.budget} = ${limits.key} and ${spotifyCallSlots.at} > ${since} ${runnerOnly}
            order by ${spotifyCallSlots.at} offset ${w.used - allowed} limit 1`,
      );
      const oldest = freeing.rows[0] ? new Date(freeing.rows[0].at) : now;
      return {
        granted: false,
        reason: w.kind,
        retryAt: new Date(oldest.getTime() + w.ms + 1),
        cooldown: false,
      };
    }
    return { granted: true, at: now };
  }

  return {
    /**
     * Takes one call slot for `priority` if the cooldowns, both rolling windows and the runner's share of
     * the day allow it, and counts the call in the ledger in the same transaction. Otherwise says when to
     * try again.
     */
    async reserve(
      limits: BudgetLimits,
      priority: Priority,
      entry: LedgerEntry,
      opts: ReserveOptions = {},
    ): Promise<Reservation> {
      return db.transaction(async (tx) => {
        // A slot lost in a crash costs nothing, so this transaction does not wait for the disk.
        await tx.execute(
          sql`select set_config('synchronous_commit', 'off', true),
                     pg_advisory_xact_lock(hashtextextended(${`spotify-budget:${limits.key}`}, 0))`,
        );
        const verdict = await check(tx, limits, priority, entry.userKey, opts);
        if (!verdict.granted) return verdict;
        const now = verdict.at;
        // The slot and the ledger count in one statement.
        await tx.execute(sql`
          with slot as (
            insert into ${spotifyCallSlots} (budget, at, priority, user_key)
            values (${limits.key}, ${now}, ${priorityCode(priority)}, ${entry.userKey})
          )
          insert into ${spotifyCallLedger} (day, user_key, endpoint, purpose, priority, calls, failures)
          values ((${now}::timestamptz at time zone 'UTC')::date, ${entry.userKey}, ${entry.endpoint},
                  ${entry.purpose}, ${priorityCode(entry.priority)}, 1, 0)
          on conflict (day, user_key, endpoint, purpose)
          do update set calls = ${spotifyCallLedger}.calls + 1`);
        // Keep one day of slots (the longest window); pruning now and then is enough.
        if (Math.random() < 0.02) {
          await tx.execute(
            sql`delete from ${spotifyCallSlots}
                where ${spotifyCallSlots.budget} = ${limits.key}
                  and ${spotifyCallSlots.at} < ${new Date(now.getTime() - DAILY_WINDOW_MS)}`,
          );
        }
        return { granted: true, at: now };
      });
    },

    /**
     * After a rate-limit 429 to the call whose slot was taken at `refusedAt`: Spotify let through the calls
     * of the 30 s before it, so that many is its limit (calls still in flight when the 429 came back are
     * not counted), but never below LEARNED_RATE_FLOOR. Every process uses it (if lower than the setting)
     * for LEARNED_RATE_TTL_MS.
     */
    async learnRate(budget: string, refusedAt: Date): Promise<number> {
      const rows = await db.execute<{ learned: number }>(sql`
        with seen as (
          select greatest(${LEARNED_RATE_FLOOR}::int, count(*))::int as n from ${spotifyCallSlots}
          where ${spotifyCallSlots.budget} = ${budget}
            and ${spotifyCallSlots.at} < ${refusedAt}
            and ${spotifyCallSlots.at} > ${new Date(refusedAt.getTime() - RATE_WINDOW_MS)}
        )
        insert into ${spotifyBudgetState} (budget, learned_rate, learned_at)
        select ${budget}, n, clock_timestamp() from seen
        on conflict (budget) do update set
          learned_rate = case when ${spotifyBudgetState.learnedAt} > clock_timestamp() - ${`${LEARNED_RATE_TTL_MS} milliseconds`}::interval
                              then least(${spotifyBudgetState.learnedRate}, excluded.learned_rate)
                              else excluded.learned_rate end,
          learned_at = excluded.learned_at
        returning learned_rate as learned`);
      return rows.rows[0]!.learned;
    },

    /**
     * When a call of `priority` for `userKey` could go, or null when it could now: the same rules as
     * `reserve`, taking nothing (the status page, "Refresh now").
     */
    async waitsUntil(
      limits: BudgetLimits,
      priority: Priority,
      userKey: string,
    ): Promise<{ until: Date; reason: 'rate' | 'quota' | 'share' } | null> {
      const verdict = await check(db, limits, priority, userKey);
      return verdict.granted ? null : { until: verdict.retryAt, reason: verdict.reason };
    },

    /** Counts a failed call (the call itself was counted at reservation). */
    countFailure: (entry: LedgerEntry) => addToLedger(entry, 0, 1),

    /** Counts a call that did not go through the budget (the accounts service's token endpoint). */
    countUnbudgeted: (entry: LedgerEntry, failed: boolean) => addToLedger(entry, 1, failed ? 1 : 0),

    /** Puts every process into a cooldown of `kind` for `ms` from now (database clock); never shortens one. */
    async setCooldown(budget: string, kind: 'rate' | 'quota', ms: number, detail: string): Promise<Date> {
      const rows = await db
        .insert(spotifyCooldowns)
        .values({
          budget,
          kind,
          until: sql`clock_timestamp() + ${`${Math.max(0, Math.ceil(ms))} milliseconds`}::interval`,
          setAt: sql`clock_timestamp()`,
          detail,
        })
        .onConflictDoUpdate({
          target: [spotifyCooldowns.budget, spotifyCooldowns.kind],
          set: {
            until: sql`greatest(${spotifyCooldowns.until}, excluded.until)`,
            setAt: sql`excluded.set_at`,
            detail: sql`excluded.detail`,
          },
        })
        .returning({ until: spotifyCooldowns.until });
      return new Date(rows[0]!.until);
    },

    /** The cooldowns still running, latest end last. */
    async activeCooldowns(
      budget: string,
    ): Promise<{ kind: 'rate' | 'quota'; until: Date; detail: string }[]> {
      const rows = await db
        .select()
        .from(spotifyCooldowns)
        .where(and(eq(spotifyCooldowns.budget, budget), gt(spotifyCooldowns.until, sql`clock_timestamp()`)))
        .orderBy(spotifyCooldowns.until);
      return rows.map((r) => ({ kind: r.kind, until: new Date(r.until), detail: r.detail }));
    },

    /** Calls in the last `ms` (all processes), and the database's now. */
    async usedSince(budget: string, ms: number): Promise<{ used: number; now: Date; oldest: Date | null }> {
      const rows = await db.execute<{ n: string; now: Date; oldest: Date | null }>(
        sql`select count(*) as n, clock_timestamp() as now, min(${spotifyCallSlots.at}) as oldest
            from ${spotifyCallSlots}
            where ${spotifyCallSlots.budget} = ${budget}
              and ${spotifyCallSlots.at} > clock_timestamp() - ${`${ms} milliseconds`}::interval`,
      );
      const r = rows.rows[0]!;
      return { used: Number(r.n), now: new Date(r.now), oldest: r.oldest ? new Date(r.oldest) : null };
    },

    /** When the `(offset+1)`-th oldest call of the last `ms` leaves the window (null: there is none). */
    async slotLeavesAt(budget: string, ms: number, offset: number): Promise<Date | null> {
      const rows = await db.execute<{ at: Date }>(
        sql`select ${spotifyCallSlots.at} as at from ${spotifyCallSlots}
            where ${spotifyCallSlots.budget} = ${budget}
              and ${spotifyCallSlots.at} > clock_timestamp() - ${`${ms} milliseconds`}::interval
            order by ${spotifyCallSlots.at} offset ${Math.max(0, offset)} limit 1`,
      );
      const at = rows.rows[0]?.at;
      return at ? new Date(new Date(at).getTime() + ms + 1) : null;
    },

    async getCapability(capability: string): Promise<{ available: boolean; detail: string } | undefined> {
      const rows = await db
        .select()
        .from(spotifyCapabilities)
        .where(eq(spotifyCapabilities.capability, capability));
      return rows[0] ? { available: rows[0].available, detail: rows[0].detail } : undefined;
    },

    async setCapability(capability: string, available: boolean, detail: string): Promise<void> {
      await db
        .insert(spotifyCapabilities)
        .values({ capability, available, detail })
        .onConflictDoUpdate({
          target: spotifyCapabilities.capability,
          set: { available, detail, checkedAt: sql`now()` },
        });
    },

    /** The ledger, summed per endpoint and purpose, for a user ('' for calls without one) or everyone. */
    async ledger(filter: { userKey?: string; sinceDay?: string } = {}) {
      const conditions = [];
      if (filter.userKey !== undefined) conditions.push(eq(spotifyCallLedger.userKey, filter.userKey));
      if (filter.sinceDay !== undefined) conditions.push(sql`${spotifyCallLedger.day} >= ${filter.sinceDay}`);
      return db
        .select({
          endpoint: spotifyCallLedger.endpoint,
          purpose: spotifyCallLedger.purpose,
          calls: sql<number>`sum(${spotifyCallLedger.calls})::int`,
          failures: sql<number>`sum(${spotifyCallLedger.failures})::int`,
        })
        .from(spotifyCallLedger)
        .where(conditions.length ? and(...conditions) : undefined)
        .groupBy(spotifyCallLedger.endpoint, spotifyCallLedger.purpose)
        .orderBy(spotifyCallLedger.endpoint, spotifyCallLedger.purpose);
    },

    /**
     * Takes a user out of the ledger but keeps what they spent: their rows of earlier days fold into the
     * `gone` key (per day, endpoint and purpose), so the days' totals stay true after a disconnect. Today's
     * rows stay theirs, so a disconnect does not reset what they may still spend today (the connect cap).
     */
    async forgetUserInLedger(userKey: string): Promise<void> {
      const earlier = sql`${spotifyCallLedger.userKey} = ${userKey}
        and ${spotifyCallLedger.day} < (clock_timestamp() at time zone 'UTC')::date`;
      await db.transaction(async (tx) => {
        await tx.execute(sql`
          insert into ${spotifyCallLedger} (day, user_key, endpoint, purpose, priority, calls, failures)
          select day, ${LEDGER_GONE_KEY}, endpoint, purpose, priority, calls, failures
            from ${spotifyCallLedger} where ${earlier}
          on conflict (day, user_key, endpoint, purpose) do update
            set calls = ${spotifyCallLedger}.calls + excluded.calls,
                failures = ${spotifyCallLedger}.failures + excluded.failures`);
        await tx.delete(spotifyCallLedger).where(earlier);
      });
    },
  };
}
export type BudgetRepository = ReturnType<typeof createBudgetRepository>;
