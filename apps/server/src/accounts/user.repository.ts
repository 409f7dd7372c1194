import { and, asc, eq, inArray, isNotNull, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { users } from '../db/schema.ts';

export type User = typeof users.$inferSelect;

export interface NewUser {
  email: string;
  name: string;
  passwordHash?: string | null;
  firebaseUid?: string | null;
  emailVerifiedAt?: Date | null;
}

/** An account is an admin: its flag, or a verified address among `adminEmails` (ADMIN_EMAILS). */
export const isAdminSql = (adminEmails: readonly string[]) =>
  adminEmails.length === 0
    ? sql`${users.isAdmin}`
    : or(
        eq(users.isAdmin, true),
        and(inArray(users.email, [...adminEmails]), isNotNull(users.emailVerifiedAt)),
      )!;

/**
 * The SQL on the users table, but for the insert of a new account: that is signup.repository.ts's, in one
 * transaction with the sign-up rules (so two sign-ups at once never make two first admins).
 */
export const createUserRepository = (db: Db) => ({
  async findById(id: string): Promise<User | undefined> {
    const [u] = await db.select().from(users).where(eq(users.id, id)).limit(1);
    return u;
  },

  async findByEmail(email: string): Promise<User | undefined> {
    const [u] = await db.select().from(users).where(eq(users.email, email)).limit(1);
    return u;
  },

  async findByFirebaseUid(uid: string): Promise<User | undefined> {
    const [u] = await db.select().from(users).where(eq(users.firebaseUid, uid)).limit(1);
    return u;
  },

  /** Grants or revokes admin by email (`npm run admin`); the user, or undefined when no account has it. */
  async setAdmin(email: string, isAdmin: boolean): Promise<User | undefined> {
    const [u] = await db.update(users).set({ isAdmin }).where(eq(users.email, email)).returning();
    return u;
  },

  /** The accounts whose admin flag is set, oldest first. */
  async listAdmins(): Promise<User[]> {
    return db.select().from(users).where(eq(users.isAdmin, true)).orderBy(asc(users.createdAt));
  },

  /**
   * How many accounts there are, and how many are admins: the admin flag, or a verified address among
   * `adminEmails` (ADMIN_EMAILS).
   */
  async counts(adminEmails: readonly string[] = []): Promise<{ accounts: number; admins: number }> {
    const [row] = await db
      .select({
        accounts: sql<number>`count(*)::int`,
        admins: sql<number>`(count(*) filter (where ${isAdminSql(adminEmails)}))::int`,
      })
      .from(users);
    return { accounts: row?.accounts ?? 0, admins: row?.admins ?? 0 };
  },

  async update(
    id: string,
    patch: Partial<Pick<User, 'passwordHash' | 'firebaseUid' | 'emailVerifiedAt' | 'name'>>,
  ): Promise<void> {
    await db.update(users).set(patch).where(eq(users.id, id));
  },
});

export type UserRepository = ReturnType<typeof createUserRepository>;
