import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
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
   */
  async reserve(
    kind: AttemptKind,
    limits: AttemptLimit[],
    since: Date,
    opts: { failedOnly: boolean; failed: boolean },
  ): Promise<number[] | null> {
    if (limits.length === 0) return [];
    const keys = [...new Set(limits.map((l) => l.key))].sort();
    return db.transaction(async (tx) => {
      for (const key of keys) {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`auth:${kind}:${key}`}, 0))`);
      }
      const rows = await tx
        .select({ key: authAttempts.key, n: sql<number>`count(*)::int` })
        .from(authAttempts)
        .where(
          and(
            eq(authAttempts.kind, kind),
            inArray(authAttempts.key, keys),
            gt(authAttempts.at, since),
            opts.failedOnly ? eq(authAttempts.failed, true) : undefined,
          ),
        )
        .groupBy(authAttempts.key);
      const counts = new Map(rows.map((r) => [r.key, r.n]));
      if (limits.some((l) => (counts.get(l.key) ?? 0) >= l.max)) return null;
      const inserted = await tx
        .insert(authAttempts)
        .values(keys.map((key) => ({ kind, key, failed: opts.failed })))
        .returning({ id: authAttempts.id });
      return inserted.map((r) => r.id).sort((a, b) => a - b);
    });
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
