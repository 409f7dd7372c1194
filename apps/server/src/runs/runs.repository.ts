// The SQL of runs: a runner's saved workouts, their playlist in Spotify, and their builds.
import { and, asc, desc, eq, inArray, isNotNull, isNull, lt, notInArray, or, sql } from 'drizzle-orm';
import type { RunBlock } from '@pacebeat/contract';
import type { Db } from '../db/client.ts';
import { runBuilds, runs, type StoredRunSong } from '../db/runs.schema.ts';

export type RunRow = Omit<typeof runs.$inferSelect, 'blocks'> & { blocks: RunBlock[] };
export type RunBuildRow = typeof runBuilds.$inferSelect;

/** What the runner saves of a run. */
export interface RunFields {
  name: string;
  blocks: RunBlock[];
  halfTime: boolean;
  noExplicit: boolean;
  likedOnly: boolean;
}

/** Builds kept per run: the last one is shown and written; the ones before it keep the next fresh. */
export const BUILDS_KEPT = 5;

const isUniqueViolation = (err: unknown) =>
  (err as { code?: unknown })?.code === '23505' ||
  (err as { cause?: { code?: unknown } })?.cause?.code === '23505';

export function createRunsRepository(db: Db) {
  const mine = (userId: string, runId: string) => and(eq(runs.id, runId), eq(runs.userId, userId));
  return {
    /** The BPM ranges of every runner's run segments, repeats' included (the tempo lookups check those first), each once. */
    async segmentRanges(): Promise<Array<{ minBpm: number; maxBpm: number }>> {
      const rows = await db.execute<{ min_bpm: number; max_bpm: number }>(sql`
        select distinct (s->>'min_bpm')::float8 as min_bpm, (s->>'max_bpm')::float8 as max_bpm
        from runs, jsonb_path_query(runs.blocks, 'strict $.** ? (exists(@.min_bpm) && exists(@.max_bpm))') s`);
      return rows.rows.map((r) => ({ minBpm: Number(r.min_bpm), maxBpm: Number(r.max_bpm) }));
    },

    /** The user's runs, oldest first, with when each was last built. */
    async list(userId: string): Promise<Array<RunRow & { builtAt: Date | null }>> {
      const rows = await db
        .select({
          run: runs,
          builtAt:
            sql<Date | null>`(select max(b.built_at) from run_builds b where b.run_id = runs.id)`.mapWith(
              (v: string | Date | null) => (v === null ? null : new Date(v)),
            ),
        })
        .from(runs)
        .where(eq(runs.userId, userId))
        .orderBy(asc(runs.createdAt), asc(runs.id));
      return rows.map((r) => ({ ...(r.run as RunRow), builtAt: r.builtAt }));
    },

    /** The run when it is the user's (undefined for another user's or none). */
    async get(userId: string, runId: string): Promise<RunRow | undefined> {
      const rows = await db.select().from(runs).where(mine(userId, runId));
      return rows[0] as RunRow | undefined;
    },

    /**
     * Saves a new run unless the user has `max` already: 'full'; 'taken' when they have one of the name
     * (case aside). The count and the insert are one statement.
     */
    async create(userId: string, f: RunFields, max: number): Promise<RunRow | 'full' | 'taken'> {
      try {
        const r = await db.execute<{ id: string }>(sql`
          insert into runs (user_id, name, blocks, half_time, no_explicit, liked_only)
          select ${userId}, ${f.name}, ${JSON.stringify(f.blocks)}::jsonb, ${f.halfTime}, ${f.noExplicit}, ${f.likedOnly}
          where (select count(*) from runs where user_id = ${userId}) < ${max}
          returning id`);
        const id = r.rows[0]?.id;
        if (!id) return 'full';
        return (await this.get(userId, id))!;
      } catch (err) {
        if (isUniqueViolation(err)) return 'taken';
        throw err;
      }
    },

    /** Changes a run of the user's; undefined when it is not theirs, 'taken' for a name they use already. */
    async update(userId: string, runId: string, f: RunFields): Promise<RunRow | 'taken' | undefined> {
      try {
        const rows = await db
          .update(runs)
          .set({ ...f, updatedAt: sql`now()` })
          .where(mine(userId, runId))
          .returning();
        return rows[0] as RunRow | undefined;
      } catch (err) {
        if (isUniqueViolation(err)) return 'taken';
        throw err;
      }
    },

    /** Deletes a run of the user's (its builds go with it); false when it was not theirs. */
    async remove(userId: string, runId: string): Promise<boolean> {
      const rows = await db.delete(runs).where(mine(userId, runId)).returning({ id: runs.id });
      return rows.length > 0;
    },

    /** The run's last builds, newest first. */
    async builds(runId: string, limit = BUILDS_KEPT): Promise<RunBuildRow[]> {
      return db
        .select()
        .from(runBuilds)
        .where(eq(runBuilds.runId, runId))
        .orderBy(desc(runBuilds.builtAt), desc(runBuilds.id))
        .limit(limit);
    },

    /** Keeps a new build (its writing to Spotify still to come), and the BUILDS_KEPT last of the run. */
    async addBuild(runId: string, songs: StoredRunSong[]): Promise<RunBuildRow> {
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(runBuilds)
          .values({ runId, songs, spotifyState: 'waiting' })
          .returning();
        const keep = tx
          .select({ id: runBuilds.id })
          .from(runBuilds)
          .where(eq(runBuilds.runId, runId))
          .orderBy(desc(runBuilds.builtAt), desc(runBuilds.id))
          .limit(BUILDS_KEPT);
        await tx.delete(runBuilds).where(and(eq(runBuilds.runId, runId), notInArray(runBuilds.id, keep)));
        return row!;
      });
    },

    /** How writing a build to Spotify went. */
    async setBuildSpotify(
      buildId: string,
      s: { state: RunBuildRow['spotifyState']; message: string | null; calls: number },
    ): Promise<void> {
      await db
        .update(runBuilds)
        .set({ spotifyState: s.state, spotifyMessage: s.message, spotifyCalls: s.calls })
        .where(eq(runBuilds.id, buildId));
    },

    /**
     * Records the intent to create the run's playlist, and its name (before `POST /me/playlists`); false
     * when the run has a playlist or another build is creating one now (within `busyMs`).
     */
    async markCreating(runId: string, sentName: string, busyMs = 120_000): Promise<boolean> {
      const rows = await db
        .update(runs)
        .set({ creatingSince: sql`now()`, sentName })
        .where(
          and(
            eq(runs.id, runId),
            isNull(runs.playlistId),
            or(
              isNull(runs.creatingSince),
              lt(runs.creatingSince, sql`now() - make_interval(secs => ${busyMs / 1000})`),
            ),
          ),
        )
        .returning({ id: runs.id });
      return rows.length > 0;
    },

    /** The run's playlist in Spotify, and the name and description it was given. */
    async setPlaylist(
      runId: string,
      p: {
        playlistId: string | null;
        publicUrl: string | null;
        sentName: string | null;
        sentDescription: string | null;
      },
    ): Promise<void> {
      await db
        .update(runs)
        .set({ ...p, creatingSince: null })
        .where(eq(runs.id, runId));
    },

    /** The user's runs with a playlist, by their playlist ids (never a library source). */
    async playlistIdsOf(userId: string): Promise<Set<string>> {
      const rows = await db
        .select({ id: runs.playlistId })
        .from(runs)
        .where(and(eq(runs.userId, userId), isNotNull(runs.playlistId)));
      return new Set(rows.map((r) => r.id!));
    },

    /**
     * The music account is gone (disconnect): the runs stay (the runner's plans), their playlists' links and
     * their builds (songs of that account's library) go.
     */
    async forgetMusicAccount(userId: string): Promise<void> {
      const ids = db.select({ id: runs.id }).from(runs).where(eq(runs.userId, userId));
      await db.delete(runBuilds).where(inArray(runBuilds.runId, ids));
      await db
        .update(runs)
        .set({
          playlistId: null,
          publicUrl: null,
          sentName: null,
          sentDescription: null,
          creatingSince: null,
        })
        .where(eq(runs.userId, userId));
    },
  };
}

export type RunsRepository = ReturnType<typeof createRunsRepository>;
