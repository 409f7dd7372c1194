// Worker thread: synthesise and encode one preview, so a 1-second job never blocks the server (which,
// in Pacebeat's demo mode, is Pacebeat's own process).
import { parentPort } from 'node:worker_threads';
import { synthesizeClip, type Pattern } from '../audio/synth.ts';
import { encodeMp3 } from '../audio/mp3.ts';

export interface PreviewJob {
  id: number;
  bpm: number;
  pattern: Pattern;
  seed: number;
  seconds: number;
  sampleRate: number;
  kbps: number;
}

parentPort?.on('message', (job: PreviewJob) => {
  try {
    const pcm = synthesizeClip({
      bpm: job.bpm,
      pattern: job.pattern,
      seconds: job.seconds,
      sampleRate: job.sampleRate,
      seed: job.seed,
      humanizeMs: 6,
      driftPct: 1,
      noise: 0.05,
    });
    const mp3 = encodeMp3(pcm, job.sampleRate, job.kbps);
    parentPort?.postMessage({ id: job.id, mp3 }, [mp3.buffer as ArrayBuffer]);
  } catch (err) {
    parentPort?.postMessage({ id: job.id, error: String(err) });
  }
});
