// Worker: decode one cached MP3 and run each requested estimator on it, timing each call on this
// thread (one core).
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { decodeMp3 } from '@pacebeat/sandbox/audio/mp3';
import { ESTIMATORS } from './estimators.ts';

export interface EvalTask {
  file: string;
  estimators: string[];
}
export interface EvalResult {
  decodeMs: number;
  results: Record<
    string,
    { bpm: number | null; ms: number; error?: string; meter?: string | null; meterStrength?: number }
  >;
}

parentPort?.on('message', async ({ file, estimators }: EvalTask) => {
  let t = performance.now();
  const { pcm, sampleRate } = await decodeMp3(fs.readFileSync(file));
  const decodeMs = performance.now() - t;
  const results: EvalResult['results'] = {};
  for (const name of estimators) {
    const estimate = ESTIMATORS[name];
    if (!estimate) throw new Error(`unknown estimator ${name}`);
    t = performance.now();
    try {
      const answer = await estimate(pcm.slice(), sampleRate);
      const ms = performance.now() - t;
      if (answer !== null && typeof answer === 'object')
        results[name] = {
          bpm: answer.bpm,
          ms,
          ...(answer.meter ? { meter: answer.meter.meter, meterStrength: answer.meter.strength } : {}),
        };
      else results[name] = { bpm: answer, ms };
    } catch (err) {
      results[name] = { bpm: null, ms: performance.now() - t, error: (err as Error).message };
    }
  }
  parentPort?.postMessage({ decodeMs, results } satisfies EvalResult);
});
