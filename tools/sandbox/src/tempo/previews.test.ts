// Deezer previews are 30-second MP3s synthesised at the track's true tempo: they decode, and an
// independent tempo estimator from npm (music-tempo, used only here) agrees up to a factor of 2.
import { createRequire } from 'node:module';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../index.ts';
import { decodeMp3 } from '../audio/mp3.ts';
import { http } from '../test-support.ts';
import { PATTERN_NAMES, type PatternName } from '../world/tempo.ts';

const require = createRequire(import.meta.url);
const MusicTempo = require('music-tempo') as new (
  audio: Float32Array,
  params: Record<string, number>,
) => { tempo: string };

const SAMPLE = 20;

describe('Deezer previews', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ size: 'small', seed: 33, deezer: { rateLimit: false, wrongVersionShare: 0 } });
  });
  afterAll(() => sb.close());

  /** Tracks spread over the catalog, a few of each drum pattern (taken in turn, so every pattern is in). */
  function sample(): Array<{ g: number; preview: string }> {
    const perPattern = new Map<PatternName, number[]>(PATTERN_NAMES.map((p) => [p, []]));
    const cap = Math.ceil(SAMPLE / PATTERN_NAMES.length);
    for (let g = 3, n = 0; n < cap * PATTERN_NAMES.length && g < sb.world.catalog.trackTotal; g += 53) {
      const list = perPattern.get(sb.world.catalog.tempoOf(g).pattern) as number[];
      if (list.length >= cap) continue;
      list.push(g);
      n++;
    }
    const out: Array<{ g: number; preview: string }> = [];
    for (let k = 0; k < cap; k++)
      for (const list of perPattern.values())
        if (k < list.length) out.push({ g: list[k] as number, preview: '' });
    return out.slice(0, SAMPLE);
  }

  it(
    'decode to 30 s of audio whose tempo an independent estimator finds (up to \u00d72, or the eighth note of a 6/8) on at least 95 % of a sample',
    { timeout: 300_000 },
    async () => {
      const picks = sample();
      expect(new Set(picks.map((p) => sb.world.catalog.tempoOf(p.g).pattern)).size).toBe(
        PATTERN_NAMES.length,
      );
      let agree = 0;
      let tested = 0;
      const misses: string[] = [];
      // All previews are requested at once: the sandbox's worker pool makes them while this thread estimates.
      const downloads = picks.map(async ({ g }) => {
        const t = sb.world.catalog.track(g);
        const d = await http<{ preview?: string; error?: unknown }>(
          `${sb.baseUrls.deezer}/track/isrc:${t.isrc}`,
        );
        if (d.body.error || !d.body.preview) return undefined;
        const res = await fetch(d.body.preview);
        expect(res.headers.get('content-type')).toBe('audio/mpeg');
        return { g, bytes: new Uint8Array(await res.arrayBuffer()) };
      });
      for (const download of downloads) {
        const got = await download;
        if (!got) continue;
        const { pcm, sampleRate } = await decodeMp3(got.bytes);
        expect(pcm.length / sampleRate).toBeGreaterThan(29.5);
        const hop = Math.round(sampleRate / 100);
        const estimate = Number(
          new MusicTempo(pcm, { hopSize: hop, timeStep: hop / sampleRate, bufferSize: 1024 }).tempo,
        );
        const truth = sb.world.catalog.tempoOf(got.g);
        tested++;
        // In 6/8 the eighth note (three a beat) is as real a pulse as the dotted quarter.
        const factors = truth.meter === '6/8' ? [1, 2, 0.5, 3, 1.5] : [1, 2, 0.5];
        if (factors.some((f) => Math.abs(estimate / (truth.bpm * f) - 1) < 0.04)) agree++;
        else misses.push(`${truth.pattern} ${truth.bpm} -> ${estimate}`);
      }
      expect(tested).toBeGreaterThanOrEqual(SAMPLE - 3);
      expect(agree / tested, misses.join('; ')).toBeGreaterThanOrEqual(0.95);
    },
  );

  it('serve the same bytes again from the cache and 404 for unknown previews', async () => {
    const g = sample()[0]!.g;
    const d = await http<{ preview: string }>(
      `${sb.baseUrls.deezer}/track/isrc:${sb.world.catalog.track(g).isrc}`,
    );
    const a = new Uint8Array(await (await fetch(d.body.preview)).arrayBuffer());
    const b = new Uint8Array(await (await fetch(d.body.preview)).arrayBuffer());
    expect(Buffer.compare(a, b)).toBe(0);
    expect((await fetch(`${sb.baseUrls.deezer}/previews/123.mp3`)).status).toBe(404);
  });
});
