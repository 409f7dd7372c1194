// The SQL of editing targets: a runner's own targets by id, adding, editing (name, range,
// filters), deleting in Pacebeat (archived: the Spotify playlist stays) and the playlist details the
// writer still owes Spotify. Composed into the playlists repository.
import { and, asc, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { playlistTargets, playlistTargetTracks } from '../db/playlists.schema.ts';
import type { TargetFilters } from './matching.ts';

type TargetRow = typeof playlistTargets.$inferSelect;

export interface TargetEdit extends Partial<TargetFilters> {
  name?: string;
  minBpm?: number;
  maxBpm?: number;
}

/** A unique-index violation (another live target of the user has that name). */
export const isUniqueViolation = (err: unknown): boolean => {
  const e = err as { code?: unknown; cause?: unknown } | undefined;
  return e?.code === '23505' || (e?.cause !== undefined && isUniqueViolation(e.cause));
};

/** Serialises the changes that count a user's live targets against the cap (held to the transaction's end). */
const lockTargetsOf = (tx: Pick<Db, 'execute'>, userId: string) =>
  tx.execute(sql`select pg_advisory_xact_lock(hashtextextended(${`targets:${userId}`}, 0))`);

export function createTargetsRepository(db: Db) {
  const own = (userId: string, targetId: string) =>
    and(
      eq(playlistTargets.id, targetId),
      eq(playlistTargets.userId, userId),
      isNull(playlistTargets.archivedAt),
    );

  /**
   * "Tracks added": what Pacebeat added that the playlist holds now. Songs the runner removed
   * in Spotify, or Pacebeat removed on request (or is removing), no longer count.
   */
  const added = sql`${playlistTargetTracks.state} = 'added'`;

  return {
    /** The BPM ranges of every runner's live targets (the tempo lookups check those first), each once. */
    async targetRanges(): Promise<Array<{ minBpm: number; maxBpm: number }>> {
      return db
        .selectDistinct({ minBpm: playlistTargets.minBpm, maxBpm: playlistTargets.maxBpm })
        .from(playlistTargets)
        .where(isNull(playlistTargets.archivedAt));
    },

    /**
     * The user's live targets with their stats (tracks added, in all and since `since`) in one round trip:
     * the status page polls this, so it is one query, not two.
     */
    async listTargetsWithStats(userId: string, since: Date) {
      const stats = db
        .select({
          tracksAdded: sql<number>`count(*) filter (where ${added})::int`.as('tracks_added'),
          tracksAdded7Days:
            sql<number>`count(*) filter (where ${added} and ${playlistTargetTracks.addedAt} >= ${since.toISOString()}::timestamptz)::int`.as(
              'tracks_added_7_days',
            ),
        })
        .from(playlistTargetTracks)
        .where(eq(playlistTargetTracks.targetId, playlistTargets.id))
        .as('stats');
      return db
        .select({
          target: playlistTargets,
          stats: { tracksAdded: stats.tracksAdded, tracksAdded7Days: stats.tracksAdded7Days },
        })
        .from(playlistTargets)
        .leftJoinLateral(stats, sql`true`)
        .where(and(eq(playlistTargets.userId, userId), isNull(playlistTargets.archivedAt)))
        .orderBy(asc(playlistTargets.position), asc(playlistTargets.minBpm));
    },

    /**
     * The first fill's progress: each target's matches planned so far, written only where it
     * changed (each write tells the targets caches); null clears it once a playlist exists.
     */
    async recordFirstFill(userId: string, counts: Map<string, number> | null): Promise<void> {
      if (counts === null) {
        await db
          .update(playlistTargets)
          .set({ firstFillMatches: null })
          .where(and(eq(playlistTargets.userId, userId), isNotNull(playlistTargets.firstFillMatches)));
        return;
      }
      for (const [id, n] of counts) {
        await db
          .update(playlistTargets)
          .set({ firstFillMatches: n })
          .where(
            and(
              eq(playlistTargets.id, id),
              eq(playlistTargets.userId, userId),
              sql`${playlistTargets.firstFillMatches} is distinct from ${n}`,
            ),
          );
      }
    },

    /** One of the user's live targets; undefined for another user's, a deleted one or none. */
    async getTarget(userId: string, targetId: string): Promise<TargetRow | undefined> {
      const rows = await db.select().from(playlistTargets).where(own(userId, targetId));
      return rows[0];
    },

    /** Whether the user has, or had, any target (deleted ones count: the defaults are made only once). */
    async hasAnyTarget(userId: string): Promise<boolean> {
      const rows = await db
        .select({ id: playlistTargets.id })
        .from(playlistTargets)
        .where(eq(playlistTargets.userId, userId))
        .limit(1);
      return rows.length > 0;
    },

    /** Adds a target (placed after the user's others). Throws a unique violation for a name in use. */
    /**
     * A new live target, unless the user already has `maxLive` of them: then undefined. The count and the
     * insert hold a lock on the user's targets, so simultaneous adds cannot pass the cap together.
     */
    async addTarget(
      userId: string,
      t: Required<Pick<TargetEdit, 'name' | 'minBpm' | 'maxBpm'>> & TargetEdit,
      maxLive: number,
    ): Promise<TargetRow | undefined> {
      return db.transaction(async (tx) => {
        await lockTargetsOf(tx, userId);
        const [counted] = await tx
          .select({ live: sql<number>`count(*)::int` })
          .from(playlistTargets)
          .where(and(eq(playlistTargets.userId, userId), isNull(playlistTargets.archivedAt)));
        if ((counted?.live ?? 0) >= maxLive) return undefined;
        const [row] = await tx
          .insert(playlistTargets)
          .values({
            ...t,
            userId,
            position: sql`(select coalesce(max(position) + 1, 0) from playlist_targets where user_id = ${userId})`,
          })
          .returning();
        return row!;
      });
    },

    /**
     * Edits a live target. A new name or range bumps `details_version`, so the writer renames the
     * playlist (and rewrites its description). Undefined when it is not the user's live target.
     */
    async editTarget(userId: string, targetId: string, e: TargetEdit): Promise<TargetRow | undefined> {
      const details = e.name !== undefined || e.minBpm !== undefined || e.maxBpm !== undefined;
      const rows = await db
        .update(playlistTargets)
        .set({
          ...e,
          ...(details ? { detailsVersion: sql`${playlistTargets.detailsVersion} + 1` } : {}),
          // The runner acted: a write Spotify refused is tried again.
          writeRefusedAt: null,
          writeRefusal: null,
        })
        .where(own(userId, targetId))
        .returning();
      return rows[0];
    },

    /** The runner deletes a target in Pacebeat: no more writes; its playlist stays in Spotify. */
    async archiveTarget(userId: string, targetId: string): Promise<boolean> {
      const rows = await db
        .update(playlistTargets)
        .set({ archivedAt: sql`now()` })
        .where(own(userId, targetId))
        .returning({ id: playlistTargets.id });
      return rows.length > 0;
    },

    /** Every playlist Pacebeat made for the user, deleted targets' included (never a library source). */
    async playlistIdsOf(userId: string): Promise<Set<string>> {
      const rows = await db
        .select({ playlistId: playlistTargets.playlistId })
        .from(playlistTargets)
        .where(eq(playlistTargets.userId, userId));
      return new Set(rows.flatMap((r) => (r.playlistId ? [r.playlistId] : [])));
    },

    /**
     * Takes back a playlist of an earlier connection (a runner who connects again): the user's pending
     * target of the same range that has no playlist gets it, under the playlist's name (the runner may have
     * renamed it); else it becomes a new target. Its contents are read before the next add (snapshot
     * unknown). Returns the target's id, or null when the user has `max` live targets or another live
     * target has that name.
     */
    async adoptEarlier(
      userId: string,
      p: { playlistId: string; publicUrl: string | null; name: string; minBpm: number; maxBpm: number },
      max: number,
    ): Promise<string | null> {
      const active = {
        state: 'active' as const,
        playlistId: p.playlistId,
        publicUrl: p.publicUrl,
        snapshotId: null,
        snapshotAt: null,
        spotifyName: p.name,
        followCheckedAt: sql`now()`,
      };
      try {
        return await db.transaction(async (tx) => {
          await lockTargetsOf(tx, userId);
          const [same] = await tx
            .select({ id: playlistTargets.id })
            .from(playlistTargets)
            .where(
              and(
                eq(playlistTargets.userId, userId),
                isNull(playlistTargets.archivedAt),
                isNull(playlistTargets.playlistId),
                eq(playlistTargets.state, 'pending'),
                eq(playlistTargets.minBpm, p.minBpm),
                eq(playlistTargets.maxBpm, p.maxBpm),
              ),
            )
            .orderBy(asc(playlistTargets.position))
            .limit(1)
            .for('update');
          if (same) {
            await tx
              .update(playlistTargets)
              .set({ ...active, name: p.name })
              .where(eq(playlistTargets.id, same.id));
            return same.id;
          }
          const live = await tx
            .select({ id: playlistTargets.id })
            .from(playlistTargets)
            .where(and(eq(playlistTargets.userId, userId), isNull(playlistTargets.archivedAt)));
          if (live.length >= max) return null;
          const [row] = await tx
            .insert(playlistTargets)
            .values({
              ...active,
              userId,
              name: p.name,
              minBpm: p.minBpm,
              maxBpm: p.maxBpm,
              position: sql`(select coalesce(max(position) + 1, 0) from playlist_targets where user_id = ${userId})`,
            })
            .returning({ id: playlistTargets.id });
          return row!.id;
        });
      } catch (err) {
        if (isUniqueViolation(err)) return null;
        throw err;
      }
    },

    /** Spotify refused an add because the playlist is full: no more adds to it. False when already marked. */
    async markFull(targetId: string): Promise<boolean> {
      const rows = await db
        .update(playlistTargets)
        .set({ fullAt: sql`now()` })
        .where(and(eq(playlistTargets.id, targetId), isNull(playlistTargets.fullAt)))
        .returning({ id: playlistTargets.id });
      return rows.length > 0;
    },

    /**
     * The target that continues a full one: same range and filters, named "<name> (2)" (or the next number
     * free). Null when no name up to (20) is free.
     */
    async addContinuation(full: TargetRow): Promise<TargetRow | null> {
      const base = full.name.replace(/ \((\d+)\)$/, '');
      const from = Number(/ \((\d+)\)$/.exec(full.name)?.[1] ?? 1) + 1;
      for (let n = from; n <= 20; n++) {
        try {
          const [row] = await db
            .insert(playlistTargets)
            .values({
              userId: full.userId,
              minBpm: full.minBpm,
              maxBpm: full.maxBpm,
              name: `${base} (${n})`.slice(0, 100),
              position: full.position,
              noExplicit: full.noExplicit,
              minDurationMs: full.minDurationMs,
              maxDurationMs: full.maxDurationMs,
              likedOnly: full.likedOnly,
              metersIncluded: full.metersIncluded,
              continuesId: full.id,
            })
            .returning();
          return row ?? null;
        } catch (err) {
          if (!isUniqueViolation(err)) throw err;
        }
      }
      return null;
    },

    /** Spotify refused a write to the playlist with 403: no more writes until the runner edits the target. */
    async markWriteRefused(targetId: string, reason: string): Promise<void> {
      await db
        .update(playlistTargets)
        .set({ writeRefusedAt: sql`now()`, writeRefusal: reason.slice(0, 500) })
        .where(eq(playlistTargets.id, targetId));
    },

    /** Deletes targets that never had a playlist nor an edit (defaults the runner's earlier set replaces). */
    async dropUnused(targetIds: string[]): Promise<void> {
      if (targetIds.length === 0) return;
      await db
        .delete(playlistTargets)
        .where(
          and(
            inArray(playlistTargets.id, targetIds),
            eq(playlistTargets.state, 'pending'),
            isNull(playlistTargets.playlistId),
            eq(playlistTargets.detailsVersion, 0),
          ),
        );
    },

    /** The playlist's details as of `version` are in Spotify (a later edit stays owed). */
    async markDetailsSynced(targetId: string, version: number, name: string): Promise<void> {
      await db
        .update(playlistTargets)
        .set({
          detailsSyncedVersion: sql`greatest(${playlistTargets.detailsSyncedVersion}, ${version})`,
          spotifyName: name,
        })
        .where(eq(playlistTargets.id, targetId));
    },
  };
}
