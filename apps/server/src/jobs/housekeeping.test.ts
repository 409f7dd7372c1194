import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db.ts';
import { createSessionRepository } from '../accounts/session.repository.ts';
import { sessions, users } from '../db/schema.ts';
import { createHousekeepingService } from './housekeeping.service.ts';

describe('housekeeping', () => {
  const handle = testDb();
  afterAll(() => handle.close());

  it('prunes expired sessions and keeps live ones', async () => {
    const [user] = await handle.db
      .insert(users)
      .values({ email: `${randomUUID()}@example.org` })
      .returning();
    const now = new Date('2030-01-01T00:00:00Z');
    const expired = randomUUID();
    const live = randomUUID();
    await handle.db.insert(sessions).values([
      { id: expired, userId: user!.id, expiresAt: new Date(now.getTime() - 1000) },
      { id: live, userId: user!.id, expiresAt: new Date(now.getTime() + 60_000) },
    ]);

    const service = createHousekeepingService({
      sessions: createSessionRepository(handle.db),
      now: () => now,
    });
    const result = await service.run();

    expect(result.expiredSessions).toBeGreaterThanOrEqual(1);
    const left = await handle.db
      .select()
      .from(sessions)
      .where(inArray(sessions.id, [expired, live]));
    expect(left.map((s) => s.id)).toEqual([live]);
    await handle.db.delete(users).where(eq(users.id, user!.id));
  });
});
