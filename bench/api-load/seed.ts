// A signed-in user with a large library, written straight into the tables (a real scan of it would take
// the simulated world's 1,000-call days): Liked Songs and 20 playlists over `tracks` tracks, half of them
// with a tempo, the artist catalogs and followed artists sources, the 4 default targets with their playlists
// and a few thousand placed tracks. Bench data only: the product writes these rows through its repositories.
import { randomUUID } from 'node:crypto';
import { createDb } from '@pacebeat/server/src/db/client.ts';
import {
  libraryArtists,
  librarySources,
  librarySourceTracks,
  libraryTracks,
  libraryUsers,
  playlistTargets,
  playlistTargetTracks,
  spotifyAccounts,
  tempoRecordings,
} from '@pacebeat/server/src/db/schema.ts';

const chunks = <T>(xs: T[], n: number) =>
  Array.from({ length: Math.ceil(xs.length / n) }, (_, i) => xs.slice(i * n, i * n + n));
const b62 = (i: number, prefix: string) => (prefix + i.toString(36)).padEnd(22, '0').slice(0, 22);

export async function seedLargeLibrary(databaseUrl: string, userId: string, tracks: number) {
  const h = createDb(databaseUrl, { max: 2 });
  const db = h.db;
  try {
    await db
      .insert(spotifyAccounts)
      .values({
        userId,
        accountId: `bench-${userId}`,
        spotifyUserId: 'bench.runner',
        displayName: 'Bench Runner',
        scopes: 'user-library-read',
        refreshTokenEnc: 'not-used',
      })
      .onConflictDoNothing();
    await db.insert(libraryUsers).values({ userId, spotifyUserId: 'bench.runner', discoveredAt: new Date() });
    const artists = Array.from({ length: 900 }, (_, i) => ({ id: b62(i, 'ar'), name: `Artist ${i}` }));
    for (const c of chunks(artists, 500)) await db.insert(libraryArtists).values(c).onConflictDoNothing();
    const rows = Array.from({ length: tracks }, (_, i) => ({
      id: b62(i, 'tr'),
      isrc: `BENCH${String(i).padStart(7, '0')}`,
      recordingKey: `isrc:BENCH${String(i).padStart(7, '0')}`,
      title: `Song ${i}`,
      artistIds: [artists[i % artists.length]!.id],
      durationMs: 200_000,
      explicit: false,
    }));
    for (const c of chunks(rows, 1000)) await db.insert(libraryTracks).values(c).onConflictDoNothing();
    const tempos = rows
      .filter((_, i) => i % 2 === 0)
      .map((t, i) => ({
        key: t.recordingKey,
        isrc: t.isrc,
        bpm: 120 + (i % 80),
        source: 'reccobeats',
        confidence: 0.85,
      }));
    for (const c of chunks(tempos, 1000)) await db.insert(tempoRecordings).values(c).onConflictDoNothing();
    const now = new Date();
    const sources = [
      { kind: 'liked_songs' as const, sourceId: 'liked_songs', name: 'Liked Songs' },
      { kind: 'followed_artists' as const, sourceId: 'followed_artists', name: 'Followed artists' },
      { kind: 'artist_catalogs' as const, sourceId: 'artist_catalogs', name: 'Artist catalogs' },
      ...Array.from({ length: 20 }, (_, i) => ({
        kind: 'playlist' as const,
        sourceId: b62(i, 'pl'),
        name: `Playlist <${i}> & co`,
        ownerName: 'Bench Runner',
        position: i,
      })),
    ];
    const made = await db
      .insert(librarySources)
      .values(
        sources.map((s) => ({
          ...s,
          userId,
          state: 'idle',
          pass: 1,
          lastFinishedAt: now,
          fullReadAt: now,
          dueAt: null,
          itemsRead: 0,
          pagesRead: 0,
        })),
      )
      .returning({ id: librarySources.id, kind: librarySources.kind });
    const liked = made.find((s) => s.kind === 'liked_songs')!.id;
    const playlists = made.filter((s) => s.kind === 'playlist').map((s) => s.id);
    const members = rows.map((t, i) => ({
      sourceRef: liked,
      trackId: t.id,
      position: i,
      pass: 1,
      addedAt: now,
    }));
    rows.forEach((t, i) => {
      if (i % 4 === 0)
        members.push({
          sourceRef: playlists[i % playlists.length]!,
          trackId: t.id,
          position: i,
          pass: 1,
          addedAt: now,
        });
    });
    for (const c of chunks(members, 1000))
      await db.insert(librarySourceTracks).values(c).onConflictDoNothing();
    const targets = await db
      .insert(playlistTargets)
      .values(
        [150, 160, 170, 180].map((min, i) => ({
          userId,
          minBpm: min,
          maxBpm: min + 10,
          name: `Pacebeat ${min}–${min + 10} BPM`,
          position: i,
          state: 'active' as const,
          playlistId: b62(i, 'tg'),
          publicUrl: `https://open.spotify.com/playlist/${b62(i, 'tg')}`,
          lastJobFinishedAt: now,
        })),
      )
      .returning({ id: playlistTargets.id });
    const placed = rows.slice(0, 4000).map((t, i) => ({
      targetId: targets[i % 4]!.id,
      recordingKey: t.recordingKey,
      trackId: t.id,
      state: 'added' as const,
      seq: i,
      addedAt: now,
      batchId: randomUUID(),
    }));
    for (const c of chunks(placed, 1000))
      await db.insert(playlistTargetTracks).values(c).onConflictDoNothing();
  } finally {
    await h.close();
  }
}
