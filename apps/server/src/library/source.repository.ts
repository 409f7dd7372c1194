// The only SQL on a user's sources: the rows of the Sources table with their cursors and progress, and
// membership (which source holds which track or followed artist).
import { and, eq, lt, sql } from 'drizzle-orm';
import type { SourceKind } from '@pacebeat/contract';
import type { Db } from '../db/client.ts';
import {
  librarySourceArtists,
  librarySources,
  librarySourceTracks,
  libraryUsers,
} from '../db/library.schema.ts';

type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type SourceRow = typeof librarySources.$inferSelect;
export type SourcePatch = Partial<Omit<SourceRow, 'id' | 'userId' | 'kind' | 'sourceId' | 'createdAt'>>;

/** A playlist as discovery lists it. */
export interface PlaylistSourceInput {
  sourceId: string;
  name: string;
  ownerName: string | null;
  readable: boolean;
  snapshot: string | null;
  total: number;
  position: number;
}

/** The source queries a scan step runs, on the pool or inside its transaction. */
export function sourceQueries(db: Db | Tx) {
  return {
    /** Membership or a switch changed: the artist set is computed again before the next catalog step. */
    async markArtistsStale(userId: string): Promise<void> {
      await db.update(libraryUsers).set({ artistsStale: true }).where(eq(libraryUsers.userId, userId));
    },

    /** A user's sources: base sources first, then playlists in the user's order. */
    async listSources(userId: string): Promise<SourceRow[]> {
      return db
        .select()
        .from(librarySources)
        .where(eq(librarySources.userId, userId))
        .orderBy(
          sql`case ${librarySources.kind} when 'liked_songs' then 0 when 'playlist' then 1 when 'followed_artists' then 2 else 3 end`,
          librarySources.position,
          librarySources.id,
        );
    },

    async updateSource(userId: string, id: number, patch: SourcePatch): Promise<void> {
      await db
        .update(librarySources)
        .set(patch)
        .where(and(eq(librarySources.userId, userId), eq(librarySources.id, id)));
    },

    /** Adds or refreshes a source's tracks as seen by `pass`; answers how many were new to it. */
    async addSourceTracks(
      sourceRef: number,
      pass: number,
      entries: Array<{ trackId: string; addedAt: Date | null; position: number }>,
    ): Promise<number> {
      const unique = [...new Map(entries.map((e) => [e.trackId, e])).values()];
      if (unique.length === 0) return 0;
      const rows = await db
        .insert(librarySourceTracks)
        .values(unique.map((e) => ({ ...e, sourceRef, pass })))
        .onConflictDoUpdate({
          target: [librarySourceTracks.sourceRef, librarySourceTracks.trackId],
          set: { pass, position: sql`excluded.position`, addedAt: sql`excluded.added_at` },
        })
        .returning({ inserted: sql<boolean>`(xmax = 0)` });
      return rows.filter((r) => r.inserted).length;
    },

    async countSourceTracks(sourceRef: number): Promise<number> {
      const rows = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(librarySourceTracks)
        .where(eq(librarySourceTracks.sourceRef, sourceRef));
      return rows[0]?.n ?? 0;
    },

    /** After a complete pass: drops the tracks that pass did not see (removed from the source). */
    async sweepSourceTracks(sourceRef: number, pass: number): Promise<number> {
      const rows = await db
        .delete(librarySourceTracks)
        .where(and(eq(librarySourceTracks.sourceRef, sourceRef), lt(librarySourceTracks.pass, pass)))
        .returning({ trackId: librarySourceTracks.trackId });
      return rows.length;
    },

    /** Adds or refreshes followed artists as seen by `pass`; answers how many were new. */
    async addSourceArtists(
      sourceRef: number,
      pass: number,
      entries: Array<{ artistId: string; position: number }>,
    ): Promise<number> {
      const unique = [...new Map(entries.map((e) => [e.artistId, e])).values()];
      if (unique.length === 0) return 0;
      const rows = await db
        .insert(librarySourceArtists)
        .values(unique.map((e) => ({ ...e, sourceRef, pass })))
        .onConflictDoUpdate({
          target: [librarySourceArtists.sourceRef, librarySourceArtists.artistId],
          set: { pass, position: sql`excluded.position` },
        })
        .returning({ inserted: sql<boolean>`(xmax = 0)` });
      return rows.filter((r) => r.inserted).length;
    },

    async countSourceArtists(sourceRef: number): Promise<number> {
      const rows = await db
        .select({ n: sql<number>`count(*)::int` })
        .from(librarySourceArtists)
        .where(eq(librarySourceArtists.sourceRef, sourceRef));
      return rows[0]?.n ?? 0;
    },

    async sweepSourceArtists(sourceRef: number, pass: number): Promise<number> {
      const rows = await db
        .delete(librarySourceArtists)
        .where(and(eq(librarySourceArtists.sourceRef, sourceRef), lt(librarySourceArtists.pass, pass)))
        .returning({ artistId: librarySourceArtists.artistId });
      return rows.length;
    },

    /**
     * Records playlists listed by a discovery pass (name, owner, snapshot, size, order). A new playlist is
     * enabled when the user may read it; one that became unreadable is switched off.
     */
    async upsertPlaylistSources(userId: string, pass: number, lists: PlaylistSourceInput[]): Promise<void> {
      if (lists.length === 0) return;
      await db
        .insert(librarySources)
        .values(
          lists.map((p) => ({
            userId,
            kind: 'playlist' as const,
            sourceId: p.sourceId,
            name: p.name,
            ownerName: p.ownerName,
            readable: p.readable,
            enabled: p.readable,
            position: p.position,
            seenPass: pass,
            snapshot: p.snapshot,
            total: p.total,
            state: p.readable ? 'idle' : 'unreadable',
            dueAt: null,
          })),
        )
        .onConflictDoUpdate({
          target: [librarySources.userId, librarySources.kind, librarySources.sourceId],
          set: {
            name: sql`excluded.name`,
            ownerName: sql`excluded.owner_name`,
            readable: sql`excluded.readable`,
            enabled: sql`${librarySources.enabled} and excluded.readable`,
            position: sql`excluded.position`,
            seenPass: sql`excluded.seen_pass`,
            snapshot: sql`excluded.snapshot`,
            total: sql`excluded.total`,
            state: sql`case when excluded.readable then (case when ${librarySources.state} = 'unreadable' then 'idle' else ${librarySources.state} end) else 'unreadable' end`,
          },
        });
    },

    /** After a complete discovery pass: playlists it did not list are gone (deleted or unfollowed). */
    async sweepPlaylistSources(userId: string, pass: number): Promise<number> {
      const rows = await db
        .delete(librarySources)
        .where(
          and(
            eq(librarySources.userId, userId),
            eq(librarySources.kind, 'playlist'),
            lt(librarySources.seenPass, pass),
          ),
        )
        .returning({ id: librarySources.id });
      if (rows.length > 0)
        await db.update(libraryUsers).set({ artistsStale: true }).where(eq(libraryUsers.userId, userId));
      return rows.length;
    },
  };
}

