import { and, eq, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { authAttempts } from '../db/schema.ts';

export type AttemptKind = 'login' | 'signup' | 'mail' | 'connect' | 'action';

/** A counter key and how many attempts it may hold within the window. */
export interface AttemptLimit {
  key: string;
  max: number;
}

/** The only code that issues SQL on the auth_attempts table (rate-limit counters shared by every process). */
export const createAuthAttemptRepository = (db: Db) => ({
  /**
   * Checks and counts in one atomic step: under a transaction-scoped advisory lock per key (taken in a
   * fixed order, so two requests never deadlock), counts each key's attempts since `since` and, only when
   * every key is under its `max`, records one attempt for each. Concurrent requests, from any process,
   * queue on the lock, so no more than `max` ever pass. Answers the ids recorded, or null when refused.
   * One statement (the function of migration `reserve_attempts`): the locks are held for the database's
   * work only, not while this process's event loop takes each answer of a transaction.
   */
  async reserve(
    kind: AttemptKind,
    limits: AttemptLimit[],
    since: Date,
    opts: { failedOnly: boolean; failed: boolean },
  ): Promise<number[] | null> {
    if (limits.length === 0) return [];
    const limitsJson = JSON.stringify(limits.map((l) => ({ key: l.key, max: l.max })));
    const rows = await db.execute<{ ids: string[] | null }>(sql`
      select pacebeat_reserve_attempts(${kind}, ${limitsJson}::jsonb, ${since.toISOString()}::timestamptz,
                                       ${opts.failedOnly}, ${opts.failed}) as ids`);
    const ids = rows.rows[0]?.ids; // bigint[]: strings
    return ids ? ids.map(Number) : null;
  },

  /** Takes back attempts recorded by `reserve` (a sign-in that turned out right is no failure). */
  async release(ids: number[]): Promise<void> {
    if (ids.length === 0) return;
    await db.delete(authAttempts).where(inArray(authAttempts.id, ids));
  },

  /** Forgets failures of a key (after a successful sign-in). */
  async clearFailures(kind: AttemptKind, key: string): Promise<void> {
    await db
      .delete(authAttempts)
      .where(and(eq(authAttempts.kind, kind), eq(authAttempts.key, key), eq(authAttempts.failed, true)));
  },

  async deleteOlderThan(before: Date): Promise<number> {
    const rows = await db
      .delete(authAttempts)
      .where(lt(authAttempts.at, before))
      .returning({ id: authAttempts.id });
    return rows.length;
  },
});

export type AuthAttemptRepository = ReturnType<typeof createAuthAttemptRepository>;
