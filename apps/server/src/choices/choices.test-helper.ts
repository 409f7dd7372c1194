// Test fixtures for the choices module on the real test PostgreSQL: users, their default targets, library
// tracks with artists and a cached tempo, and tracks Pacebeat placed in a target. Only tests import this file.
import { randomBytes, randomUUID } from 'node:crypto';
import type { Meter } from '@pacebeat/contract';
import { sql } from 'drizzle-orm';
import { catalogQueries } from '../library/catalog.repository.ts';
import type { MatchCandidate } from '../playlists/candidates.ts';
import { createPlaylistsRepository } from '../playlists/playlists.repository.ts';
import { createPlaylistsService } from '../playlists/playlists.service.ts';
import { createTempoRepository } from '../tempo/tempo.repository.ts';

/** The Drizzle handle repositories take (only repositories import the client itself). */
type Db = Parameters<typeof createTempoRepository>[0];

const B62 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';
/** A random Spotify-like id (22 base62 characters). */
export const spotifyId = () => [...randomBytes(22)].map((b) => B62[b % 62]).join('');
const isrc = () => `TS${[...randomBytes(10)].map((b) => B62[b % 26]).join('')}`;

export interface SeededTrack {
  id: string;
  recordingKey: string;
  title: string;
  artistIds: string[];
}

export function choicesFixtures(db: Db) {
  const catalog = catalogQueries(db);
  const tempo = createTempoRepository(db);
  const playlists = createPlaylistsRepository(db);
  const service = createPlaylistsService({ repo: playlists });
  return {
    playlists,
    tempo,
    async newUser(): Promise<string> {
      const rows = await db.execute<{ id: string }>(
        sql`insert into users (email, name) values (${`c-${randomUUID()}@example.org`}, 'Runner') returning id`,
      );
      return rows.rows[0]!.id;
    },

    /** The four default targets (150–190), by their lower bound: { 150: id, 160: id, … }. */
    async targets(userId: string): Promise<Record<number, string>> {
      await service.createDefaultTargets(userId);
      const rows = await playlists.listTargets(userId);
      return Object.fromEntries(rows.map((t) => [t.minBpm, t.id]));
    },

    /** An artist the library knows. */
    async artist(name: string): Promise<string> {
      const id = spotifyId();
      await catalog.upsertArtists([{ id, name }]);
      return id;
    },

    /**
     * A library track of these artists, with a cached tempo (`bpm` null: no source knows it); with `of`, in
     * that user's Liked Songs (a runner acts only on tracks and artists of their own library).
     */
    async track(o: {
      of?: string;
      title?: string;
      artists: string[];
      bpm: number | null;
      confidence?: number;
      source?: string;
      meter?: Meter | null;
    }): Promise<SeededTrack> {
      const id = spotifyId();
      const code = isrc();
      const title = o.title ?? `Song ${id.slice(0, 5)}`;
      const recordingKey = `isrc:${code}`;
      await catalog.upsertTracks([
        {
          id,
          isrc: code,
          recordingKey,
          title,
          artists: o.artists.map((a) => ({ id: a, name: '' })),
          durationMs: 200_000,
          explicit: false,
          releaseId: null,
          trackNumber: null,
        },
      ]);
      await tempo.save([
        {
          key: recordingKey,
          isrc: code,
          spotifyId: id,
          bpm: o.bpm,
          source: o.bpm === null ? null : (o.source ?? 'reccobeats'),
          confidence: o.bpm === null ? 0 : (o.confidence ?? 0.85),
          alternatives: [],
          meter: o.meter ?? null,
          meterConfidence: o.meter ? 0.9 : 0,
          reason: o.bpm === null ? 'no source knows this track' : null,
          retryAt: null,
          resolvedAt: new Date(),
        },
      ]);
      if (o.of) await this.own(o.of, [id]);
      return { id, recordingKey, title, artistIds: o.artists };
    },

    /** Puts tracks in the user's library (their Liked Songs). */
    async own(userId: string, trackIds: string[]): Promise<void> {
      await db.execute(
        sql`insert into library_users (user_id, spotify_user_id) values (${userId}, ${`sp-${userId}`})
            on conflict do nothing`,
      );
      await db.execute(
        sql`insert into library_sources (user_id, kind, source_id, name)
            values (${userId}, 'liked_songs', 'liked_songs', 'Liked Songs') on conflict do nothing`,
      );
      for (const [i, trackId] of trackIds.entries()) {
        await db.execute(
          sql`insert into library_source_tracks (source_ref, track_id, position, pass)
              select id, ${trackId}, ${i}, 0 from library_sources
              where user_id = ${userId} and kind = 'liked_songs'
              on conflict do nothing`,
        );
      }
    },

    /** Tracks Pacebeat added to a target (one batch, confirmed), with the tempo they were placed with. */
    async place(targetId: string, tracks: Array<SeededTrack & { bpm: number }>): Promise<void> {
      const batch = randomUUID();
      await playlists.recordPending(
        targetId,
        batch,
        tracks.map((t) => ({ recordingKey: t.recordingKey, trackId: t.id, bpm: t.bpm })),
      );
      await playlists.confirmBatch(targetId, batch);
    },
  };
}

/** Match candidates of tracks, ranked in the order given (as the library module lists them). */
export const candidatesOf = (tracks: SeededTrack[]): MatchCandidate[] =>
  tracks.map((t, rank) => ({
    trackId: t.id,
    recordingKey: t.recordingKey,
    title: t.title,
    artistIds: t.artistIds,
    durationMs: 200_000,
    explicit: false,
    fromLikedSongs: true,
    rank,
  }));
