import { and, eq, gt, inArray, lt, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { authAttempts } from '../db/schema.ts';

export type AttemptKind = 'login' | 'signup' | 'mail';

/** The only code that issues SQL on the auth_attempts table (rate-limit counters shared by every process). */
export const createAuthAttemptRepository = (db: Db) => ({
  async record(kind: AttemptKind, keys: string[], failed: boolean): Promise<void> {
    if (keys.length === 0) return;
    await db.insert(authAttempts).values(keys.map((key) => ({ kind, key, failed })));
  },

  /** Attempts per key since `since` (only failed ones with `failedOnly`). */
  async count(kind: AttemptKind, keys: string[], since: Date, failedOnly: boolean) {
    const rows = await db
      .select({ key: authAttempts.key, n: sql<number>`count(*)::int` })
      .from(authAttempts)
      .where(
        and(
          eq(authAttempts.kind, kind),
          inArray(authAttempts.key, keys),
          gt(authAttempts.at, since),
          failedOnly ? eq(authAttempts.failed, true) : undefined,
        ),
      )
      .groupBy(authAttempts.key);
    return new Map(rows.map((r) => [r.key, r.n]));
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
