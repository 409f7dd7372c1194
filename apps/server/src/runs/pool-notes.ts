// Before building: where the runner's library has too few songs for a stretch of the run, a sentence that
// says so and what would help (a wider range, half-time songs, more sources). Pure functions, no I/O.
import { formatDuration, type RunPlanSegment } from '@pacebeat/contract';
import { songOf } from '../playlists/matching.ts';
import { SongSet } from '../playlists/song-identity.ts';
import { ARTIST_GAP, runFit, type RunPoolSong } from './build.ts';

/** A song's length when the pool has none to measure (about the median of a running library). */
const TYPICAL_SONG_S = 210;
/** How much a range is widened on each side in the advice. */
export const WIDEN_BPM = 5;

const bpmText = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

function fitting(
  pool: readonly RunPoolSong[],
  range: { min_bpm: number; max_bpm: number },
  halfTime: boolean,
) {
  const songs = new SongSet();
  const lengths: number[] = [];
  for (const p of pool)
    if (runFit(p, range, halfTime) && !songs.has(songOf(p))) {
      songs.add(songOf(p));
      lengths.push(p.durationMs / 1000);
    }
  return { count: songs.size, lengths };
}

const median = (xs: number[]) => {
  if (xs.length === 0) return TYPICAL_SONG_S;
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)]!;
};

/**
 * One sentence per BPM range whose songs cannot fill its segments (all the run's time at that range, a
 * song at most once, and a few artists to spare so they need not repeat).
 */
export function poolNotes(
  segments: readonly RunPlanSegment[],
  pool: readonly RunPoolSong[],
  o: { halfTime: boolean; likedOnly: boolean },
): string[] {
  const ranges = new Map<string, { min_bpm: number; max_bpm: number; seconds: number }>();
  for (const s of segments) {
    const key = `${s.min_bpm}-${s.max_bpm}`;
    const r = ranges.get(key) ?? { min_bpm: s.min_bpm, max_bpm: s.max_bpm, seconds: 0 };
    r.seconds += s.duration_s;
    ranges.set(key, r);
  }
  const notes: string[] = [];
  for (const r of ranges.values()) {
    const have = fitting(pool, r, o.halfTime);
    const needed = Math.max(1, Math.round(r.seconds / median(have.lengths)));
    // A stretch of one song needs that song; a longer one needs a few to spare, so artists can alternate.
    if (have.count >= needed + (needed > 1 ? Math.min(ARTIST_GAP, needed) : 0)) continue;
    const range = `${bpmText(r.min_bpm)}–${bpmText(r.max_bpm)} BPM`;
    const help: string[] = [];
    const wider = { min_bpm: r.min_bpm - WIDEN_BPM, max_bpm: r.max_bpm + WIDEN_BPM };
    const widened = fitting(pool, wider, o.halfTime).count;
    if (widened > have.count)
      help.push(`widening it to ${bpmText(wider.min_bpm)}–${bpmText(wider.max_bpm)} BPM finds ${widened}`);
    if (!o.halfTime) {
      const half = fitting(pool, r, true).count;
      if (half > have.count) help.push(`counting half-time songs finds ${half}`);
    }
    help.push(
      o.likedOnly
        ? 'taking songs from beyond Liked Songs finds more'
        : 'switching on more sources on the status page (playlists, followed artists) may find more',
    );
    const advice = help.join('; ');
    notes.push(
      `Only ${have.count} of your songs ${have.count === 1 ? 'fits' : 'fit'} ${range}, and its ` +
        `${formatDuration(r.seconds)} need about ${needed}: ${advice[0]!.toUpperCase()}${advice.slice(1)}. ` +
        `A build now makes the run shorter where songs run out.`,
    );
  }
  return notes;
}