export function createSourceRepository(db: Db) {
  return {
    ...sourceQueries(db),

    async getSource(userId: string, kind: SourceKind, sourceId: string): Promise<SourceRow | undefined> {
      const rows = await db
        .select()
        .from(librarySources)
        .where(
          and(
            eq(librarySources.userId, userId),
            eq(librarySources.kind, kind),
            eq(librarySources.sourceId, sourceId),
          ),
        );
      return rows[0];
    },

    /** Switches a source; enabling makes it due now (unless a pass is under way). Undefined when not the user's. */
    async setEnabled(
      userId: string,
      kind: SourceKind,
      sourceId: string,
      enabled: boolean,
    ): Promise<SourceRow | undefined> {
      const rows = await db
        .update(librarySources)
        // A pass that was running when the source was switched off just continues.
        .set(
          enabled
            ? {
                enabled,
                dueAt: sql`case when ${librarySources.cursor} is null then now() else ${librarySources.dueAt} end`,
                failures: 0,
              }
            : { enabled },
        )
        .where(
          and(
            eq(librarySources.userId, userId),
            eq(librarySources.kind, kind),
            eq(librarySources.sourceId, sourceId),
          ),
        )
        .returning();
      if (rows[0])
        await db.update(libraryUsers).set({ artistsStale: true }).where(eq(libraryUsers.userId, userId));
      return rows[0];
    },
  };
}
export type SourceRepository = ReturnType<typeof createSourceRepository>;
