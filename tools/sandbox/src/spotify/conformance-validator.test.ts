// The validator itself: it must reject what the document forbids, or the conformance walk proves nothing.
import { describe, expect, it } from 'vitest';
import { ResponseValidator } from './conformance.ts';

const paging = (items: unknown[]) => ({
  href: 'h',
  limit: 5,
  next: null,
  offset: 0,
  previous: null,
  total: items.length,
  items,
});
const album = {
  album_type: 'album',
  total_tracks: 1,
  available_markets: ['SE'],
  external_urls: { spotify: 'x' },
  href: 'h',
  id: 'i',
  images: [],
  name: 'n',
  release_date: '2020',
  release_date_precision: 'year',
  type: 'album',
  uri: 'u',
  artists: [],
};

describe('ResponseValidator', () => {
  it('in development mode rejects deprecated fields and accepts their absence', () => {
    const dm = new ResponseValidator('dm');
    expect(dm.validate('/tracks/{id}', 'GET', 200, { id: 'x', type: 'track', popularity: 3 })).not.toEqual(
      [],
    );
    expect(dm.validate('/tracks/{id}', 'GET', 200, { id: 'x', type: 'track' })).toEqual([]);
    const { available_markets: _m, ...dmAlbum } = album;
    expect(dm.validate('/artists/{id}/albums', 'GET', 200, paging([dmAlbum]))).toEqual([]);
    expect(
      dm.validate('/artists/{id}/albums', 'GET', 200, paging([{ ...dmAlbum, album_group: 'album' }])),
    ).not.toEqual([]);
  });

  it('with extended quota requires what the document requires', () => {
    const eq = new ResponseValidator('eq');
    expect(eq.validate('/artists/{id}/albums', 'GET', 200, paging([album]))).not.toEqual([]);
    expect(
      eq.validate('/artists/{id}/albums', 'GET', 200, paging([{ ...album, album_group: 'album' }])),
    ).toEqual([]);
    expect(eq.validate('/me/tracks', 'GET', 200, { items: [] })).not.toEqual([]);
    expect(eq.validate('/me', 'GET', 401, { error: { status: 401 } })).not.toEqual([]);
  });

  it('accepts null playlist items (a schema fix) but still rejects the old field in development mode', () => {
    const dm = new ResponseValidator('dm');
    const items = (item: unknown, extra = {}) =>
      paging([{ added_at: '2026-01-01T00:00:00Z', is_local: false, item, ...extra }]);
    expect(dm.validate('/playlists/{playlist_id}/items', 'GET', 200, items(null))).toEqual([]);
    expect(
      dm.validate('/playlists/{playlist_id}/items', 'GET', 200, items(null, { track: null })),
    ).not.toEqual([]);
    expect(
      dm.validate('/playlists/{playlist_id}/items', 'GET', 200, items({ type: 'track', id: 3 })),
    ).not.toEqual([]);
  });
});
