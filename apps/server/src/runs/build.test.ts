import { describe, expect, it } from 'vitest';
import { runPreset, unfoldRun, type RunBlockShape } from '@pacebeat/contract';
import { spanOf } from '../playlists/matching.ts';
import { closestSameArtist } from '../playlists/spread.ts';
import {
  ARTIST_GAP,
  boundaryMisses,
  buildRun,
  runFit,
  smoothWithinSegments,
  stepBpm,
  type BuiltSong,
  type RunPoolSong,
} from './build.ts';
import { poolNotes } from './pool-notes.ts';

/** A deterministic pool: `n` songs per tempo, 150–290 s long, artists shared by a few songs each. */
function poolAt(bpms: number[], n: number, o: { artists?: number; prefix?: string } = {}): RunPoolSong[] {
  const out: RunPoolSong[] = [];
  let k = 0;
  for (const bpm of bpms)
    for (let i = 0; i < n; i++, k++)
      out.push({
        trackId: `${o.prefix ?? 't'}${k}`,
        recordingKey: `spotify:${o.prefix ?? 't'}${k}`,
        title: `Song ${o.prefix ?? ''}${k}`,
        artistIds: [`a${k % (o.artists ?? 40)}`],
        durationMs: (150 + ((k * 37) % 141)) * 1000,
        ...spanOf(bpm + ((k * 7) % 9) * 0.5, false),
        fromLikedSongs: k % 3 !== 0,
      });
  return out;
}

const end = (s: BuiltSong) => s.startS + s.song.durationMs / 1000;
const options = { halfTime: true, recent: new Set<string>(), seed: 1 };

function expectWellFormed(songs: BuiltSong[], blocks: RunBlockShape[], o = { asPlanned: true }) {
  const segments = unfoldRun(blocks);
  // Back to back, each song once, each at a tempo that fits the segment it mostly covers.
  for (let i = 1; i < songs.length; i++) expect(songs[i]!.startS).toBeCloseTo(end(songs[i - 1]!), 6);
  expect(new Set(songs.map((s) => s.song.recordingKey)).size).toBe(songs.length);
  for (const s of songs) {
    const seg = segments[s.segment]!;
    expect(runFit(s.song, seg, true), s.song.title).toBe(s.fit);
    if (!o.asPlanned) continue;
    const overlap = (x: (typeof segments)[number]) =>
      Math.max(0, Math.min(end(s), x.start_s + x.duration_s) - Math.max(s.startS, x.start_s));
    expect(Math.max(...segments.map(overlap))).toBeCloseTo(overlap(seg), 6);
  }
}

describe('buildRun', () => {
  it('fills an easy run to its length, every song at its tempo, no artist twice within four songs', () => {
    const blocks = runPreset('easy', 165);
    const songs = buildRun(unfoldRun(blocks), poolAt([163, 168], 40), options);
    expectWellFormed(songs, blocks);
    expect(Math.abs(end(songs.at(-1)!) - 45 * 60)).toBeLessThan(60);
    for (let i = 0; i < songs.length; i++)
      for (let j = Math.max(0, i - 3); j < i; j++)
        expect(songs[i]!.song.artistIds).not.toEqual(songs[j]!.song.artistIds);
  });

  it('ends songs close to each change of segment when the segments are longer than songs', () => {
    const blocks = runPreset('tempo', 165);
    const segments = unfoldRun(blocks);
    const songs = buildRun(segments, poolAt([160, 165, 173, 158], 60), options);
    expectWellFormed(songs, blocks);
    const misses = boundaryMisses(
      segments,
      songs.map((s) => ({ startS: s.startS, durationMs: s.song.durationMs })),
    );
    expect(misses).toHaveLength(2);
    for (const m of misses) expect(m).toBeLessThanOrEqual(10);
    expect(songs.every((s) => !s.spans)).toBe(true);
  });

  it('plays a song across a change when a segment is shorter than any song, at the tempo of what it mostly covers', () => {
    // 90-second segments, songs of 150 s and more: every song spans a change.
    const blocks: RunBlockShape[] = [
      {
        kind: 'repeat',
        times: 4,
        segments: [
          { duration_s: 90, min_bpm: 175, max_bpm: 185, label: 'Fast' },
          { duration_s: 90, min_bpm: 160, max_bpm: 170, label: 'Easy' },
        ],
      },
    ];
    const segments = unfoldRun(blocks);
    expect(segments).toHaveLength(8);
    const songs = buildRun(segments, poolAt([178, 163], 40), options);
    expectWellFormed(songs, blocks);
    expect(songs.some((s) => s.spans)).toBe(true);
    for (const s of songs.filter((x) => x.spans)) {
      const seg = segments[s.segment]!;
      expect(stepBpm(s.song.bpm, s.fit)).toBeGreaterThanOrEqual(seg.min_bpm);
    }
  });

  it('counts half-time songs only when the run allows them', () => {
    const blocks = runPreset('easy', 170); // 165–175
    const pool = poolAt([84], 30); // 84–88 BPM: 168–176 stepped
    const withHalf = buildRun(unfoldRun(blocks), pool, options);
    expect(withHalf.length).toBeGreaterThan(5);
    expect(withHalf.every((s) => s.fit === 'half_time')).toBe(true);
    expect(buildRun(unfoldRun(blocks), pool, { ...options, halfTime: false })).toEqual([]);
  });

  it('cuts a segment its songs cannot fill and moves the rest up, never using a song twice', () => {
    const blocks: RunBlockShape[] = [
      { kind: 'segment', duration_s: 600, min_bpm: 160, max_bpm: 170, label: 'Warm-up' },
      { kind: 'segment', duration_s: 1200, min_bpm: 180, max_bpm: 190, label: 'Fast' },
      { kind: 'segment', duration_s: 600, min_bpm: 160, max_bpm: 170, label: 'Cool-down' },
    ];
    const pool = [...poolAt([163], 30, { prefix: 'e' }), ...poolAt([183], 2, { prefix: 'f', artists: 2 })];
    const songs = buildRun(unfoldRun(blocks), pool, options);
    expectWellFormed(songs, blocks, { asPlanned: false }); // the cool-down moved up
    expect(songs.filter((s) => s.segment === 1)).toHaveLength(2);
    expect(songs.filter((s) => s.segment === 2).length).toBeGreaterThan(1);
    expect(end(songs.at(-1)!)).toBeLessThan(2400 - 600);
  });

  it('prefers songs the last build did not use, and varies between builds', () => {
    const blocks = runPreset('intervals', 165);
    const segments = unfoldRun(blocks);
    const pool = poolAt([163, 168, 178, 159], 80);
    const first = buildRun(segments, pool, options);
    const recent = new Set(first.map((s) => s.song.recordingKey));
    const second = buildRun(segments, pool, { ...options, recent, seed: 2 });
    expectWellFormed(second, blocks);
    const overlap = second.filter((s) => recent.has(s.song.recordingKey)).length / second.length;
    expect(overlap).toBeLessThan(0.2);
    expect(second.every((s) => s.fresh === !recent.has(s.song.recordingKey))).toBe(true);
    // A pool that is just enough is used again, not left out.
    const small = poolAt([163, 168, 178, 159], 6);
    const a = buildRun(segments, small, options);
    const b = buildRun(segments, small, {
      ...options,
      recent: new Set(a.map((s) => s.song.recordingKey)),
      seed: 3,
    });
    expect(b.length).toBeGreaterThanOrEqual(a.length - 1);
  });

  it('keeps the corrected tempo to the top of a range (no margin) and a measured one clear of it', () => {
    const seg = { min_bpm: 160, max_bpm: 170 };
    expect(runFit(spanOf(169.9, true), seg, true)).toBe('as_is');
    expect(runFit(spanOf(169.9, false), seg, true)).toBeNull();
    expect(runFit(spanOf(82, false), seg, false)).toBeNull();
    expect(runFit(spanOf(82, false), seg, true)).toBe('half_time');
    expect(runFit(spanOf(330, false), seg, true)).toBe('double_time');
    // A measured tempo a hair under the round min is in it (ROUND_SLACK, as a pace playlist's is); a
    // little further under, or a runner's correction under it, is not.
    expect(runFit(spanOf(159.9, false), seg, true)).toBe('as_is');
    expect(runFit(spanOf(159.6, false), seg, true)).toBeNull();
    expect(runFit(spanOf(159.9, true), seg, true)).toBeNull();
  });
});

