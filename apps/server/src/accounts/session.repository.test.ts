// The session touch: one statement that moves the idle expiry and does not wait for the disk at its commit
// (at 1,000 runners it was the top wait of serve's connections, `IO/WalSync`).
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db.ts';
import { statementsOf } from '../../test/statements.ts';
import { noFlush } from '../db/client.ts';
import { sessions, users } from '../db/schema.ts';
import { createSessionRepository } from './session.repository.ts';

describe('session touch', () => {
  const handle = testDb();
  afterAll(() => handle.close());

  it('moves the idle expiry in one statement', async () => {
    const [user] = await handle.db
      .insert(users)
      .values({ email: `${randomUUID()}@example.org` })
      .returning();
    const id = randomUUID();
    const start = new Date('2030-01-01T00:00:00Z');
    await handle.db.insert(sessions).values({
      id,
      userId: user!.id,
      lastSeenAt: start,
      expiresAt: new Date(start.getTime() + 3_600_000),
      absoluteExpiresAt: new Date(start.getTime() + 7_200_000),
    });
    const at = new Date(start.getTime() + 90_000);
    const seen = await statementsOf(() =>
      createSessionRepository(handle.db).touch(id, at, new Date(at.getTime() + 3_600_000)),
    );
    expect(seen).toHaveLength(1); // no begin / set / commit round trips held on serve's connection
    expect(seen[0]).toMatch(/synchronous_commit/);
    const [row] = await handle.db.select().from(sessions).where(eq(sessions.id, id));
    expect(row!.lastSeenAt.toISOString()).toBe(at.toISOString());
    expect(row!.expiresAt.toISOString()).toBe(new Date(at.getTime() + 3_600_000).toISOString());
  });

  it("the no-flush clause holds for its own statement only, not the connection's next ones", async () => {
    const client = await handle.pool.connect();
    try {
      const db = (await import('drizzle-orm/node-postgres')).drizzle(client);
      const inside = await db.execute<{ s: string }>(
        sql`${noFlush} select current_setting('synchronous_commit') as s from no_flush`,
      );
      expect(inside.rows[0]!.s).toBe('off');
      const after = await client.query<{ synchronous_commit: string }>('show synchronous_commit');
      expect(after.rows[0]!.synchronous_commit).toBe('on');
    } finally {
      client.release();
    }
  });
});
