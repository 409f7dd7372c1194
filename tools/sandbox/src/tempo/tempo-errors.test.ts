// Tempo metadata wrong in the ways real metadata is: beyond octave errors, 3:2 and 2:3, another
// version's tempo, songs whose tempo changes, and plainly wrong entries, at the configured shares.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../index.ts';
import { http } from '../test-support.ts';
import { OCTAVE_ERRORS_ONLY } from '../world/tempo-errors.ts';

type Kind = 'exact' | 'octave' | 'three-two' | 'other';
const near = (ratio: number, target: number) => Math.abs(Math.log(ratio / target)) < Math.log(1.04);
function classify(reported: number, truth: number): Kind {
  const r = reported / truth;
  if (near(r, 1)) return 'exact';
  if (near(r, 2) || near(r, 0.5)) return 'octave';
  if (near(r, 1.5) || near(r, 2 / 3)) return 'three-two';
  return 'other';
}
const count = (kinds: Kind[]) => {
  const out: Record<Kind, number> = { exact: 0, octave: 0, 'three-two': 0, other: 0 };
  for (const k of kinds) out[k]++;
  return out;
};

describe('tempo metadata errors', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({
      size: 'small',
      seed: 21,
      rateLimit: false,
      dailyQuota: false,
      deezer: { rateLimit: false },
      reccobeats: { rateLimit: false },
      getsongbpm: { rateLimit: false },
    });
  });
  afterAll(() => sb.close());

  const cat = () => sb.world.catalog;
  /** Studio tracks spread over the catalog, one per recording. */
  const sample = (n: number) => {
    const out: number[] = [];
    for (let g = 0; out.length < n && g < cat().trackTotal; g += 23)
      if (cat().releaseOf(g).kind === 'studio') out.push(g);
    return out;
  };
  const truth = (g: number) => cat().tempoOf(g).bpm;

  async function reccoBeats(gs: number[]): Promise<Map<number, number>> {
    const out = new Map<number, number>();
    for (let i = 0; i < gs.length; i += 40) {
      const chunk = gs.slice(i, i + 40);
      const ids = chunk.map((g) => sb.world.trackId(g));
      const tracks = await http<{ content: Array<{ id: string; href: string }> }>(
        `${sb.baseUrls.reccobeats}/track?ids=${ids.join(',')}`,
      );
      if (tracks.body.content.length === 0) continue;
      const features = await http<{ content: Array<{ href: string; tempo: number }> }>(
        `${sb.baseUrls.reccobeats}/audio-features?ids=${tracks.body.content.map((c) => c.id).join(',')}`,
      );
      for (const f of features.body.content)
        out.set(sb.world.trackG(f.href.split('/').pop() as string) as number, f.tempo);
    }
    return out;
  }

  it('ReccoBeats (Spotify’s analyser) errs at 3:2 and 2:3 and with unrelated values, not only by a factor of 2', async () => {
    const got = await reccoBeats(sample(700));
    const kinds = count([...got].map(([g, bpm]) => classify(bpm, truth(g))));
    const n = got.size;
    expect(n).toBeGreaterThan(400);
    expect(kinds.exact / n).toBeGreaterThan(0.78);
    expect(kinds.octave / n).toBeGreaterThan(0.05);
    expect(kinds['three-two']).toBeGreaterThanOrEqual(6);
    expect(kinds['three-two'] / n).toBeLessThan(0.1);
    expect(kinds.other).toBeGreaterThanOrEqual(3);
    expect(kinds.other / n).toBeLessThan(0.06);
  });

  it('Deezer and GetSongBPM give other versions’ tempos and wrong entries too', async () => {
    const deezer: Kind[] = [];
    const gsb: Kind[] = [];
    for (const g of sample(500)) {
      const t = cat().track(g);
      const d = await http<{ bpm?: number; duration?: number }>(`${sb.baseUrls.deezer}/track/isrc:${t.isrc}`);
      const sameLength = Math.abs((d.body.duration ?? 0) - t.durationMs / 1000) <= 8;
      if (d.body.bpm && sameLength) deezer.push(classify(d.body.bpm, truth(g)));
      const title = t.name.replace(/ \(feat\. [^)]*\)$/, '').replace(/ - Radio Edit$/, '');
      const artist = cat().artists[t.artists[0] as number]!.name;
      const lookup = encodeURIComponent(`song:${title} artist:${artist}`);
      const s = await http<{ search: Array<{ tempo: string }> | { error: string } }>(
        `${sb.baseUrls.getsongbpm}/search/?api_key=sandbox-key&type=both&lookup=${lookup}`,
      );
      if (Array.isArray(s.body.search) && s.body.search.length === 1)
        gsb.push(classify(Number(s.body.search[0]!.tempo), truth(g)));
    }
    const dz = count(deezer);
    const gs = count(gsb);
    expect(deezer.length).toBeGreaterThan(250);
    expect(gsb.length).toBeGreaterThan(150);
    expect(dz.other + dz['three-two']).toBeGreaterThanOrEqual(8);
    expect((dz.other + dz['three-two']) / deezer.length).toBeLessThan(0.15);
    expect(gs.other + gs['three-two']).toBeGreaterThanOrEqual(6);
    expect(dz.exact / deezer.length).toBeGreaterThan(0.75);
  });

  it('some songs change tempo: the truth is the main section, and sources report the other one or a mix', async () => {
    const gs = sample(700);
    const changing = gs.filter((g) => sb.admin.track(sb.world.trackId(g)).otherSectionTempo !== undefined);
    expect(changing.length / gs.length).toBeGreaterThan(0.01);
    expect(changing.length / gs.length).toBeLessThan(0.06);
    const got = await reccoBeats(changing);
    const offMain = [...got].filter(([g, bpm]) => classify(bpm, truth(g)) !== 'exact');
    expect(offMain.length).toBeGreaterThan(0);
  });

  it('is a setting: with octave errors only, every answer is the tempo, its double or its half', async () => {
    sb.admin.setConfig({ tempoErrors: OCTAVE_ERRORS_ONLY });
    try {
      const got = await reccoBeats(sample(400));
      const kinds = count([...got].map(([g, bpm]) => classify(bpm, truth(g))));
      expect(kinds['three-two'] + kinds.other).toBe(0);
      expect(kinds.octave).toBeGreaterThan(0);
    } finally {
      sb.admin.reset();
    }
  });
});
