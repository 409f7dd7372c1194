// The linked Spotify accounts and their sealed tokens: the only SQL on spotify_accounts.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { spotifyAccounts } from '../db/spotify.schema.ts';

export type SpotifyAccountRow = typeof spotifyAccounts.$inferSelect;
export type NewSpotifyAccount = Omit<
  typeof spotifyAccounts.$inferInsert,
  'disabledReason' | 'disabledAt' | 'updatedAt'
>;

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];

function queries(db: Db | Tx) {
  return {
    async get(userId: string): Promise<SpotifyAccountRow | undefined> {
      const rows = await db.select().from(spotifyAccounts).where(eq(spotifyAccounts.userId, userId));
      return rows[0];
    },
    async saveTokens(
      userId: string,
      tokens: { accessTokenEnc: string; accessExpiresAt: Date; refreshTokenEnc?: string },
    ): Promise<void> {
      await db
        .update(spotifyAccounts)
        .set({ ...tokens, updatedAt: sql`now()` })
        .where(eq(spotifyAccounts.userId, userId));
    },
    async markDisabled(userId: string, reason: string): Promise<void> {
      await db
        .update(spotifyAccounts)
        .set({ disabledReason: reason, disabledAt: sql`now()`, accessTokenEnc: null, updatedAt: sql`now()` })
        .where(eq(spotifyAccounts.userId, userId));
    },
  };
}

export function createSpotifyAccountRepository(db: Db) {
  return {
    ...queries(db),

    async findByAccountId(accountId: string): Promise<SpotifyAccountRow | undefined> {
      const rows = await db.select().from(spotifyAccounts).where(eq(spotifyAccounts.accountId, accountId));
      return rows[0];
    },

    /**
     * Links (or re-links) a user's account, clearing any disabled mark. Returns false, storing nothing, when
     * the Spotify account already belongs to another user (the unique `account_id` decides, so two racing
     * connects cannot both win).
     */
    async link(row: NewSpotifyAccount): Promise<boolean> {
      try {
        return await db.transaction(async (tx) => {
          const taken = await tx
            .select({ userId: spotifyAccounts.userId })
            .from(spotifyAccounts)
            .where(eq(spotifyAccounts.accountId, row.accountId))
            .for('update');
          if (taken[0] && taken[0].userId !== row.userId) return false;
          await tx
            .insert(spotifyAccounts)
            .values(row)
            .onConflictDoUpdate({
              target: spotifyAccounts.userId,
              set: {
                ...row,
                disabledReason: null,
                disabledAt: null,
                authorizedAt: sql`now()`,
                updatedAt: sql`now()`,
              },
            });
          return true;
        });
      } catch (err) {
        if (isUniqueViolation(err)) return false; // another user linked the same account at the same moment
        throw err;
      }
    },

    /** Every user with a linked account (leaving demo mode ends each simulated connection). */
    async linkedUserIds(): Promise<string[]> {
      const rows = await db.select({ userId: spotifyAccounts.userId }).from(spotifyAccounts);
      return rows.map((r) => r.userId);
    },

    async delete(userId: string): Promise<boolean> {
      const rows = await db
        .delete(spotifyAccounts)
        .where(eq(spotifyAccounts.userId, userId))
        .returning({ userId: spotifyAccounts.userId });
      return rows.length > 0;
    },

    /**
     * Runs `fn` holding this user's refresh lock (a transaction-level advisory lock), so at most one
     * refresh per user runs at a time across all processes; `fn` sees the row as it is once the lock is held.
     */
    async withRefreshLock<T>(userId: string, fn: (q: ReturnType<typeof queries>) => Promise<T>): Promise<T> {
      return db.transaction(async (tx) => {
        await tx.execute(
          sql`select pg_advisory_xact_lock(hashtextextended(${`spotify-refresh:${userId}`}, 0))`,
        );
        return fn(queries(tx));
      });
    },
  };
}
export type SpotifyAccountRepository = ReturnType<typeof createSpotifyAccountRepository>;

function isUniqueViolation(err: unknown): boolean {
  for (let e = err; e && typeof e === 'object'; e = (e as { cause?: unknown }).cause) {
    if ((e as { code?: unknown }).code === '23505') return true;
  }
  return false;
}
