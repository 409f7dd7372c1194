// Worker: synthesise one clip, encode it as a 128 kbit/s MP3 and write it to the cache.
import fs from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { encodeMp3 } from '@pacebeat/sandbox/audio/mp3';
import { synthesizeClip } from '@pacebeat/sandbox/audio/synth';
import type { ClipSpec } from './corpus.ts';

parentPort?.on('message', ({ spec, file }: { spec: ClipSpec; file: string }) => {
  const { id: _id, ...opts } = spec;
  const pcm = synthesizeClip({ ...opts, seconds: 30, sampleRate: 44100 });
  const mp3 = encodeMp3(pcm, 44100, 128);
  fs.writeFileSync(`${file}.tmp`, mp3);
  fs.renameSync(`${file}.tmp`, file);
  parentPort?.postMessage(null);
});
