// The only SQL on the target playlists tables. State changes are compare-and-set (`where state = …`), so
// a writer that lost its lease or a disconnected user's stale writer changes nothing.
import { and, asc, eq, inArray, isNull, lt, or, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { playlistTargets, playlistTargetTracks, playlistWriterLeases } from '../db/playlists.schema.ts';
import { createRemovalsRepository } from './removals.repository.ts';
import { SongSet } from './song-identity.ts';
import { createTargetsRepository } from './targets.repository.ts';

export type TargetRow = typeof playlistTargets.$inferSelect;
export type TargetTrackRow = typeof playlistTargetTracks.$inferSelect;
export type TrackState = TargetTrackRow['state'];

export interface NewTarget {
  minBpm: number;
  maxBpm: number;
  name: string;
  position: number;
}

/** A song Pacebeat placed in a target, as the artist spread sees it (`placedInOrder`). */
export interface PlacedInOrder {
  trackId: string;
  artistIds: string[];
}

export interface TargetStats {
  tracksAdded: number;
  tracksAdded7Days: number;
}

const ms = (n: number) => `${Math.max(0, Math.round(n))} milliseconds`;

/** Rows or keys per statement: well under PostgreSQL's 65,535 parameters. */
const CHUNK = 2000;
const chunks = <T>(xs: T[]): T[][] =>
  Array.from({ length: Math.ceil(xs.length / CHUNK) }, (_, i) => xs.slice(i * CHUNK, (i + 1) * CHUNK));

export function createPlaylistsRepository(db: Db) {
  const targetIs = (targetId: string, state: TargetRow['state']) =>
    and(eq(playlistTargets.id, targetId), eq(playlistTargets.state, state));

  return {
    ...createTargetsRepository(db),
    ...createRemovalsRepository(db),

    /** Inserts targets a user lacks (by range); existing ones are left as they are. Returns those inserted. */
    async createTargets(userId: string, targets: NewTarget[]): Promise<number> {
      if (targets.length === 0) return 0;
      const rows = await db
        .insert(playlistTargets)
        .values(targets.map((t) => ({ ...t, userId })))
        .onConflictDoNothing()
        .returning({ id: playlistTargets.id });
      return rows.length;
    },

    /** The user's live targets (not those the runner deleted in Pacebeat). */
    async listTargets(userId: string): Promise<TargetRow[]> {
      return db
        .select()
        .from(playlistTargets)
        .where(and(eq(playlistTargets.userId, userId), isNull(playlistTargets.archivedAt)))
        .orderBy(asc(playlistTargets.position), asc(playlistTargets.minBpm));
    },

    /** Per target: tracks Pacebeat added that the playlist holds now, in all and since `since`. */
    async statsOf(targetIds: string[], since: Date): Promise<Map<string, TargetStats>> {
      if (targetIds.length === 0) return new Map();
      const rows = await db
        .select({
          targetId: playlistTargetTracks.targetId,
          added: sql<number>`count(*) filter (where ${playlistTargetTracks.state} = 'added')::int`,
          recent: sql<number>`count(*) filter (where ${playlistTargetTracks.state} = 'added' and ${playlistTargetTracks.addedAt} >= ${since.toISOString()}::timestamptz)::int`,
        })
        .from(playlistTargetTracks)
        .where(inArray(playlistTargetTracks.targetId, targetIds))
        .groupBy(playlistTargetTracks.targetId);
      return new Map(rows.map((r) => [r.targetId, { tracksAdded: r.added, tracksAdded7Days: r.recent }]));
    },

    /** Everything kept about a user's targets (disconnect): the rows of their tracks go with them. */
    async deleteUserData(userId: string): Promise<void> {
      await db.delete(playlistTargets).where(eq(playlistTargets.userId, userId));
      await db.delete(playlistWriterLeases).where(eq(playlistWriterLeases.userId, userId));
    },

    // ---- the writer lease ----------------------------------------------------------------------

    /** Takes the user's writer lease for `forMs` unless another holder's lease is still running. */
    async acquireLease(userId: string, holder: string, forMs: number): Promise<boolean> {
      const rows = await db
        .insert(playlistWriterLeases)
        .values({ userId, holder, until: sql`now() + ${ms(forMs)}::interval` })
        .onConflictDoUpdate({
          target: playlistWriterLeases.userId,
          set: { holder, until: sql`now() + ${ms(forMs)}::interval` },
          setWhere: or(lt(playlistWriterLeases.until, sql`now()`), eq(playlistWriterLeases.holder, holder)),
        })
        .returning({ holder: playlistWriterLeases.holder });
      return rows.length > 0;
    },

    /** Extends a lease this holder still has; false when it lost it (expired and taken, or the user left). */
    async renewLease(userId: string, holder: string, forMs: number): Promise<boolean> {
      const rows = await db
        .update(playlistWriterLeases)
        .set({ until: sql`now() + ${ms(forMs)}::interval` })
        .where(and(eq(playlistWriterLeases.userId, userId), eq(playlistWriterLeases.holder, holder)))
        .returning({ holder: playlistWriterLeases.holder });
      return rows.length > 0;
    },

    async releaseLease(userId: string, holder: string): Promise<void> {
      await db
        .delete(playlistWriterLeases)
        .where(and(eq(playlistWriterLeases.userId, userId), eq(playlistWriterLeases.holder, holder)));
    },

    // ---- a target's playlist -------------------------------------------------------------------

    /** Records the intent to create the playlist (pending → creating); false if the target is not pending. */
    async markCreating(targetId: string): Promise<boolean> {
      const rows = await db
        .update(playlistTargets)
        .set({
          state: 'creating',
          createAttempts: sql`${playlistTargets.createAttempts} + 1`,
          creatingSince: sql`now()`,
          // The playlist is made with the current name and range: its details are in sync.
          spotifyName: sql`${playlistTargets.name}`,
          detailsSyncedVersion: sql`${playlistTargets.detailsVersion}`,
        })
        .where(targetIs(targetId, 'pending'))
        .returning({ id: playlistTargets.id });
      return rows.length > 0;
    },

    /** A creation that surely did not happen (Spotify refused it, or it was never sent): creating → pending. */
    async markNotCreated(targetId: string): Promise<void> {
      await db
        .update(playlistTargets)
        .set({ state: 'pending', creatingSince: null })
        .where(targetIs(targetId, 'creating'));
    },

    /** The playlist exists (created, found after an unclear failure or from before, followed again): → active. */
    async markActive(
      targetId: string,
      p: { playlistId: string; publicUrl: string | null; snapshotId: string | null },
    ): Promise<boolean> {
      const rows = await db
        .update(playlistTargets)
        .set({
          state: 'active',
          playlistId: p.playlistId,
          publicUrl: p.publicUrl,
          snapshotId: p.snapshotId,
          snapshotAt: sql`now()`,
          creatingSince: null,
          deletedAt: null,
          followCheckedAt: sql`now()`,
        })
        .where(
          and(
            eq(playlistTargets.id, targetId),
            inArray(playlistTargets.state, ['pending', 'creating', 'deleted']),
          ),
        )
        .returning({ id: playlistTargets.id });
      return rows.length > 0;
    },

    /** The user deleted or unfollowed the playlist: Pacebeat stops writing to it. */
    async markDeleted(targetId: string): Promise<void> {
      await db
        .update(playlistTargets)
        .set({ state: 'deleted', deletedAt: sql`now()`, followCheckedAt: sql`now()` })
        .where(targetIs(targetId, 'active'));
    },

    async markFollowChecked(targetIds: string[]): Promise<void> {
      if (targetIds.length === 0) return;
      await db
        .update(playlistTargets)
        .set({ followCheckedAt: sql`now()` })
        .where(inArray(playlistTargets.id, targetIds));
    },

    /** The playlist's snapshot as of now (after our write, or a read that reconciled it). */
    async setSnapshot(targetId: string, snapshotId: string | null): Promise<void> {
      await db
        .update(playlistTargets)
        .set({ snapshotId, snapshotAt: sql`now()` })
        .where(eq(playlistTargets.id, targetId));
    },

    async finishJob(userId: string): Promise<void> {
      await db
        .update(playlistTargets)
        .set({ lastJobFinishedAt: sql`now()` })
        .where(eq(playlistTargets.userId, userId));
    },

    // ---- recordings in a target ----------------------------------------------------------------

    /**
     * Per target, the songs it has in any state but `unplaced` (song-identity.ts), and those of the full
     * targets it continues: each row's track id and recording key as recorded, with its track's recording
     * key, title, first artist and duration as the library knows them now (an ISRC learned since changes
     * the key; the row keeps the one it was placed by).
     */
    async placedSongs(targetIds: string[]): Promise<Map<string, SongSet>> {
      const out = new Map<string, SongSet>(targetIds.map((id) => [id, new SongSet()]));
      if (targetIds.length === 0) return out;
      const rows = await db.execute<{
        for_target: string;
        recording_key: string;
        track_id: string;
        current_key: string | null;
        title: string | null;
        artist_id: string | null;
        duration_ms: number | null;
      }>(sql`
        with recursive chain(for_target, id) as (
          select id, id from playlist_targets where id in ${targetIds}
          union
          select c.for_target, t.continues_id
          from chain c join playlist_targets t on t.id = c.id
          where t.continues_id is not null)
        select c.for_target, tt.recording_key, tt.track_id, lt.recording_key as current_key, lt.title,
               lt.artist_ids[1] as artist_id, lt.duration_ms
        from chain c
        join playlist_target_tracks tt on tt.target_id = c.id and tt.state <> 'unplaced'
        left join library_tracks lt on lt.id = tt.track_id`);
      for (const r of rows.rows)
        out.get(r.for_target)?.add({
          recordingKey: r.recording_key,
          trackId: r.track_id,
          currentKey: r.current_key,
          title: r.title,
          artistId: r.artist_id,
          durationMs: r.duration_ms,
        });
      return out;
    },

    /** Whether the user's targets hold fewer than `n` songs Pacebeat placed (added, or being added). */
    async fewerPlacedThan(userId: string, n: number): Promise<boolean> {
      const rows = await db.execute<{ placed: number }>(sql`
        select count(*)::int as placed from (
          select 1 from playlist_target_tracks tt
          join playlist_targets t on t.id = tt.target_id
          where t.user_id = ${userId} and tt.state in ('added', 'pending')
          limit ${n}) x`);
      return (rows.rows[0]?.placed ?? 0) < n;
    },

    /**
     * Per target, the songs Pacebeat placed (added, or being added) in the order appended, each with its
     * artists as the library knows them (none when it no longer holds the track): what the artist spread
     * (spread.ts) keeps new songs apart from.
     */
    async placedInOrder(targetIds: string[]): Promise<Map<string, PlacedInOrder[]>> {
      const out = new Map<string, PlacedInOrder[]>(targetIds.map((id) => [id, []]));
      if (targetIds.length === 0) return out;
      const rows = await db.execute<{ target_id: string; track_id: string; artist_ids: string[] | null }>(sql`
        select tt.target_id, tt.track_id, lt.artist_ids
        from playlist_target_tracks tt
        left join library_tracks lt on lt.id = tt.track_id
        where tt.target_id in ${targetIds} and tt.state in ('added', 'pending')
        order by tt.target_id, tt.recorded_at, tt.seq`);
      for (const r of rows.rows)
        out.get(r.target_id)?.push({ trackId: r.track_id, artistIds: r.artist_ids ?? [] });
      return out;
    },

    async tracksOf(targetId: string, states?: TrackState[]): Promise<TargetTrackRow[]> {
      return db
        .select()
        .from(playlistTargetTracks)
        .where(
          and(
            eq(playlistTargetTracks.targetId, targetId),
            states ? inArray(playlistTargetTracks.state, states) : undefined,
          ),
        )
        .orderBy(asc(playlistTargetTracks.recordedAt), asc(playlistTargetTracks.seq));
    },

    /**
     * Records a batch about to be added (before the call); a recording Pacebeat removed on request
     * (`unplaced`) that fits again is taken back. Returns the rows recorded, in order.
     */
    async recordPending(
      targetId: string,
      batchId: string,
      tracks: Array<{ recordingKey: string; trackId: string; bpm: number }>,
    ): Promise<TargetTrackRow[]> {
      if (tracks.length === 0) return [];
      const rows = await db
        .insert(playlistTargetTracks)
        .values(
          tracks.map((t, seq) => ({
            recordingKey: t.recordingKey,
            trackId: t.trackId,
            bpm: t.bpm,
            targetId,
            batchId,
            seq,
            state: 'pending' as const,
          })),
        )
        .onConflictDoUpdate({
          target: [playlistTargetTracks.targetId, playlistTargetTracks.recordingKey],
          set: {
            state: 'pending',
            trackId: sql`excluded.track_id`,
            batchId: sql`excluded.batch_id`,
            seq: sql`excluded.seq`,
            bpm: sql`excluded.bpm`,
            recordedAt: sql`now()`,
            addedAt: null,
            removedAt: null,
            removeRequestedAt: null,
          },
          setWhere: eq(playlistTargetTracks.state, 'unplaced'),
        })
        .returning();
      return rows.sort((a, b) => a.seq - b.seq);
    },

    /** A batch's tracks are in the playlist: pending → added. */
    async confirmBatch(targetId: string, batchId: string): Promise<number> {
      const rows = await db
        .update(playlistTargetTracks)
        .set({ state: 'added', addedAt: sql`now()` })
        .where(
          and(
            eq(playlistTargetTracks.targetId, targetId),
            eq(playlistTargetTracks.batchId, batchId),
            eq(playlistTargetTracks.state, 'pending'),
          ),
        )
        .returning({ key: playlistTargetTracks.recordingKey });
      return rows.length;
    },

    /** A batch that surely did not land: its pending rows go, so its tracks can be planned again. */
    async releaseBatch(targetId: string, batchId: string): Promise<void> {
      await db
        .delete(playlistTargetTracks)
        .where(
          and(
            eq(playlistTargetTracks.targetId, targetId),
            eq(playlistTargetTracks.batchId, batchId),
            eq(playlistTargetTracks.state, 'pending'),
          ),
        );
    },

    /** Sets the state of some recordings of a target (reconciling with what the playlist holds). */
    async setStates(targetId: string, keys: string[], state: TrackState): Promise<void> {
      for (const part of chunks(keys)) {
        await db
          .update(playlistTargetTracks)
          .set({
            state,
            ...(state === 'removed' ? { removedAt: sql`now()` } : {}),
            ...(state === 'unplaced' ? { removeRequestedAt: null } : {}),
            ...(state === 'added' ? { addedAt: sql`coalesce(${playlistTargetTracks.addedAt}, now())` } : {}),
          })
          .where(
            and(
              eq(playlistTargetTracks.targetId, targetId),
              inArray(playlistTargetTracks.recordingKey, part),
            ),
          );
      }
    },

    /** Recordings found in the playlist that the target did not know: kept as `present`, never added. */
    /**
     * Songs found in a taken-back playlist (an earlier connection's) that Pacebeat would place there: its
     * own again, placed with `bpm` when Spotify says they were added (else now). Never over a known row.
     */
    async recordAdopted(
      targetId: string,
      tracks: Array<{ recordingKey: string; trackId: string; bpm: number; addedAt?: Date | null }>,
    ) {
      for (const part of chunks(tracks)) {
        await db
          .insert(playlistTargetTracks)
          .values(
            part.map((t) => ({
              targetId,
              recordingKey: t.recordingKey,
              trackId: t.trackId,
              bpm: t.bpm,
              state: 'added' as const,
              addedAt: t.addedAt ?? sql`now()`,
            })),
          )
          .onConflictDoNothing();
      }
    },

    async recordPresent(targetId: string, tracks: Array<{ recordingKey: string; trackId: string }>) {
      for (const part of chunks(tracks)) {
        await db
          .insert(playlistTargetTracks)
          .values(part.map((t) => ({ ...t, targetId, state: 'present' as const })))
          .onConflictDoNothing();
      }
    },
  };
}

export type PlaylistsRepository = ReturnType<typeof createPlaylistsRepository>;
