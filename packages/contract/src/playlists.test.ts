import { describe, expect, it } from 'vitest';
import { NewTargetBody, TargetName } from './playlists.ts';
import {
  spotifyLink,
  graphemeCount,
  TARGET_NAME_MAX,
  TARGET_TEXTS,
  targetNameProblem,
} from './playlists.rules.ts';

// Names are text as people type it: emoji sequences pass, length counts what a person sees.
describe('TargetName', () => {
  it('takes joined emoji, flags and variation selectors', () => {
    for (const name of [
      '🏃‍♀️ Long run',
      '🏃',
      '❤️ tempo',
      '👨‍👩‍👧‍👦',
      '🇫🇷 10K',
      '🏴󠁧󠁢󠁳󠁣󠁴󠁿 hills',
      'Café (e\u0301)',
      'עברית run',
    ]) {
      expect(TargetName.safeParse(name).success, name).toBe(true);
    }
    expect(NewTargetBody.safeParse({ name: '🏃‍♀️', min_bpm: 160, max_bpm: 170 }).success).toBe(true);
  });

  it('counts graphemes for the length limit', () => {
    expect(graphemeCount('🏃‍♀️')).toBe(1);
    expect(graphemeCount('👨‍👩‍👧‍👦🇫🇷')).toBe(2);
    expect(targetNameProblem('🏃‍♀️'.repeat(TARGET_NAME_MAX))).toBeNull();
    expect(targetNameProblem('🏃‍♀️'.repeat(TARGET_NAME_MAX + 1))).toBe(TARGET_TEXTS.nameTooLong);
    expect(targetNameProblem('x'.repeat(TARGET_NAME_MAX + 1))).toBe(TARGET_TEXTS.nameTooLong);
  });

  it('refuses what breaks a playlist name: control characters, line breaks, bidi overrides', () => {
    for (const name of ['Long\nrun', 'a\tb', 'a\u0000b', 'a\u2028b', 'a\u202Eb', 'a\uD800b']) {
      expect(targetNameProblem(name), JSON.stringify(name)).toBe(TARGET_TEXTS.nameControl);
      expect(TargetName.safeParse(name).error?.issues[0]?.message).toBe(TARGET_TEXTS.nameControl);
    }
    expect(TargetName.safeParse('   ').error?.issues[0]?.message).toBe(TARGET_TEXTS.nameEmpty);
  });
});

describe('spotifyLink', () => {
  it('keeps https links to open.spotify.com and drops every other link', () => {
    const good = 'https://open.spotify.com/playlist/37i9dQZF1DXcBWIGoYBM5M';
    expect(spotifyLink(good)).toBe(good);
    for (const bad of [
      'javascript:alert(1)',
      'http://open.spotify.com/playlist/x',
      'https://open.spotify.com.evil.example/playlist/x',
      'https://evil.example/?https://open.spotify.com/',
      'https://user:pw@open.spotify.com/playlist/x',
      'https://open.spotify.com:8443/playlist/x',
      'data:text/html,hi',
      '//open.spotify.com/playlist/x',
      '',
      null,
      undefined,
    ]) {
      expect(spotifyLink(bad), String(bad)).toBeNull();
    }
  });
});
