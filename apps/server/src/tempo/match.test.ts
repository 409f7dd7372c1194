import { describe, expect, it } from 'vitest';
import type { DeezerBrief } from './clients/deezer.client.ts';
import { cleanTitle, durationMatches, pickSearchHit, refusedVersion, sameRecordingByName } from './match.ts';

const brief = ({
  album,
  ...over
}: Partial<Omit<DeezerBrief, 'album'>> & { album?: string } = {}): DeezerBrief => ({
  id: 1,
  title: 'Run Away',
  duration: 200,
  artist: { name: 'The Pacers' },
  ...over,
  album: { title: album ?? 'Studio Album' },
});

describe('cleanTitle', () => {
  it.each([
    ['Run Away (feat. Someone)', 'Run Away'],
    ['Run Away - Remastered 2011', 'Run Away'],
    ['Run Away - Radio Edit', 'Run Away'],
    ['Run Away [Remastered]', 'Run Away'],
    ['Run Away - Live', 'Run Away'],
    ['Live and Let Die', 'Live and Let Die'],
  ])('%s → %s', (input, out) => expect(cleanTitle(input)).toBe(out));
});

describe('durationMatches: within max(5 %, 8 s)', () => {
  it('accepts 8 s off on a short track and 5 % off on a long one', () => {
    expect(durationMatches(120_000, 128)).toBe(true);
    expect(durationMatches(120_000, 129)).toBe(false);
    expect(durationMatches(400_000, 419)).toBe(true);
    expect(durationMatches(400_000, 421)).toBe(false);
  });
});

describe('refusedVersion', () => {
  it('refuses live, cast and karaoke albums and other lengths, not the studio match', () => {
    expect(refusedVersion('Run Away', 200_000, brief())).toBeUndefined();
    expect(refusedVersion('Run Away', 200_000, brief({ album: 'The Pacers Live 2019' }))).toMatch(/live/);
    expect(refusedVersion('Run Away', 200_000, brief({ album: 'Hits (Original Cast Recording)' }))).toMatch(
      /cast/,
    );
    expect(refusedVersion('Run Away', 200_000, brief({ album: 'Karaoke Hits Vol. 3' }))).toMatch(/karaoke/);
    expect(refusedVersion('Run Away', 200_000, brief({ duration: 260 }))).toMatch(/duration/);
  });
  it('accepts a live match when the Spotify track is itself live', () => {
    expect(
      refusedVersion('Run Away - Live', 200_000, brief({ album: 'The Pacers Live 2019' })),
    ).toBeUndefined();
  });
});

describe('pickSearchHit', () => {
  it('takes the same artist and title with the closest duration, never a refused version', () => {
    const hits = [
      brief({ id: 1, album: 'Live at Home', duration: 200 }),
      brief({ id: 2, duration: 206 }),
      brief({ id: 3, duration: 201, artist: { name: 'Someone Else' } }),
      brief({ id: 4, duration: 203, title: 'Run Away (feat. X)' }),
    ];
    expect(pickSearchHit(hits, { title: 'Run Away', artist: 'The Pacers', durationMs: 200_000 })?.id).toBe(4);
    expect(
      pickSearchHit([hits[0] as DeezerBrief], {
        title: 'Run Away',
        artist: 'The Pacers',
        durationMs: 200_000,
      }),
    ).toBeUndefined();
  });
});

describe('sameRecordingByName: a match by name as sure as an ISRC', () => {
  it('takes the same title and length to 2 s, featuring credits and remaster notes aside', () => {
    expect(sameRecordingByName('Run Away', 200_000, brief())).toBe(true);
    expect(sameRecordingByName('Run Away', 201_600, brief({ duration: 200 }))).toBe(true);
    expect(sameRecordingByName('Run Away (feat. X)', 200_000, brief())).toBe(true);
    expect(sameRecordingByName('Run Away - Remastered 2011', 200_000, brief())).toBe(true);
    expect(sameRecordingByName('Run Away', 200_000, brief({ title: 'Run Away (2015 Remaster)' }))).toBe(true);
  });
  it('not another length, nor a version with words of its own, on either side', () => {
    expect(sameRecordingByName('Run Away', 200_000, brief({ duration: 203 }))).toBe(false);
    expect(sameRecordingByName('Run Away', 0, brief())).toBe(false);
    expect(sameRecordingByName('Run Away', 200_000, brief({ title: 'Run Away (Acoustic Version)' }))).toBe(
      false,
    );
    expect(
      sameRecordingByName('Run Away', 200_000, brief({ title: 'Run Away', title_version: '(Radio Edit)' })),
    ).toBe(false);
    expect(sameRecordingByName('Run Away - Live', 200_000, brief())).toBe(false);
    expect(sameRecordingByName('Run Away - Sped Up', 200_000, brief())).toBe(false);
  });
});
