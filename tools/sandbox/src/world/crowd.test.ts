// A crowd's libraries: the same from the same seed, and sharing artists the way listeners do:
// the most popular artists in many libraries, most artists in few.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../index.ts';
import { http } from '../test-support.ts';
import { crowdTastes, rankedArtists } from './crowd.ts';

describe('a crowd of listeners', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ size: 'small', seed: 27, rateLimit: false, extendedQuota: true });
  });
  afterAll(() => sb.close());

  it('is the same from the same seed, and another seed gives another crowd', () => {
    const cat = sb.world.catalog;
    const a = crowdTastes(cat, 27, { count: 20, favouriteArtists: 6 });
    expect(crowdTastes(cat, 27, { count: 20, favouriteArtists: 6 })).toEqual(a);
    expect(crowdTastes(cat, 28, { count: 20, favouriteArtists: 6 })).not.toEqual(a);
    expect(a.every((u) => u.favourites.length === 6 && new Set(u.favourites).size === 6)).toBe(true);
  });

  it('shares artists by Zipf: the top artist in most libraries, most artists in few or none', () => {
    const cat = sb.world.catalog;
    const ranked = rankedArtists(cat);
    const tastes = crowdTastes(cat, 27, { count: 400, favouriteArtists: 6 });
    const fans = new Map<number, number>();
    for (const t of tastes) for (const a of t.favourites) fans.set(a, (fans.get(a) ?? 0) + 1);
    const top = fans.get(ranked[0]!) ?? 0;
    const tail = ranked.slice(ranked.length / 2).map((a) => fans.get(a) ?? 0);
    expect(top).toBeGreaterThan(400 * 0.4);
    // An artist of the less popular half is, on average, in under a twentieth of the top artist's libraries.
    expect(tail.reduce((s, n) => s + n, 0) / tail.length).toBeLessThan(top / 20);
  });

  it('creates the users through the admin API, with libraries by those artists', async () => {
    const res = await http<{ ids: string[] }>(`${sb.baseUrls.admin}/crowd`, {
      method: 'POST',
      json: { count: 5, prefix: 'run', liked: 12, followedArtists: 2, favouriteArtists: 4 },
    });
    expect(res.status).toBe(201);
    expect(res.body.ids).toEqual(['run1', 'run2', 'run3', 'run4', 'run5']);
    const taste = crowdTastes(sb.world.catalog, 27, { count: 5, prefix: 'run', favouriteArtists: 4 });
    for (const [i, id] of res.body.ids.entries()) {
      const u = sb.world.user(id)!;
      expect(u.liked).toHaveLength(12);
      expect(u.followedArtists).toEqual(taste[i]!.favourites.slice(0, 2));
      const fav = new Set(taste[i]!.favourites);
      for (const l of u.liked) expect(sb.world.catalog.track(l.g).artists.some((a) => fav.has(a))).toBe(true);
    }
    const bad = await http(`${sb.baseUrls.admin}/crowd`, { method: 'POST', json: { count: 0 } });
    expect(bad.status).toBe(400);
  });
});
