// The SQL of removing, on the runner's request, what Pacebeat added to a target's playlist. A request
// marks rows (`remove_requested_at`); the writer records a batch `removing` before its DELETE call, then
// `unplaced` once it is done, or `added` again when it surely did not happen (the request stays).
import { and, eq, inArray, isNotNull, isNull, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { playlistTargets, playlistTargetTracks } from '../db/playlists.schema.ts';

type TargetTrackRow = typeof playlistTargetTracks.$inferSelect;

const tt = playlistTargetTracks;

export function createRemovalsRepository(db: Db) {
  const inBatch = (targetId: string, batchId: string) =>
    and(eq(tt.targetId, targetId), eq(tt.batchId, batchId), eq(tt.state, 'removing'));

  return {
    /**
     * Marks recordings Pacebeat added (or is adding) to the user's live targets for removal; the user's
     * own (`present`) and other users' targets are never touched. Returns how many rows are marked.
     */
    async requestRemovals(
      userId: string,
      removals: Array<{ targetId: string; recordingKey: string }>,
    ): Promise<number> {
      if (removals.length === 0) return 0;
      const want = JSON.stringify(removals.map((p) => ({ t: p.targetId, k: p.recordingKey })));
      const r = await db.execute(sql`
        update playlist_target_tracks x
        set remove_requested_at = coalesce(x.remove_requested_at, now())
        from playlist_targets t,
             jsonb_to_recordset(${want}::jsonb) as want(t uuid, k text)
        where t.id = x.target_id and t.user_id = ${userId} and t.archived_at is null
          and x.target_id = want.t and x.recording_key = want.k
          and x.state in ('added', 'pending')`);
      return r.rowCount ?? 0;
    },

    /** Marks everything Pacebeat added to one live target of the user (the writer keeps what still fits). */
    async requestAllRemovals(userId: string, targetId: string): Promise<number> {
      const owned = db
        .select({ id: playlistTargets.id })
        .from(playlistTargets)
        .where(
          and(
            eq(playlistTargets.id, targetId),
            eq(playlistTargets.userId, userId),
            isNull(playlistTargets.archivedAt),
          ),
        );
      const rows = await db
        .update(tt)
        .set({ removeRequestedAt: sql`coalesce(${tt.removeRequestedAt}, now())` })
        .where(and(inArray(tt.targetId, owned), inArray(tt.state, ['added', 'pending'])))
        .returning({ key: tt.recordingKey });
      return rows.length;
    },

    /** Added rows the runner asked to remove, oldest request first. */
    async removalRequests(targetId: string): Promise<TargetTrackRow[]> {
      return db
        .select()
        .from(tt)
        .where(and(eq(tt.targetId, targetId), eq(tt.state, 'added'), isNotNull(tt.removeRequestedAt)))
        .orderBy(tt.removeRequestedAt, tt.recordingKey);
    },

    /** Requests that no longer hold (the recording fits the target after all): dropped. */
    async cancelRemovals(targetId: string, keys: string[]): Promise<void> {
      if (keys.length === 0) return;
      await db
        .update(tt)
        .set({ removeRequestedAt: null })
        .where(and(eq(tt.targetId, targetId), inArray(tt.recordingKey, keys), eq(tt.state, 'added')));
    },

    /** Records a removal batch before its call: requested added rows → removing. Returns those recorded. */
    async markRemoving(targetId: string, batchId: string, keys: string[]): Promise<TargetTrackRow[]> {
      if (keys.length === 0) return [];
      return db
        .update(tt)
        .set({ state: 'removing', batchId, removedAt: sql`now()` })
        .where(
          and(
            eq(tt.targetId, targetId),
            inArray(tt.recordingKey, keys),
            eq(tt.state, 'added'),
            isNotNull(tt.removeRequestedAt),
          ),
        )
        .returning();
    },

    /** The removal happened: removing → unplaced (added again only if it fits again). */
    async finishRemoval(targetId: string, batchId: string): Promise<number> {
      const rows = await db
        .update(tt)
        .set({ state: 'unplaced', removeRequestedAt: null })
        .where(inBatch(targetId, batchId))
        .returning({ key: tt.recordingKey });
      return rows.length;
    },

    /** The removal surely did not happen: removing → added; the request stays, for the next run. */
    async releaseRemoval(targetId: string, batchId: string): Promise<void> {
      await db.update(tt).set({ state: 'added', removedAt: null }).where(inBatch(targetId, batchId));
    },
  };
}

export type RemovalsRepository = ReturnType<typeof createRemovalsRepository>;
