// Worker-thread entry for the estimator pool: decode a preview and estimate its tempo. Never throws
// for bad audio: a decode failure is an answer with `bpm: null` and the reason.
import { threadId } from 'node:worker_threads';
import { decodePreview, PreviewDecodeError } from './decode.ts';
import { estimateTempo, type TempoEstimate } from './estimate.ts';

export interface WorkerResult extends TempoEstimate {
  /** Decoded length in seconds (0 when decoding failed). */
  seconds: number;
  /** The worker thread that did the work (for logs; never 0, the main thread). */
  threadId: number;
}

export default async function estimateFromMp3(bytes: Uint8Array): Promise<WorkerResult> {
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
      };
    throw err;
  }
  return {
    ...estimateTempo(audio.pcm, audio.sampleRate),
    seconds: audio.pcm.length / audio.sampleRate,
    threadId,
  };
}
