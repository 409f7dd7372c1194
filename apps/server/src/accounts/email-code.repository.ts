import { and, eq, isNull, lt } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { emailCodes } from '../db/schema.ts';

export type EmailCodePurpose = 'verify_email' | 'reset_password';
export type EmailCode = typeof emailCodes.$inferSelect;

/** The only code that issues SQL on the email_codes table. */
export const createEmailCodeRepository = (db: Db) => ({
  async create(c: { codeHash: string; userId: string; purpose: EmailCodePurpose; expiresAt: Date }) {
    await db.insert(emailCodes).values(c);
  },

  async find(codeHash: string, purpose: EmailCodePurpose): Promise<EmailCode | undefined> {
    const [c] = await db
      .select()
      .from(emailCodes)
      .where(and(eq(emailCodes.codeHash, codeHash), eq(emailCodes.purpose, purpose)))
      .limit(1);
    return c;
  },

  /** Marks a code used; false when it was used already (so a code works once, even when raced). */
  async markUsed(codeHash: string, at: Date): Promise<boolean> {
    const rows = await db
      .update(emailCodes)
      .set({ usedAt: at })
      .where(and(eq(emailCodes.codeHash, codeHash), isNull(emailCodes.usedAt)))
      .returning({ codeHash: emailCodes.codeHash });
    return rows.length === 1;
  },

  async deleteExpired(now: Date): Promise<number> {
    const rows = await db
      .delete(emailCodes)
      .where(lt(emailCodes.expiresAt, now))
      .returning({ codeHash: emailCodes.codeHash });
    return rows.length;
  },
});

export type EmailCodeRepository = ReturnType<typeof createEmailCodeRepository>;
