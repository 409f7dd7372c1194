// Tempos found by one runner's lookup reach every runner whose library holds the track (a library track is
// looked up once, by whichever runner's scan queued it first): compose.ts's temposFound handlers through
// the library's holdersOf and the playlists' triggerHolders, on the simulated Spotify and PostgreSQL.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RUNNER_WAITING_JOB_PRIORITY } from '../playlists/playlists.jobs.ts';
import { startLibraryHarness, type LibraryHarness, type LibraryProcess } from '../../test/library-harness.ts';

let h: LibraryHarness;
let p: LibraryProcess;
beforeAll(async () => {
  h = await startLibraryHarness({ seed: 10_131 });
  p = h.libraryProcess();
});
afterAll(() => h.close());

describe('tempos another runner found', () => {
  it('tells every runner holding a track when another runner’s lookup found its tempo', async () => {
    // A library track is looked up once, by whoever queued it first: Bo's songs Ann's lookups answered,
    // liked or in his artists' catalogs, must grow Bo's playlists too.
    const ann = h.spotifyUser({ liked: 5, favouriteArtists: 1 });
    const annId = await h.connect(p, ann.id);
    await h.drain(p, annId);
    const shared = h.likedIds(ann.id).slice(0, 2);
    const bo = h.spotifyUser({ liked: 0 });
    h.sandbox.admin.like(bo.id, shared);
    const boId = await h.connect(p, bo.id);
    await h.drain(p, boId);
    const keyOf = async (trackId: string) =>
      (
        await h.db.db.execute<{ k: string }>(
          sql`select recording_key as k from library_tracks where id = ${trackId}`,
        )
      ).rows[0]!.k;
    const catalogKey = (
      await h.db.db.execute<{ k: string }>(sql`
        select t.recording_key as k from library_user_artists a
        join library_artist_releases ar on ar.artist_id = a.artist_id
        join library_tracks t on t.release_id = ar.release_id and a.artist_id = any(t.artist_ids)
        where a.user_id = ${boId} and t.id not in ${shared}
        order by t.id limit 1`)
    ).rows[0]?.k;
    expect(catalogKey).toBeDefined();
    // Each in a process of its own: a process asks for a runner's run at most every few seconds.
    for (const keys of [[await keyOf(shared[0]!)], [catalogKey!]]) {
      const before = h.syncQueued.length;
      await h.libraryProcess().pacebeat.events.emit('temposFound', annId, keys);
      const asked = h.syncQueued.slice(before);
      expect(asked).toContainEqual({ userId: annId, priority: RUNNER_WAITING_JOB_PRIORITY });
      // Bo has no song placed yet: his run goes before the background ones.
      expect(asked).toContainEqual({ userId: boId, priority: RUNNER_WAITING_JOB_PRIORITY });
    }
    // A recording nobody else holds asks for Ann's run alone.
    const before = h.syncQueued.length;
    await h.libraryProcess().pacebeat.events.emit('temposFound', annId, ['isrc:NOBODY0000001']);
    expect(h.syncQueued.slice(before).map((x) => x.userId)).toEqual([annId]);
  });
});
