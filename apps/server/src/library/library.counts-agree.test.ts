// One runner, one moment, one number: the status page's library line (GET sources' summary), the
// tempo chart (GET tempo_histogram) and each source row count the same things: songs (one per recording,
// however many tracks carry it) and, of them, those with a tempo Pacebeat trusts. Compared here with the
// figures computed straight from the database, with a song on two tracks and an untrusted tempo in play.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIN_CONFIDENCE } from '../playlists/matching.ts';
import { createTempoRepository } from '../tempo/tempo.repository.ts';
import { startLibraryHarness, type LibraryHarness, type LibraryProcess } from '../../test/library-harness.ts';

let h: LibraryHarness;
let p: LibraryProcess;
beforeAll(async () => {
  h = await startLibraryHarness({ seed: 23_023 });
  p = h.libraryProcess();
}, 120_000);
afterAll(() => h.close());

describe('the library counts agree', () => {
  it('the summary, the tempo chart and the source rows count songs with a trusted tempo, as the database does', async () => {
    const spotifyUser = h.spotifyUser({ liked: 30, owned: 1 });
    const userId = await h.connect(p, spotifyUser.id, { catalogs: false });
    await h.drain(p, userId);
    const songs = await p.library.listMatchCandidates(userId);
    const keys = [...new Set(songs.map((s) => s.recordingKey))];
    expect(keys.length).toBeGreaterThanOrEqual(10);
    // Two tracks of one song: the second track takes the first one's recording.
    const [a, b] = await h.db.db
      .execute<{ id: number; recording_key: string }>(
        sql`
      select t.id, t.recording_key from library_tracks t
      join library_source_tracks st on st.track_id = t.id
      join library_sources s on s.id = st.source_ref and s.user_id = ${userId}
      order by t.id limit 2`,
      )
      .then((r) => r.rows);
    await h.db.db.execute(
      sql`update library_tracks set recording_key = ${a!.recording_key} where id = ${b!.id}`,
    );
    // Tempos: trusted ones, one too uncertain to place, one 0 BPM (no beat).
    const current = [...new Set((await p.library.listMatchCandidates(userId)).map((s) => s.recordingKey))];
    const tempo = createTempoRepository(h.db.db);
    await tempo.save(
      current.slice(0, 8).map((key, i) => ({
        key,
        isrc: null,
        spotifyId: null,
        bpm: i === 7 ? 0 : 150 + i,
        source: 'reccobeats' as const,
        confidence: i === 6 ? 0.5 : 0.9,
        alternatives: [],
        reason: null,
        retryAt: null,
        resolvedAt: new Date(),
      })),
    );
    // The page's counts are stored and recounted when a writer announces a change, as the tempo lookup job
    // does after saving tempos (these rows were written behind the app's back).
    await p.pacebeat.events.emit('temposFound', userId);

    // The database's figures.
    const truth = await h.db.db
      .execute<{ songs: number; with_tempo: number }>(
        sql`select count(distinct t.recording_key)::int as songs,
                   count(distinct t.recording_key) filter (
                     where tr.bpm > 0 and tr.confidence >= ${MIN_CONFIDENCE})::int as with_tempo
            from library_source_tracks st
            join library_sources s on s.id = st.source_ref and s.user_id = ${userId} and s.enabled
              and s.kind in ('liked_songs', 'playlist')
            join library_tracks t on t.id = st.track_id
            left join tempo_recordings tr on tr.key = t.recording_key`,
      )
      .then((r) => r.rows[0]!);
    expect(truth.with_tempo).toBe(6);

    const { summary, sources } = await p.library.service.sources(userId, { timeZone: 'UTC' });
    const chart = await p.library.refresh.tempoHistogram(userId);
    expect(summary).toEqual({
      tracks_known: truth.songs,
      tracks_with_tempo: truth.with_tempo,
      tracks_without_tempo: truth.songs - truth.with_tempo,
    });
    expect(chart.tracks_with_tempo).toBe(truth.with_tempo);
    expect(chart.tracks_without_tempo).toBe(truth.songs - truth.with_tempo);

    // Each source row: its own songs, with the same rule.
    for (const s of sources.filter((x) => x.kind === 'liked_songs' || x.kind === 'playlist')) {
      const own = await h.db.db
        .execute<{ songs: number; with_tempo: number }>(
          sql`select count(distinct t.recording_key)::int as songs,
                     count(distinct t.recording_key) filter (
                       where tr.bpm > 0 and tr.confidence >= ${MIN_CONFIDENCE})::int as with_tempo
              from library_source_tracks st
              join library_sources src on src.id = st.source_ref and src.user_id = ${userId}
                and src.kind = ${s.kind} and src.source_id = ${s.source_id}
              join library_tracks t on t.id = st.track_id
              left join tempo_recordings tr on tr.key = t.recording_key`,
        )
        .then((r) => r.rows[0]!);
      expect({ known: s.stats.known_tracks ?? 0, tempo: s.progress.tracks_with_tempo }, s.name).toEqual({
        known: own.songs,
        tempo: own.with_tempo,
      });
    }
    // The page's figures come from one snapshot of the three aggregates: the same as read one by one here.
    const snap = await p.library.stats.snapshot(userId);
    expect(snap).toEqual({
      members: await p.library.stats.memberCounts(userId),
      catalogs: await p.library.stats.catalogCounts(userId),
      summary: await p.library.stats.summary(userId),
    });
  });
});
