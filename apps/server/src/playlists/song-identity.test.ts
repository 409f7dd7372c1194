// What counts as one song (pure).
import { describe, expect, it } from 'vitest';
import { closeDurations, SongSet, songTitle, versionKey, type SongRef } from './song-identity.ts';

const song = (title: string, over: Partial<SongRef> = {}): SongRef => ({
  trackId: `t-${title}`,
  recordingKey: `isrc:${title}`,
  title,
  artistId: 'artist1',
  durationMs: 240_000,
  ...over,
});

describe('songTitle', () => {
  it.each([
    ['Window', 'window', false],
    ['Window - Radio Edit', 'window', true],
    ['Window - Remastered 2011', 'window', true],
    ['Window - 2015 Remaster', 'window', true],
    ['Window (Single Version)', 'window', true],
    ['Window [Mono]', 'window', true],
    ['Window (feat. Ana Runs)', 'window', true],
    ['Wíndow!', 'window', false],
    ['Window - Live', 'window live', false],
    ['Window - Live at Wembley / 1986', 'window live at wembley 1986', false],
    ['Window (Acoustic)', 'window acoustic', false],
    ['Window - Club Remix', 'window club remix', false],
    ['Window (Remix) - Radio Edit', 'window remix', true],
  ])('%s → %s', (title, expected, versioned) => {
    expect(songTitle(title)).toEqual({ title: expected, versioned });
  });
});

describe('versionKey', () => {
  it('needs a title and an artist, and keeps generic titles apart', () => {
    expect(versionKey({ title: 'Window', artistId: null })).toBeNull();
    expect(versionKey({ title: '', artistId: 'a' })).toBeNull();
    expect(versionKey({ title: 'Intro', artistId: 'a' })).toBeNull();
    expect(versionKey({ title: 'Window - Radio Edit', artistId: 'a' })).toBe(
      versionKey({ title: 'window', artistId: 'a' }),
    );
    expect(versionKey({ title: 'Window', artistId: 'a' })).not.toBe(
      versionKey({ title: 'Window', artistId: 'b' }),
    );
  });
});

describe('closeDurations', () => {
  it('is close within 15 s or 10 %, and within 40 % for a named version', () => {
    expect(closeDurations(240_000, 252_000, false)).toBe(true);
    expect(closeDurations(240_000, 180_000, false)).toBe(false);
    expect(closeDurations(240_000, 180_000, true)).toBe(true); // a radio edit
    expect(closeDurations(240_000, 120_000, true)).toBe(false);
    expect(closeDurations(null, 120_000, false)).toBe(true); // unknown: the title decides
  });
});

describe('SongSet', () => {
  it('holds a song by track id, by recording key as recorded or as it is now, and by version', () => {
    const set = new SongSet([
      {
        trackId: 'a',
        recordingKey: 'spotify:a',
        currentKey: 'isrc:A',
        title: 'Window',
        artistId: 'x',
        durationMs: 240_000,
      },
    ]);
    expect(set.has({ trackId: 'a', recordingKey: 'isrc:A' })).toBe(true); // the ISRC learned later
    expect(set.has({ trackId: 'copy', recordingKey: 'isrc:A' })).toBe(true); // a compilation copy
    expect(set.has({ trackId: 'b', recordingKey: 'spotify:a' })).toBe(true);
    expect(set.has(song('Window - Radio Edit', { artistId: 'x', durationMs: 200_000 }))).toBe(true);
    expect(set.has(song('Window', { artistId: 'x', durationMs: 243_000 }))).toBe(true); // the single
    expect(set.has(song('Window - Live', { artistId: 'x' }))).toBe(false);
    expect(set.has(song('Window', { artistId: 'y' }))).toBe(false); // another artist's song
    expect(set.has(song('Window', { artistId: 'x', durationMs: 400_000 }))).toBe(false); // too long to be it
    expect(set.has(song('Door', { artistId: 'x' }))).toBe(false);
  });
});
