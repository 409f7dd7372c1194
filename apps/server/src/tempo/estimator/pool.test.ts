import { afterAll, describe, expect, it } from 'vitest';
import { readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import { threadId } from 'node:worker_threads';
import { encodeMp3 } from '@pacebeat/sandbox/audio/mp3';
import { synthesizeClip } from '@pacebeat/sandbox/audio/synth';
import { createEstimatorPool, ESTIMATOR_NICE } from './pool.ts';

const pool = createEstimatorPool({ size: 2 });
afterAll(() => pool.close());

const rightForRunning = (est: number | null, truth: number) =>
  est !== null && [1, 2, 0.5].some((f) => Math.abs(est - truth * f) <= 0.04 * truth * f);

const clip = (bpm: number, seconds: number) =>
  encodeMp3(synthesizeClip({ bpm, pattern: 'four-on-the-floor', seed: bpm, seconds }), 44100, 128);

describe('createEstimatorPool', () => {
  it('estimates previews on worker threads, in parallel, leaving the caller bytes intact', async () => {
    const a = clip(126, 12);
    const b = clip(150, 12);
    const before = a.slice();
    const [ra, rb] = await Promise.all([pool.estimateFromMp3(a), pool.estimateFromMp3(b)]);
    expect(rightForRunning(ra.bpm, 126)).toBe(true);
    expect(rightForRunning(rb.bpm, 150)).toBe(true);
    expect(ra.threadId).not.toBe(threadId);
    expect(ra.threadId).toBeGreaterThan(0);
    expect(ra.seconds).toBeGreaterThan(11.9);
    expect(Buffer.from(a).equals(Buffer.from(before))).toBe(true);
  });

  it.runIf(process.platform === 'linux')(
    'runs its threads at a lower priority than the process’s event loop',
    async () => {
      await pool.estimateFromMp3(clip(128, 4));
      // /proc/self/task/<tid>/stat: the 19th field is the thread's nice value (after the parenthesised name).
      const nice = (tid: string) =>
        Number(readFileSync(`/proc/self/task/${tid}/stat`, 'utf8').split(') ')[1]!.split(' ')[16]);
      const threads = readdirSync('/proc/self/task').map((tid) => ({ tid, nice: nice(tid) }));
      expect(threads.find((t) => t.tid === String(process.pid))?.nice).toBe(os.getPriority());
      expect(
        threads.filter((t) => t.nice === Math.max(os.getPriority(), ESTIMATOR_NICE)).length,
      ).toBeGreaterThan(0);
    },
  );

  it('answers null with a reason, never throws, for corrupt, truncated and short previews', async () => {
    const good = clip(120, 8);
    const corrupt = new Uint8Array(50_000).map((_, i) => (i * 97 + 13) % 256);
    const truncated = good.subarray(0, 700);
    const short = clip(120, 2);
    const results = await Promise.all(
      [corrupt, truncated, short].map((bytes) => pool.estimateFromMp3(bytes)),
    );
    for (const r of results) {
      expect(r.bpm).toBeNull();
      expect(r.confidence).toBeLessThan(0.2);
      expect(r.reason).toBeTruthy();
    }
    expect(results[0]?.reason).toMatch(/undecodable/);
    expect(results[1]?.reason).toMatch(/undecodable/);
    expect(results[2]?.reason).toMatch(/too short/);
  });

  it('close() ends the threads at once: running, queued and later estimates are rejected', async () => {
    const own = createEstimatorPool({ size: 1 });
    const running = expect(own.estimateFromMp3(clip(128, 12))).rejects.toThrow();
    const queued = expect(own.estimateFromMp3(clip(132, 12))).rejects.toThrow();
    await own.close();
    await running;
    await queued;
    await expect(own.estimateFromMp3(clip(136, 4))).rejects.toThrow(/closed/);
  });
});