describe('smoothWithinSegments', () => {
  it('orders a segment by tempo but keeps an artist ARTIST_GAP songs from their last', () => {
    const song = (bpm: number, artist: string, i: number): BuiltSong => ({
      song: {
        ...poolAt([bpm], 1, { prefix: `s${i}` })[0]!,
        ...spanOf(bpm, false),
        artistIds: [artist],
        durationMs: 200_000,
      },
      segment: 0,
      startS: i * 200,
      fit: 'as_is',
      spans: false,
      fresh: true,
    });
    // As built: A B C D E F A (spaced); by tempo alone the two A would be side by side.
    const built = [
      song(160, 'A', 0),
      song(162, 'B', 1),
      song(163, 'C', 2),
      song(164, 'D', 3),
      song(165, 'E', 4),
      song(166, 'F', 5),
      song(161, 'A', 6),
    ];
    const out = smoothWithinSegments(built);
    expect(out.map((s) => s.song.bpm)).toEqual([160, 162, 163, 164, 161, 165, 166]);
    expect(closestSameArtist(out.map((s) => s.song.artistIds))).toBeGreaterThanOrEqual(ARTIST_GAP);
    expect(out.map((s) => s.startS)).toEqual([0, 200, 400, 600, 800, 1000, 1200]);
  });
});

describe('poolNotes', () => {
  it('says where the library has too few songs, and what would help, as sentences', () => {
    const segments = unfoldRun(runPreset('intervals', 165)); // fast: 172–182 for 18 min
    const pool = [
      ...poolAt([163, 159], 40, { prefix: 'e' }),
      ...poolAt([176], 2, { prefix: 'f' }),
      ...poolAt([185], 9, { prefix: 'g' }),
    ];
    const notes = poolNotes(segments, pool, { halfTime: true, likedOnly: false });
    expect(notes).toHaveLength(1);
    expect(notes[0]).toMatch(
      /^Only 2 of your songs fit 172–182 BPM, and its 18 min need about \d+: Widening it to 167–187 BPM finds 9; switching on more sources/,
    );
    expect(poolNotes(segments, poolAt([163, 159, 176], 40), { halfTime: true, likedOnly: false })).toEqual(
      [],
    );
  });

  it('offers half-time songs when the run leaves them out', () => {
    const segments = unfoldRun(runPreset('easy', 170));
    const notes = poolNotes(segments, poolAt([85], 30), { halfTime: false, likedOnly: true });
    // 85–89 BPM: 170–178 stepped, of which 16 fall below 175 (less the margin below a range's top).
    expect(notes[0]).toContain('Only 0 of your songs fit 165–175 BPM');
    expect(notes[0]).toMatch(/Counting half-time songs finds 16;/);
    expect(notes[0]).toContain('taking songs from beyond Liked Songs finds more');
  });
});
