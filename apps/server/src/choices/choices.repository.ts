// The only SQL on a runner's choices: tempo and meter corrections and exclusions. Every method takes the user:
// a runner reads and changes only their own.
import { and, desc, eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import type { Meter } from '@pacebeat/contract';
import { meterCorrections, tempoCorrections, trackExclusions } from '../db/choices.schema.ts';

export type ExclusionRow = typeof trackExclusions.$inferSelect;
export type ExclusionKind = ExclusionRow['kind'];

export function createChoicesRepository(db: Db) {
  return {
    /** Every correction of the user: recording key → BPM. */
    async corrections(userId: string): Promise<Map<string, number>> {
      const rows = await db
        .select({ key: tempoCorrections.recordingKey, bpm: tempoCorrections.bpm })
        .from(tempoCorrections)
        .where(eq(tempoCorrections.userId, userId));
      return new Map(rows.map((r) => [r.key, r.bpm]));
    },

    /** Sets (or changes) the user's tempo of a recording. */
    async setCorrection(userId: string, recordingKey: string, bpm: number): Promise<void> {
      await db
        .insert(tempoCorrections)
        .values({ userId, recordingKey, bpm })
        .onConflictDoUpdate({
          target: [tempoCorrections.userId, tempoCorrections.recordingKey],
          set: { bpm, updatedAt: sql`now()` },
        });
    },

    /** Drops a correction (the resolver's tempo applies again); false when there was none. */
    async deleteCorrection(userId: string, recordingKey: string): Promise<boolean> {
      const rows = await db
        .delete(tempoCorrections)
        .where(and(eq(tempoCorrections.userId, userId), eq(tempoCorrections.recordingKey, recordingKey)))
        .returning({ key: tempoCorrections.recordingKey });
      return rows.length > 0;
    },

    /** Every meter correction of the user: recording key → meter. */
    async meterCorrections(userId: string): Promise<Map<string, Meter>> {
      const rows = await db
        .select({ key: meterCorrections.recordingKey, meter: meterCorrections.meter })
        .from(meterCorrections)
        .where(eq(meterCorrections.userId, userId));
      return new Map(rows.map((r) => [r.key, r.meter]));
    },

    /** Sets (or changes) the user's meter of a recording. */
    async setMeterCorrection(userId: string, recordingKey: string, meter: Meter): Promise<void> {
      await db
        .insert(meterCorrections)
        .values({ userId, recordingKey, meter })
        .onConflictDoUpdate({
          target: [meterCorrections.userId, meterCorrections.recordingKey],
          set: { meter, updatedAt: sql`now()` },
        });
    },

    /** Drops a meter correction (the resolver's meter applies again); false when there was none. */
    async deleteMeterCorrection(userId: string, recordingKey: string): Promise<boolean> {
      const rows = await db
        .delete(meterCorrections)
        .where(and(eq(meterCorrections.userId, userId), eq(meterCorrections.recordingKey, recordingKey)))
        .returning({ key: meterCorrections.recordingKey });
      return rows.length > 0;
    },

    /** Every exclusion of the user (for matching). */
    async exclusions(userId: string): Promise<Array<Pick<ExclusionRow, 'kind' | 'key'>>> {
      return db
        .select({ kind: trackExclusions.kind, key: trackExclusions.key })
        .from(trackExclusions)
        .where(eq(trackExclusions.userId, userId));
    },

    /** One page of the Excluded list, newest first, and how many there are. */
    async exclusionsPage(
      userId: string,
      offset: number,
      limit: number,
    ): Promise<{ rows: ExclusionRow[]; total: number }> {
      const rows = await db
        .select()
        .from(trackExclusions)
        .where(eq(trackExclusions.userId, userId))
        .orderBy(desc(trackExclusions.createdAt), trackExclusions.kind, trackExclusions.key)
        .limit(limit)
        .offset(offset);
      const [count] = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(trackExclusions)
        .where(eq(trackExclusions.userId, userId));
      return { rows, total: count?.n ?? 0 };
    },

    /** Excludes a track or an artist (again: keeps the first one). Returns the row. */
    async addExclusion(
      userId: string,
      kind: ExclusionKind,
      key: string,
      names: { label: string; detail: string },
    ): Promise<ExclusionRow> {
      await db
        .insert(trackExclusions)
        .values({ userId, kind, key, ...names })
        .onConflictDoNothing();
      const rows = await db
        .select()
        .from(trackExclusions)
        .where(
          and(
            eq(trackExclusions.userId, userId),
            eq(trackExclusions.kind, kind),
            eq(trackExclusions.key, key),
          ),
        );
      return rows[0]!;
    },

    /** Restores an excluded track or artist; false when it was not excluded. */
    async deleteExclusion(userId: string, kind: ExclusionKind, key: string): Promise<boolean> {
      const rows = await db
        .delete(trackExclusions)
        .where(
          and(
            eq(trackExclusions.userId, userId),
            eq(trackExclusions.kind, kind),
            eq(trackExclusions.key, key),
          ),
        )
        .returning({ key: trackExclusions.key });
      return rows.length > 0;
    },

    /** Disconnect: the user's choices go with the rest of what is known about their music account. */
    async deleteUserData(userId: string): Promise<void> {
      await db.delete(tempoCorrections).where(eq(tempoCorrections.userId, userId));
      await db.delete(meterCorrections).where(eq(meterCorrections.userId, userId));
      await db.delete(trackExclusions).where(eq(trackExclusions.userId, userId));
    },
  };
}

export type ChoicesRepository = ReturnType<typeof createChoicesRepository>;
