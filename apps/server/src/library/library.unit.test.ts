// Pure parts of the library: reading Spotify objects defensively, the scan planner, and presentation.
import { describe, expect, it } from 'vitest';
import { itemTrack } from '../spotify/api.ts';
import type { LibraryUserRow, SourceRow } from './library.repository.ts';
import { formatLocalTime as formatTime } from '../http/format-time.ts';
import { escapeHtml, presentSource } from './present.ts';
import { planNext } from './scan.service.ts';
import { toLibraryRelease, toLibraryTrack } from './spotify-items.ts';

const fullTrack = {
  id: '4uLU6hMCjMI75M1A2tKUQC',
  type: 'track',
  uri: 'spotify:track:4uLU6hMCjMI75M1A2tKUQC',
  name: 'Run',
  duration_ms: 201_000,
  explicit: true,
  is_local: false,
  track_number: 2,
  external_ids: { isrc: 'gbum71703861' },
  album: { id: '2noRn2Aes5aoNVsU6iWThc' },
  artists: [{ id: '0OdUWJ0sBjDrqHygGUXeCF', name: 'Band' }, { name: 'local artist without id' }],
};

describe('toLibraryTrack', () => {
  it('keeps what matching and tempo lookups need, with the ISRC as the recording key', () => {
    expect(toLibraryTrack(fullTrack)).toEqual({
      id: '4uLU6hMCjMI75M1A2tKUQC',
      isrc: 'GBUM71703861',
      recordingKey: 'isrc:GBUM71703861',
      title: 'Run',
      artists: [{ id: '0OdUWJ0sBjDrqHygGUXeCF', name: 'Band' }],
      durationMs: 201_000,
      explicit: true,
      releaseId: '2noRn2Aes5aoNVsU6iWThc',
      trackNumber: 2,
    });
  });

  it('falls back to the Spotify id as key for album tracks (no ISRC), on the release given', () => {
    const { external_ids: _e, album: _a, ...simplified } = fullTrack;
    const t = toLibraryTrack(simplified, { id: '0sNOF9WDwhWunNAHPD3Baj' })!;
    expect(t.recordingKey).toBe('spotify:4uLU6hMCjMI75M1A2tKUQC');
    expect(t.releaseId).toBe('0sNOF9WDwhWunNAHPD3Baj');
  });

  it.each([
    ['null', null],
    ['a local file', { ...fullTrack, is_local: true, id: null, uri: 'spotify:local:a:b:c:180' }],
    ['a podcast episode', { ...fullTrack, type: 'episode', uri: 'spotify:episode:4uLU6hMCjMI75M1A2tKUQC' }],
    ['no id', { ...fullTrack, id: undefined }],
    ['an id that is not base-62', { ...fullTrack, id: '../../me' }],
    ['a string', 'spotify:track:4uLU6hMCjMI75M1A2tKUQC'],
  ])('gives null for %s', (_name, raw) => {
    expect(toLibraryTrack(raw)).toBeNull();
  });

  it('survives odd fields without failing', () => {
    const t = toLibraryTrack({
      id: '4uLU6hMCjMI75M1A2tKUQC',
      duration_ms: 'long',
      artists: 'x',
      explicit: 1,
    })!;
    expect(t).toMatchObject({ durationMs: 0, artists: [], explicit: false, isrc: null, title: '' });
  });

  it('reads a playlist item in either shape, and no episode or local file', () => {
    expect(itemTrack({ item: fullTrack })?.id).toBe(fullTrack.id); // development mode
    expect(itemTrack({ track: fullTrack })?.id).toBe(fullTrack.id); // extended quota, old name only
    expect(itemTrack({ item: null })).toBeNull();
    expect(itemTrack({ is_local: true, track: fullTrack })).toBeNull();
    expect(itemTrack({ item: { ...fullTrack, type: 'episode' } })).toBeNull();
  });

  it('reads releases defensively', () => {
    expect(toLibraryRelease({ id: '2noRn2Aes5aoNVsU6iWThc', album_type: 'single', total_tracks: 2 })).toEqual(
      {
        id: '2noRn2Aes5aoNVsU6iWThc',
        albumType: 'single',
        name: '',
        releaseDate: '',
        totalTracks: 2,
      },
    );
    expect(toLibraryRelease({ name: 'no id' })).toBeNull();
  });
});

