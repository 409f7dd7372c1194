// Search as Spotify's: `isrc:` finds every track of a recording (compilations reuse it), matching is
// fuzzy (word order, prefixes, typos) and results are ranked, so the right track is not always first.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../index.ts';
import { spotifyClient } from '../test-support.ts';

type Track = { id: string; name: string; external_ids: { isrc: string } };
type Result = { tracks: { items: Track[]; total: number } };

// Each search scans the world's catalog: about 20 s for the tests below on quiet cores, several times that on
// busy ones (one ran out of 60 s beside the browser tests).
const SEARCHES_MS = 240_000;

describe('search', () => {
  let sb: Sandbox;
  let api: ReturnType<typeof spotifyClient>;
  beforeAll(async () => {
    sb = await startSandbox({ size: 'small', seed: 12, rateLimit: false, dailyQuota: false });
    api = spotifyClient(sb, sb.admin.connect({ userId: 'ana.runs' }).access_token);
  });
  afterAll(() => sb.close());

  const cat = () => sb.world.catalog;
  const find = async (q: string, limit = 10) =>
    (await api<Result>('GET', `/search?type=track&limit=${limit}&q=${encodeURIComponent(q)}`)).body.tracks;
  /** Studio tracks with a plain Latin title by one artist, spread over the catalog. */
  const sample = (n: number) => {
    const out: number[] = [];
    for (let g = 5; out.length < n && g < cat().trackTotal; g += 97) {
      const t = cat().track(g);
      if (cat().releaseOf(g).kind === 'studio' && t.artists.length === 1 && /^[A-Za-z ]+$/.test(t.name))
        out.push(g);
    }
    return out;
  };
  const artistOf = (g: number) => cat().artists[cat().track(g).artists[0] as number]!.name;

  it('isrc: answers every track of the recording, the original and its compilation copies', async () => {
    const comp = cat().releases.find((r) => r.kind === 'compilation' && r.trackCount > 50)!;
    const original = cat().recordingOf(comp.firstG);
    const isrc = cat().track(original).isrc;
    const copies = [];
    for (let g = 0; g < cat().trackTotal; g++)
      if (cat().releaseOf(g).sources && cat().recordingOf(g) === original) copies.push(g);
    expect(copies.length).toBeGreaterThanOrEqual(1);
    const got = await find(`isrc:${isrc}`);
    expect(got.total).toBe(copies.length + 1);
    expect(got.items.map((t) => sb.world.trackG(t.id)).sort((a, b) => a! - b!)).toEqual(
      [original, ...copies].sort((a, b) => a - b),
    );
    expect(got.items.every((t) => t.external_ids.isrc === isrc)).toBe(true);
  });

  it(
    'ranks: the recording is nearly always among the first results, but not always first',
    { timeout: SEARCHES_MS },
    async () => {
      let first = 0;
      let top = 0;
      const picks = sample(60);
      for (const g of picks) {
        const t = cat().track(g);
        const got = await find(`artist:"${artistOf(g)}" track:"${t.name}"`);
        const isrcs = got.items.map((x) => x.external_ids.isrc);
        if (isrcs.includes(t.isrc)) top++;
        if (got.items[0]?.id === sb.world.trackId(g)) first++;
      }
      expect(top).toBeGreaterThanOrEqual(picks.length * 0.95);
      expect(first).toBeGreaterThan(picks.length * 0.5);
      expect(first).toBeLessThan(picks.length);
    },
  );

  it(
    'matches fuzzily: words in another order, a prefix, a typo, accents and case',
    { timeout: SEARCHES_MS },
    async () => {
      let found = 0;
      const picks = sample(40).filter((g) =>
        cat()
          .track(g)
          .name.split(' ')
          .some((w) => w.length >= 5),
      );
      for (const g of picks) {
        const name = cat().track(g).name;
        const words = name.split(' ');
        const long = words.findIndex((w) => w.length >= 5);
        const typo = words.map((w, i) => (i === long ? w.slice(0, 2) + w.slice(3) : w)).join(' ');
        const reversed = [...words].reverse().join(' ').toUpperCase();
        const queries = [`track:"${typo}" artist:"${artistOf(g)}"`, `${reversed} ${artistOf(g)}`];
        let ok = 0;
        for (const q of queries)
          if ((await find(q)).items.some((x) => x.external_ids.isrc === cat().track(g).isrc)) ok++;
        if (ok === queries.length) found++;
      }
      expect(picks.length).toBeGreaterThan(15);
      expect(found).toBeGreaterThanOrEqual(picks.length * 0.9);
    },
  );
});
