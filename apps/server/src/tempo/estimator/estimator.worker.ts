// Worker-thread entry for the estimator pool: decode a preview and estimate its tempo. Never throws
// for bad audio: a decode failure is an answer with `bpm: null` and the reason.
import os from 'node:os';
import { threadId, workerData } from 'node:worker_threads';
import { decodePreview, PreviewDecodeError } from './decode.ts';
import { estimateTempo, type TempoEstimate } from './estimate.ts';

// The priority the pool asks for (pool.ts ESTIMATOR_NICE): on Linux a thread's own, so only this thread's.
// Raising a nice value needs no privilege; where it is refused the thread keeps the process's priority.
const nice = (workerData as { nice?: number } | undefined)?.nice;
if (typeof nice === 'number')
  try {
    os.setPriority(Math.max(os.getPriority(), nice));
  } catch {
    // Left as it was.
  }

export interface WorkerResult extends TempoEstimate {
  /** Decoded length in seconds (0 when decoding failed). */
  seconds: number;
  /** The worker thread that did the work (for logs; never 0, the main thread). */
  threadId: number;
  /** Time on the thread (ms), and the CPU time of it: the rest the thread waited for a core. */
  runMs: number;
  cpuMs: number;
}

export default async function estimateFromMp3(bytes: Uint8Array): Promise<WorkerResult> {
  const start = performance.now();
  const cpu = process.threadCpuUsage();
  const spent = () => {
    const used = process.threadCpuUsage(cpu);
    return { runMs: performance.now() - start, cpuMs: (used.user + used.system) / 1000 };
  };
  let audio;
  try {
    audio = await decodePreview(bytes);
  } catch (err) {
    if (err instanceof PreviewDecodeError)
      return {
        bpm: null,
        confidence: 0,
        candidates: [],
        reason: `undecodable preview: ${err.message}`,
        seconds: 0,
        threadId,
        ...spent(),
      };
    throw err;
  }
  const estimate = estimateTempo(audio.pcm, audio.sampleRate);
  return { ...estimate, seconds: audio.pcm.length / audio.sampleRate, threadId, ...spent() };
}
