import { lt } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { sessions } from '../db/schema.ts';

/** The only code that issues SQL on the sessions table. */
export const createSessionRepository = (db: Db) => ({
  /** Deletes sessions whose absolute or idle expiry has passed; returns how many. */
  async deleteExpired(now: Date): Promise<number> {
    const deleted = await db
      .delete(sessions)
      .where(lt(sessions.expiresAt, now))
      .returning({ id: sessions.id });
    return deleted.length;
  },
});

export type SessionRepository = ReturnType<typeof createSessionRepository>;
