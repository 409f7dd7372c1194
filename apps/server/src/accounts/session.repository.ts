import { and, eq, gt, lt, or, sql } from 'drizzle-orm';
import { type Db, noFlush } from '../db/client.ts';
import { sessions, users } from '../db/schema.ts';

export interface NewSession {
  id: string;
  userId: string;
  expiresAt: Date;
  absoluteExpiresAt: Date;
  timeZone: string | null;
}

/** The only code that issues SQL on the sessions table. */
export const createSessionRepository = (db: Db) => ({
  async create(s: NewSession): Promise<void> {
    await db.insert(sessions).values(s);
  },

  /** The live session with this id (hash), with its user; undefined when missing or expired. */
  async findLive(id: string, now: Date) {
    const [row] = await db
      .select({ session: sessions, user: users })
      .from(sessions)
      .innerJoin(users, eq(users.id, sessions.userId))
      .where(and(eq(sessions.id, id), gt(sessions.expiresAt, now), gt(sessions.absoluteExpiresAt, now)))
      .limit(1);
    return row;
  },

  /**
   * Records use: moves the idle expiry forward. A touch lost in a crash only lets the session expire up to
   * a minute sooner, so it does not wait for the disk: at 1,000 runners (16 touches a second) the request
   * that touched held one of serve's connections until the WAL was flushed (the top wait of serve's
   * connections). One statement, not a transaction: each round trip of one waits for serve's event loop.
   */
  async touch(id: string, lastSeenAt: Date, expiresAt: Date): Promise<void> {
    await db.execute(sql`
      ${noFlush}
      update ${sessions} set ${sql.identifier(sessions.lastSeenAt.name)} = ${lastSeenAt},
                             ${sql.identifier(sessions.expiresAt.name)} = ${expiresAt}
      where ${sessions.id} = ${id} and exists (select from no_flush)`);
  },

  /** Ends a session; answers whether it was there. */
  async delete(id: string): Promise<boolean> {
    const rows = await db.delete(sessions).where(eq(sessions.id, id)).returning({ id: sessions.id });
    return rows.length > 0;
  },

  async deleteForUser(userId: string): Promise<void> {
    await db.delete(sessions).where(eq(sessions.userId, userId));
  },

  /** Deletes sessions whose absolute or idle expiry has passed; returns how many. */
  async deleteExpired(now: Date): Promise<number> {
    const deleted = await db
      .delete(sessions)
      .where(or(lt(sessions.expiresAt, now), lt(sessions.absoluteExpiresAt, now)))
      .returning({ id: sessions.id });
    return deleted.length;
  },
});

export type SessionRepository = ReturnType<typeof createSessionRepository>;
