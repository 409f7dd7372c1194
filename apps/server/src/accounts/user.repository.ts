import { eq, sql } from 'drizzle-orm';
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

/** The only code that issues SQL on the users table. */
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

  /**
   * Inserts a user; with `firstIsAdmin`, the user is an admin when no other user exists (serialised by
   * an advisory lock, so two first sign-ups cannot both become admin). Undefined when the email is taken.
   */
  async create(u: NewUser, opts: { firstIsAdmin: boolean }): Promise<User | undefined> {
    return db.transaction(async (tx) => {
      let isAdmin = false;
      if (opts.firstIsAdmin) {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('pacebeat.first-user'))`);
        const [row] = await tx.select({ n: sql<number>`count(*)::int` }).from(users);
        isAdmin = (row?.n ?? 0) === 0;
      }
      const [created] = await tx
        .insert(users)
        .values({ ...u, isAdmin })
        .onConflictDoNothing({ target: users.email })
        .returning();
      return created;
    });
  },

  async update(
    id: string,
    patch: Partial<Pick<User, 'passwordHash' | 'firebaseUid' | 'emailVerifiedAt' | 'name'>>,
  ): Promise<void> {
    await db.update(users).set(patch).where(eq(users.id, id));
  },
});

export type UserRepository = ReturnType<typeof createUserRepository>;
