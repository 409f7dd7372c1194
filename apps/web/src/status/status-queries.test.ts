// When the status page reads the sources sooner than every 15 s: while the library summary lags the
// playlists (the page said "no songs found yet" beside filled playlists).
import { describe, expect, it } from 'vitest';
import type { SourcesReply, Target, TargetsReply } from '@pacebeat/contract';
import { libraryBehind } from './status-queries.ts';

const sources = (tracks_known: number): SourcesReply => ({
  data: { sources: [], summary: { tracks_known, tracks_with_tempo: 0, tracks_without_tempo: tracks_known } },
});
const target = (o: Partial<Target>): Target => ({
  target_id: 't1',
  target: 'Pacebeat 150–160 BPM',
  public_url: null,
  timestamp_last_job_finished: null,
  timestamp_last_job_finished_str: null,
  bpms: { min: 150, max: 160 },
  ...o,
});
const targets = (list: Target[], first_fill: TargetsReply['data']['first_fill'] = null): TargetsReply => ({
  data: { targets: list, first_fill },
});

describe('libraryBehind', () => {
  it('is true while the summary reads no songs and the first fill runs or a playlist has tracks', () => {
    expect(libraryBehind(sources(0), targets([target({})]))).toBe(true); // first fill: reading the library
    const filled = target({
      public_url: 'https://open.spotify.com/playlist/x',
      stats: { tracks_added: 4, tracks_added_7days: 4 },
    });
    expect(libraryBehind(sources(0), targets([filled]))).toBe(true);
  });

  it('is false once songs show, for a library with none after its first fill, and before any answer', () => {
    const filled = target({
      public_url: 'https://open.spotify.com/playlist/x',
      stats: { tracks_added: 4, tracks_added_7days: 4 },
    });
    expect(libraryBehind(sources(12), targets([filled]))).toBe(false);
    const empty = target({
      timestamp_last_job_finished: 1,
      stats: { tracks_added: 0, tracks_added_7days: 0 },
    });
    expect(libraryBehind(sources(0), targets([empty]))).toBe(false);
    expect(libraryBehind(undefined, targets([filled]))).toBe(false);
    expect(libraryBehind(sources(0), undefined)).toBe(false);
  });
});
