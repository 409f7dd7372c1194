// The tempo chart's data: how many of a user's songs (the tracks of their enabled sources, one
// per recording) have each tempo the resolver trusts, aggregated in SQL by tempo to 0.1 BPM; folding into
// the running octave happens in tempo-histogram.ts.
import { sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { userTracksCte } from './artist-set.repository.ts';

export interface TempoCounts {
  /** Songs per tempo (rounded to 0.1 BPM), tempos of at least the confidence asked for. */
  byBpm: Array<{ bpm: number; songs: number }>;
  /** Songs without a tempo Pacebeat trusts (unknown, not looked up yet, or too uncertain). */
  withoutTempo: number;
}

export function createTempoHistogramRepository(db: Db) {
  return {
    async tempoCounts(userId: string, minConfidence: number): Promise<TempoCounts> {
      const rows = await db.execute<{ bpm: string | null; songs: number }>(sql`
        with ${userTracksCte(userId)},
        songs as (
          select distinct t.recording_key from user_tracks x join library_tracks t on t.id = x.track_id)
        select round(tr.bpm::numeric, 1) as bpm, count(*)::int as songs
        from songs s
        left join tempo_recordings tr
          on tr.key = s.recording_key and tr.bpm > 0 and tr.confidence >= ${minConfidence}
        group by 1 order by 1`);
      let withoutTempo = 0;
      const byBpm: TempoCounts['byBpm'] = [];
      for (const r of rows.rows) {
        if (r.bpm === null) withoutTempo += r.songs;
        else byBpm.push({ bpm: Number(r.bpm), songs: r.songs });
      }
      return { byBpm, withoutTempo };
    },
  };
}

export type TempoHistogramRepository = ReturnType<typeof createTempoHistogramRepository>;
