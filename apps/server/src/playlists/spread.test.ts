// The artist spread (spread.ts): which ready songs go now and in what order, pure.
import { describe, expect, it } from 'vitest';
import {
  bestArtistRun,
  closestSameArtist,
  distinctFirstArtists,
  longestArtistRun,
  SPREAD_WINDOW,
  spreadArtists,
  type Spreadable,
} from './spread.ts';

let n = 0;
const song = (...artistIds: string[]): Spreadable & { since: number } => ({
  trackId: `t${n++}`,
  artistIds,
  since: 0,
});
const artistsIn = (songs: Spreadable[]) => songs.map((s) => s.artistIds ?? []);

const closest = closestSameArtist;

describe('spreadArtists', () => {
  it('keeps one artist of many songs apart: no artist twice within the window; the surplus waits', () => {
    // Rank order as a catalog lists it: one band's 12 songs in a row, then 9 other artists.
    const band = Array.from({ length: 12 }, () => song('band'));
    const others = Array.from({ length: 9 }, (_, i) => song(`a${i}`));
    const { order, held, window } = spreadArtists({ ready: [...band, ...others] });
    expect(window).toBe(SPREAD_WINDOW);
    expect(closest(artistsIn(order))).toBeGreaterThan(SPREAD_WINDOW);
    // Every other artist goes now; the band as often as the window allows, the rest of it waits.
    expect(order.filter((s) => s.artistIds![0] !== 'band')).toHaveLength(9);
    expect(order.filter((s) => s.artistIds![0] === 'band')).toHaveLength(2);
    expect(held).toHaveLength(10);
    expect(held.every((s) => s.artistIds![0] === 'band')).toBe(true);
  });

  it('keeps rank order where the window allows', () => {
    const ready = Array.from({ length: 8 }, (_, i) => song(`a${i}`));
    expect(spreadArtists({ ready }).order).toEqual(ready);
  });

  it('counts the songs the playlist ends with: across adds, no artist twice within the window', () => {
    const tail = [['x'], ['y'], ['band'], ['z'], ['w']];
    const ready = [song('band'), song('x'), ...Array.from({ length: 6 }, (_, i) => song(`n${i}`))];
    const { order } = spreadArtists({ ready, tail });
    expect(closest([...tail, ...artistsIn(order)])).toBeGreaterThan(SPREAD_WINDOW);
    expect(order).toHaveLength(8);
  });

  it('features count: a song crediting the band is the band', () => {
    const ready = [
      song('band'),
      song('other', 'band'),
      ...Array.from({ length: 5 }, (_, i) => song(`n${i}`)),
    ];
    const { order } = spreadArtists({ ready });
    expect(closest(artistsIn(order))).toBeGreaterThan(SPREAD_WINDOW);
  });

  it('a playlist of only 2 artists: at most 2 of one in a row now, the rest waits; after a day the best order', () => {
    const ready = [...Array.from({ length: 10 }, () => song('a')), song('b'), song('b')];
    // Early in a library's read the two may be just the first artists read: aa b aa b aa, and company awaited.
    const now = spreadArtists({ ready });
    expect(longestArtistRun(artistsIn(now.order))).toBe(2);
    expect(now.order).toHaveLength(8);
    expect(now.held).toHaveLength(4);
    // A day on, no company came: every song, in the shortest runs those two allow.
    const later = spreadArtists({ ready, overdue: () => true });
    expect(later.held).toEqual([]);
    expect(later.order).toHaveLength(12);
    expect(longestArtistRun(artistsIn(later.order))).toBe(bestArtistRun(artistsIn(ready))); // 4: aaaa b aaaa b aa
    // One artist alone: two now, not all in a row.
    const alone = Array.from({ length: 9 }, () => song('solo'));
    expect(spreadArtists({ ready: alone }).order).toHaveLength(2);
  });

  it('a song that waited a day goes with less room: a window of 1 where the others allow', () => {
    const band = Array.from({ length: 6 }, () => song('band'));
    const others = Array.from({ length: 6 }, (_, i) => song(`a${i}`));
    const ready = [...band, ...others];
    expect(spreadArtists({ ready }).held).toHaveLength(4);
    const late = spreadArtists({ ready, overdue: () => true });
    expect(late.held).toEqual([]);
    expect(longestArtistRun(artistsIn(late.order))).toBe(1);
  });

  it('songs overdue together (held over a night) go at most 2 of one artist in a row; the rest waits on', () => {
    const band = Array.from({ length: 8 }, () => song('band'));
    const ready = [...band, song('x'), song('y')];
    const many = Array.from({ length: 20 }, (_, i) => `p${i}`);
    const late = spreadArtists({ ready, placedArtists: many, overdue: () => true });
    expect(longestArtistRun(artistsIn(late.order))).toBe(2); // bb x bb y bb
    expect(late.order).toHaveLength(8);
    expect(late.held).toHaveLength(2);
    // The tail counts: after a playlist that ends with the band twice, alone they cannot go at all.
    const after = spreadArtists({
      ready: band,
      tail: [['p1'], ['p2'], ['p3'], ['band'], ['band']],
      placedArtists: many,
      overdue: () => true,
    });
    expect(after.order).toEqual([]);
    // A week on (stale), no company is coming: they go in the best order possible.
    const stale = spreadArtists({ ready, placedArtists: many, overdue: () => true, stale: () => true });
    expect(stale.held).toEqual([]);
    expect(longestArtistRun(artistsIn(stale.order))).toBe(bestArtistRun(artistsIn(ready)));
  });

  it('while a runner’s first songs come in, the window shrinks (not below shrinkTo) rather than hold songs', () => {
    const band = Array.from({ length: 6 }, () => song('band'));
    const others = Array.from({ length: 10 }, (_, i) => song(`a${i}`));
    const all = spreadArtists({ ready: [...band, ...others], shrinkTo: 2 });
    expect(all.held).toEqual([]);
    expect(all.window).toBe(2); // the largest window that places all 16
    expect(closest(artistsIn(all.order))).toBeGreaterThan(2);
    // More than a window of 2 can place: the rest waits.
    const crowded = spreadArtists({
      ready: [...band, ...band.map(() => song('band')), ...others],
      shrinkTo: 2,
    });
    expect(crowded.window).toBe(2);
    expect(crowded.held.length).toBeGreaterThan(0);
    expect(closest(artistsIn(crowded.order))).toBeGreaterThan(2);
  });

  it('what the playlist holds counts toward its artists: few ready artists still wait for company', () => {
    const ready = [song('band'), song('band'), song('band')];
    const many = Array.from({ length: 20 }, (_, i) => `p${i}`);
    expect(spreadArtists({ ready, placedArtists: many }).held).toHaveLength(2);
  });
});

describe('spread measures', () => {
  it('longest run, the best the songs allow, distinct artists in the first 20', () => {
    const songs = [['a'], ['a'], ['a'], ['b'], ['c', 'a'], ['d']];
    expect(longestArtistRun(songs)).toBe(3);
    expect(bestArtistRun(songs)).toBe(2); // a in 4 of 6: a b a c… needs runs of 2 somewhere
    expect(bestArtistRun([['a'], ['b'], ['a']])).toBe(1);
    expect(distinctFirstArtists(songs)).toBe(4);
  });
});
