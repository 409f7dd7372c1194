import { synthesizeClip } from '/work/wt-lookups/tools/sandbox/src/audio/synth.ts';
import { encodeMp3 } from '/work/wt-lookups/tools/sandbox/src/audio/mp3.ts';
import estimateFromMp3 from '/work/wt-lookups/apps/server/src/tempo/estimator/estimator.worker.ts';
const pats = ['fourOnFloor', 'backbeat'];
for (let i = 0; i < 6; i++) {
  const c0 = process.threadCpuUsage();
  const pcm = synthesizeClip({ bpm: 120 + i * 7, pattern: 'backbeat' as never, seconds: 30, sampleRate: 22050, seed: i, humanizeMs: 6, driftPct: 1, noise: 0.05 });
  const mp3 = encodeMp3(pcm, 22050, 96);
  const c1 = process.threadCpuUsage(c0);
  const r = await estimateFromMp3(mp3);
  console.log(`synth+encode cpu ${((c1.user + c1.system) / 1000).toFixed(0)} ms; estimate cpu ${r.cpuMs.toFixed(0)} ms run ${r.runMs.toFixed(0)} ms bpm ${r.bpm}`);
}