const at = (ms: number) => new Date(ms);
const NOW = Date.UTC(2026, 10, 23, 12);
function source(kind: SourceRow['kind'], o: Partial<SourceRow> = {}): SourceRow {
  return {
    id: Math.floor(Math.random() * 1e9),
    userId: 'u',
    kind,
    sourceId: kind,
    name: kind,
    ownerName: null,
    readable: true,
    enabled: true,
    position: 0,
    seenPass: 0,
    snapshot: null,
    readSnapshot: null,
    total: null,
    cursor: null,
    pass: 0,
    pagesRead: 0,
    pagesTotal: null,
    itemsRead: 0,
    state: 'idle',
    error: null,
    failures: 0,
    resumesAt: null,
    dueAt: null,
    lastFinishedAt: null,
    fullReadAt: null,
    createdAt: at(NOW),
    ...o,
  };
}
const user = (o: Partial<LibraryUserRow> = {}): LibraryUserRow => ({
  userId: 'u',
  spotifyUserId: 'runner',
  createdAt: at(NOW),
  rescanRequestedAt: null,
  discoveryOffset: null,
  discoveryPass: 1,
  discoveredAt: at(NOW - 1000),
  discoveryDueAt: null,
  ownPlaylistsAt: null,
  artistsStale: false,
  ...o,
});

describe('planNext', () => {
  const base = () => [source('liked_songs'), source('followed_artists'), source('artist_catalogs')];

  it('discovers playlists first, then Liked Songs, playlists, followed artists, catalogs', () => {
    const s = base();
    s[0]!.dueAt = at(NOW);
    s[1]!.dueAt = at(NOW);
    const pl = source('playlist', { sourceId: 'p1', snapshot: 'a' });
    expect(planNext(user({ discoveryDueAt: at(NOW) }), [...s, pl], NOW, 5)?.kind).toBe('discovery');
    expect(planNext(user(), [...s, pl], NOW, 5)?.kind).toBe('liked_songs');
    s[0]!.dueAt = null;
    expect(planNext(user(), [...s, pl], NOW, 5)?.kind).toBe('playlist');
    pl.readSnapshot = 'a';
    expect(planNext(user(), [...s, pl], NOW, 5)?.kind).toBe('followed_artists');
    s[1]!.dueAt = null;
    expect(planNext(user(), [...s, pl], NOW, 5)?.kind).toBe('artist_catalogs');
  });

  it('skips disabled sources, sources pausing after a failure, and given-up ones', () => {
    const s = base();
    s[0]!.cursor = { mode: 'full', offset: 50, pass: 1 };
    s[0]!.enabled = false;
    expect(planNext(user(), s, NOW, 5)?.kind).toBe('artist_catalogs');
    s[0]!.enabled = true;
    s[0]!.dueAt = at(NOW + 60_000);
    expect(planNext(user(), s, NOW, 5)?.kind).toBe('artist_catalogs');
    s[0]!.dueAt = null;
    s[0]!.failures = 5;
    expect(planNext(user(), s, NOW, 5)?.kind).toBe('artist_catalogs');
    s[2]!.enabled = false;
    s[1]!.enabled = false;
    expect(planNext(user(), s, NOW, 5)).toBeUndefined();
  });

  it('reads a playlist again only when its snapshot changed, never one the user may not read', () => {
    const pl = source('playlist', { snapshot: 'b', readSnapshot: 'a' });
    const only = [pl];
    expect(planNext(user(), only, NOW, 5)?.kind).toBe('playlist');
    pl.readable = false;
    expect(planNext(user(), only, NOW, 5)).toBeUndefined();
  });
});

describe('presentation', () => {
  it('escapes HTML', () => {
    expect(escapeHtml(`<a href="x">'&'</a>`)).toBe('&lt;a href=&quot;x&quot;&gt;&#39;&amp;&#39;&lt;/a&gt;');
  });

  it('formats times in the user’s zone, UTC when the zone is unknown or invalid', () => {
    const d = new Date(Date.UTC(2026, 10, 23, 22, 30));
    expect(formatTime(d, 'Asia/Tokyo')).toBe('24 Nov 2026, 07:30');
    expect(formatTime(d, null)).toBe('23 Nov 2026, 22:30 UTC');
    expect(formatTime(d, 'Not/AZone')).toBe('23 Nov 2026, 22:30 UTC');
  });

  it('shows a waiting scan with its resume time and a failure with its reason', () => {
    const waiting = presentSource(
      source('liked_songs', { cursor: { offset: 50 }, resumesAt: at(NOW + 3600_000) }),
      { knownTracks: 50, tracksWithTempo: 10 },
      undefined,
      { timeZone: null, now: NOW },
    );
    expect(waiting.progress).toMatchObject({ state: 'waiting', resumes_at: (NOW + 3600_000) / 1000 });
    expect(waiting.stats).toEqual({ known_tracks: 50 });
    const failed = presentSource(
      source('playlist', { state: 'failed', error: 'Spotify <said> no', ownerName: 'Ana & Ben' }),
      undefined,
      undefined,
      { timeZone: null, now: NOW },
    );
    expect(failed.progress).toMatchObject({ state: 'failed', error: 'Spotify <said> no' });
    expect(failed.front_tooltip).toContain('Spotify &lt;said&gt; no');
    expect(failed.front_tooltip).toContain('by Ana &amp; Ben');
    expect(failed.stats).toEqual({});
  });
});
