// The benchmark corpus: a deterministic list of synthesised 30-second clips with known tempo, each
// rendered once, passed through a 128 kbit/s MP3 round trip, and cached under bench/.cache/.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Prng } from '@pacebeat/sandbox/audio/prng';
import { PATTERNS, synthesizeClip, type Pattern } from '@pacebeat/sandbox/audio/synth';
import { runPool } from './pool.ts';

export interface ClipSpec {
  id: string;
  pattern: Pattern;
  bpm: number;
  seed: number;
  humanizeMs: number;
  driftPct: number;
  noise: number;
  reverb: number;
}

const here = path.dirname(fileURLToPath(import.meta.url));
export const CACHE_ROOT = path.resolve(here, '../.cache/tempo-accuracy');
const CORPUS_VERSION = 1;
export const PER_PATTERN = 55;

/**
 * Tempo range per pattern, where that kind of music is actually played: four-on-the-floor from
 * downtempo to hard dance, half-time feels from trap to drum & bass, the others across the range.
 */
export const RANGES: Record<Pattern, [number, number]> = {
  'four-on-the-floor': [90, 180],
  backbeat: [60, 200],
  'half-time': [110, 200],
  swing: [60, 200],
  waltz: [60, 200],
  sparse: [60, 180],
  // The dotted quarter of a 6/8 (its eighths run at three times this), as the world draws it.
  'six-eight': [58, 110],
  'five-four': [70, 190],
  'seven-eight': [70, 190],
};

/**
 * Every clip of the corpus, in a fixed order. Tempi are stratified over each pattern's range. Seed 0
 * is the main corpus (the one the estimator was tuned on); any other seed draws a held-out corpus
 * with the same recipe: same patterns, ranges and distributions, different tempi, songs and mixes.
 */
export function corpusSpec(seed = 0): ClipSpec[] {
  const clips: ClipSpec[] = [];
  for (const pattern of PATTERNS) {
    const [lo, hi] = RANGES[pattern];
    const rng =
      seed === 0
        ? new Prng('tempo-accuracy', CORPUS_VERSION, pattern)
        : new Prng('tempo-accuracy', CORPUS_VERSION, pattern, 'held-out', seed);
    for (let i = 0; i < PER_PATTERN; i++) {
      const bpm = Math.round((lo + ((hi - lo) * (i + rng.next())) / PER_PATTERN) * 100) / 100;
      const humanizeMs = pattern === 'sparse' ? rng.range(5, 30) : rng.range(0, 20);
      const noise = rng.chance(0.3) ? 0 : rng.range(0.02, 0.3);
      clips.push({
        id: `${pattern}-${String(i).padStart(2, '0')}`,
        pattern,
        bpm,
        seed: rng.int(1, 2 ** 31 - 1),
        humanizeMs: Math.round(humanizeMs * 10) / 10,
        driftPct: Math.round(rng.range(0, 2) * 100) / 100,
        noise: Math.round(noise * 1000) / 1000,
        reverb: Math.round(rng.range(0, 0.5) * 100) / 100,
      });
    }
  }
  return clips;
}

/** A small subset for quick runs: the first few clips of each pattern (spread over the range). */
export function quickSubset(clips: ClipSpec[]): ClipSpec[] {
  return clips.filter((_, i) => (i % PER_PATTERN) % 7 === 0);
}

const cacheKeys = new Map<number, string>();

/**
 * The cache folder for the corpus of this seed, keyed by the corpus list (so each seed has its own)
 * and by what the synthesiser produces (a short probe clip of every pattern), so a change to its
 * sound re-renders and a refactor does not.
 */
export function cacheDir(seed = 0): string {
  let cacheKey = cacheKeys.get(seed);
  if (!cacheKey) {
    const h = crypto.createHash('sha256').update(JSON.stringify(corpusSpec(seed)));
    for (const pattern of PATTERNS) {
      const probe = synthesizeClip({
        bpm: 123,
        pattern,
        seed: 1,
        seconds: 3,
        humanizeMs: 9,
        driftPct: 2,
        noise: 0.1,
        reverb: 0.3,
      });
      h.update(Buffer.from(probe.buffer, probe.byteOffset, probe.byteLength));
    }
    cacheKey = h.digest('hex').slice(0, 12);
    cacheKeys.set(seed, cacheKey);
  }
  return path.join(CACHE_ROOT, cacheKey);
}

/** Render every clip not yet in the cache (in worker threads) and return the MP3 path per clip. */
export async function ensureCorpus(
  clips: ClipSpec[],
  jobs: number,
  log: (s: string) => void,
  seed = 0,
): Promise<Map<string, string>> {
  const dir = cacheDir(seed);
  fs.mkdirSync(dir, { recursive: true });
  const paths = new Map(clips.map((c) => [c.id, path.join(dir, `${c.id}.mp3`)]));
  const missing = clips.filter((c) => !fs.existsSync(paths.get(c.id) as string));
  if (missing.length > 0) {
    log(`rendering ${missing.length} clips into ${path.relative(process.cwd(), dir)} with ${jobs} threads…`);
    let done = 0;
    await runPool(
      new URL('./render.worker.ts', import.meta.url),
      missing.map((c) => ({ spec: c, file: paths.get(c.id) as string })),
      jobs,
      () => {
        done++;
        if (done % 25 === 0 || done === missing.length) log(`  ${done}/${missing.length}`);
      },
    );
  }
  return paths;
}
