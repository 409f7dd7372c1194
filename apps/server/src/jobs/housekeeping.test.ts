import { randomUUID } from 'node:crypto';
import { eq, inArray } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db.ts';
import { createAuthAttemptRepository } from '../accounts/auth-attempt.repository.ts';
import { createEmailCodeRepository } from '../accounts/email-code.repository.ts';
import { createSessionRepository } from '../accounts/session.repository.ts';
import { authAttempts, emailCodes, sessions, users } from '../db/schema.ts';
import { createHousekeepingService } from './housekeeping.service.ts';

describe('housekeeping', () => {
  const handle = testDb();
  afterAll(() => handle.close());

  it('prunes sessions past their idle or absolute expiry, expired codes and old attempts, and keeps live ones', async () => {
    const [user] = await handle.db
      .insert(users)
      .values({ email: `${randomUUID()}@example.org` })
      .returning();
    const now = new Date('2030-01-01T00:00:00Z');
    const later = new Date(now.getTime() + 60_000);
    const earlier = new Date(now.getTime() - 1000);
    const [idle, absolute, live] = [randomUUID(), randomUUID(), randomUUID()];
    await handle.db.insert(sessions).values([
      { id: idle, userId: user!.id, expiresAt: earlier, absoluteExpiresAt: later },
      { id: absolute, userId: user!.id, expiresAt: later, absoluteExpiresAt: earlier },
      { id: live, userId: user!.id, expiresAt: later, absoluteExpiresAt: later },
    ]);
    const [oldCode, liveCode] = [randomUUID(), randomUUID()];
    await handle.db.insert(emailCodes).values([
      { codeHash: oldCode, userId: user!.id, purpose: 'verify_email', expiresAt: earlier },
      { codeHash: liveCode, userId: user!.id, purpose: 'verify_email', expiresAt: later },
    ]);
    const key = `ip:${randomUUID()}`;
    await handle.db.insert(authAttempts).values([
      { kind: 'login', key, failed: true, at: new Date(now.getTime() - 25 * 3_600_000) },
      { kind: 'login', key, failed: true, at: earlier },
    ]);

    const service = createHousekeepingService({
      sessions: createSessionRepository(handle.db),
      codes: createEmailCodeRepository(handle.db),
      attempts: createAuthAttemptRepository(handle.db),
      now: () => now,
    });
    const result = await service.run();

    expect(result.expiredSessions).toBeGreaterThanOrEqual(2);
    expect(result.expiredCodes).toBeGreaterThanOrEqual(1);
    expect(result.oldAttempts).toBeGreaterThanOrEqual(1);
    const left = await handle.db
      .select()
      .from(sessions)
      .where(inArray(sessions.id, [idle, absolute, live]));
    expect(left.map((s) => s.id)).toEqual([live]);
    const codesLeft = await handle.db
      .select()
      .from(emailCodes)
      .where(inArray(emailCodes.codeHash, [oldCode, liveCode]));
    expect(codesLeft.map((c) => c.codeHash)).toEqual([liveCode]);
    const attemptsLeft = await handle.db.select().from(authAttempts).where(eq(authAttempts.key, key));
    expect(attemptsLeft).toHaveLength(1);
    await handle.db.delete(users).where(eq(users.id, user!.id));
  });
});
