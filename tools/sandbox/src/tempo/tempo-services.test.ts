// Deezer, ReccoBeats and GetSongBPM look-alikes: lookups, coverage, octave errors, errors and limits.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../index.ts';
import { http } from '../test-support.ts';
import { fitsRange } from '../world/tempo.ts';

type DeezerTrack = {
  id: number;
  isrc: string;
  bpm: number;
  duration: number;
  preview: string;
  title: string;
  album: { title: string };
  error?: { code: number };
};

describe('tempo services', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({
      size: 'small',
      seed: 21,
      deezer: { rateLimit: false },
      reccobeats: { rateLimit: false },
    });
  });
  afterAll(() => sb.close());
  beforeEach(() => sb.admin.reset());

  const cat = () => sb.world.catalog;
  /** Studio tracks spread over the catalog. */
  const sample = (n: number) => {
    const out: number[] = [];
    for (let g = 0; out.length < n && g < cat().trackTotal; g += 37)
      if (cat().releaseOf(g).kind === 'studio') out.push(g);
    return out;
  };

  it('Deezer: ISRC lookups with bpm unknown for a share, octave errors for some, and wrong versions for a few', async () => {
    let found = 0;
    let unknown = 0;
    let exact = 0;
    let octave = 0;
    let wrongVersion = 0;
    for (const g of sample(300)) {
      const t = cat().track(g);
      const res = await http<DeezerTrack>(`${sb.baseUrls.deezer}/track/isrc:${t.isrc}`);
      expect(res.status).toBe(200);
      if (res.body.error) {
        expect(res.body.error.code).toBe(800);
        continue;
      }
      found++;
      expect(res.body.isrc).toBe(t.isrc);
      const durationOff =
        Math.abs(res.body.duration - t.durationMs / 1000) > Math.max(0.05 * (t.durationMs / 1000), 8);
      if (durationOff) {
        wrongVersion++;
        continue;
      }
      const truth = cat().tempoOf(g).bpm;
      if (res.body.bpm === 0) unknown++;
      else if (Math.abs(res.body.bpm / truth - 1) < 0.02) exact++;
      else if (fitsRange(res.body.bpm, truth * 0.98, truth * 1.02)) octave++;
      expect(res.body.preview === '' || res.body.preview.startsWith(`${sb.baseUrls.deezer}/previews/`)).toBe(
        true,
      );
    }
    expect(found / 300).toBeGreaterThan(0.88);
    expect(unknown / found).toBeGreaterThan(0.2);
    expect(unknown / found).toBeLessThan(0.4);
    expect(octave).toBeGreaterThan(3);
    expect(exact).toBeGreaterThan(octave * 3);
    expect(wrongVersion).toBeGreaterThan(0);
    expect(wrongVersion / found).toBeLessThan(0.1);
  });

  it('Deezer: search by artist and title, /track/{id}, and errors as HTTP 200 bodies', async () => {
    const g = sample(40).find(
      (x) => cat().track(x).artists.length === 1 && !/[^\x20-\x7e]/.test(cat().track(x).name),
    )!;
    const t = cat().track(g);
    const artist = cat().artists[t.artists[0] as number]!.name;
    const q = encodeURIComponent(`artist:"${artist}" track:"${t.name}"`);
    const res = await http<{ data: Array<{ id: number; title: string; duration: number }>; total: number }>(
      `${sb.baseUrls.deezer}/search/track?q=${q}`,
    );
    expect(res.body.total).toBeGreaterThan(0);
    const sameTitle = res.body.data.filter((d) => d.title === t.name);
    const isrcs = [];
    for (const d of sameTitle)
      isrcs.push((await http<DeezerTrack>(`${sb.baseUrls.deezer}/track/${d.id}`)).body.isrc);
    expect(isrcs).toContain(t.isrc);
    const hit = sameTitle[0]!;
    expect((await http(`${sb.baseUrls.deezer}/track/isrc:XX0000000000`)).body).toEqual({
      error: { type: 'DataException', message: 'no data', code: 800 },
    });
    sb.admin.setConfig({ deezer: { rateLimit: { windowSeconds: 5, maxRequests: 2 } } });
    await http(`${sb.baseUrls.deezer}/track/${hit.id}`);
    await http(`${sb.baseUrls.deezer}/track/${hit.id}`);
    const quota = await http(`${sb.baseUrls.deezer}/track/${hit.id}`);
    expect(quota.status).toBe(200);
    expect(quota.body).toEqual({ error: { type: 'Exception', message: 'Quota limit exceeded', code: 4 } });
  });

  it('ReccoBeats: maps Spotify ids to its own, and its audio-features mirror Spotify\u2019s tempo errors', async () => {
    const gs = sample(40);
    const ids = gs.map((g) => sb.world.trackId(g));
    const tracks = await http<{ content: Array<{ id: string; href: string; isrc: string }> }>(
      `${sb.baseUrls.reccobeats}/track?ids=${ids.join(',')}`,
    );
    expect(tracks.status).toBe(200);
    const n = tracks.body.content.length;
    expect(n).toBeGreaterThan(15);
    expect(n).toBeLessThan(40);
    const features = await http<{ content: Array<{ id: string; href: string; tempo: number }> }>(
      `${sb.baseUrls.reccobeats}/audio-features?ids=${tracks.body.content.map((c) => c.id).join(',')}`,
    );
    expect(features.body.content).toHaveLength(n);
    sb.admin.setConfig({ extendedQuota: true, dailyQuota: false });
    const token = sb.admin.connect({ userId: 'ana.runs' }).access_token;
    for (const f of features.body.content) {
      const spotifyId = f.href.split('/').pop() as string;
      const af = await http<{ tempo: number }>(`${sb.baseUrls.spotifyApi}/audio-features/${spotifyId}`, {
        token,
      });
      expect(f.tempo).toBe(af.body.tempo);
    }
    const tooMany = await http(
      `${sb.baseUrls.reccobeats}/track?ids=${Array.from({ length: 41 }, () => ids[0]).join(',')}`,
    );
    expect(tooMany.status).toBe(400);
    sb.admin.setConfig({ reccobeats: { rateLimit: { windowSeconds: 60, maxRequests: 1 } } });
    await http(`${sb.baseUrls.reccobeats}/track?ids=${ids[0]}`);
    const limited = await http(`${sb.baseUrls.reccobeats}/track?ids=${ids[0]}`);
    expect(limited.status).toBe(429);
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
  });

  it('GetSongBPM: matches title and primary artist only, needs a key, answers "no result"', async () => {
    const gsb = (lookup: string, key = 'sandbox-key') =>
      http<{ search: Array<{ tempo: string; title: string; artist: { name: string } }> | { error: string } }>(
        `${sb.baseUrls.getsongbpm}/search/?api_key=${key}&type=both&lookup=${encodeURIComponent(lookup)}`,
      );
    let hits = 0;
    let misses = 0;
    for (const g of sample(60)) {
      const t = cat().track(g);
      const title = t.name.replace(/ \(feat\. [^)]*\)$/, '').replace(/ - Radio Edit$/, '');
      const artist = cat().artists[t.artists[0] as number]!.name;
      const res = await gsb(`song:${title} artist:${artist}`);
      if (Array.isArray(res.body.search)) {
        hits++;
        expect(res.body.search[0]?.artist.name).toBe(artist);
        expect(Number(res.body.search[0]?.tempo)).toBeGreaterThan(30);
      } else {
        expect(res.body.search).toEqual({ error: 'no result' });
        misses++;
      }
    }
    expect(hits).toBeGreaterThan(15);
    expect(misses).toBeGreaterThan(10);
    expect((await gsb('song:Anything artist:Nobody', 'wrong')).status).toBe(401);
  });
});
