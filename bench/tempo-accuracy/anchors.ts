// The anchors: published JavaScript tempo estimators, called from Node the way each can be.
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

/** An estimator under test: mono PCM in, a tempo (or null for "no answer") out. */
/** An estimator's answer: a tempo, or (Pacebeat's) a tempo and the meter it heard. */
export type EstimatorAnswer =
  number | null | { bpm: number | null; meter?: { meter: string | null; strength: number } };
export type Estimator = (pcm: Float32Array, sampleRate: number) => EstimatorAnswer | Promise<EstimatorAnswer>;

interface EssentiaVector {
  delete(): void;
}
interface EssentiaCore {
  arrayToVector(a: Float32Array): EssentiaVector;
  PercivalBpmEstimator(
    signal: EssentiaVector,
    frameSize: number,
    frameSizeOSS: number,
    hopSize: number,
    hopSizeOSS: number,
    maxBPM: number,
    minBPM: number,
    sampleRate: number,
  ): { bpm: number };
  RhythmExtractor2013(
    signal: EssentiaVector,
    maxTempo: number,
    method: string,
    minTempo: number,
  ): { bpm: number };
}

let essentia: EssentiaCore | undefined;
function getEssentia(): EssentiaCore {
  if (!essentia) {
    // essentia.js is AGPL-3.0: used here only as a yardstick, never in the product.
    const { EssentiaWASM, Essentia } = require('essentia.js') as {
      EssentiaWASM: unknown;
      Essentia: new (wasm: unknown) => EssentiaCore;
    };
    essentia = new Essentia(EssentiaWASM);
  }
  return essentia;
}

function withVector<T>(pcm: Float32Array, fn: (v: EssentiaVector) => T): T {
  const v = getEssentia().arrayToVector(pcm);
  try {
    return fn(v);
  } finally {
    v.delete();
  }
}

const positive = (x: unknown): number | null => {
  const n = Number(x);
  return Number.isFinite(n) && n > 0 ? n : null;
};

/** Essentia's PercivalBpmEstimator with its documented defaults (50-210 BPM). */
export const essentiaPercival: Estimator = (pcm, sampleRate) =>
  withVector(pcm, (v) =>
    positive(getEssentia().PercivalBpmEstimator(v, 1024, 2048, 128, 128, 210, 50, sampleRate).bpm),
  );

/** Essentia's RhythmExtractor2013, multifeature beat tracker (40-208 BPM, 44.1 kHz only). */
export const essentiaRhythm2013: Estimator = (pcm, sampleRate) => {
  if (sampleRate !== 44100) throw new Error('RhythmExtractor2013 expects 44.1 kHz');
  return withVector(pcm, (v) => positive(getEssentia().RhythmExtractor2013(v, 208, 'multifeature', 40).bpm));
};

/** music-tempo (BeatRoot): its frames are 10 ms, so the hop follows the sample rate. */
export const musicTempo: Estimator = (pcm, sampleRate) => {
  const MusicTempo = require('music-tempo') as new (
    data: Float32Array,
    params: object,
  ) => { tempo: number | string };
  try {
    return positive(new MusicTempo(pcm, { hopSize: Math.round(sampleRate / 100), timeStep: 0.01 }).tempo);
  } catch {
    return null; // it throws when it finds too few onsets
  }
};

type Handler = (e: { data: { id: number; method: string; params: unknown } }) => Promise<void>;
const beatWorker: { handler?: Handler; last?: unknown } = {};

/**
 * web-audio-beat-detector: the package itself needs an OfflineAudioContext (a browser) to low-pass the
 * audio at 240 Hz before handing it to its worker. In Node we apply the same Web Audio biquad
 * ourselves and drive the published worker bundle through its own message protocol, with a stand-in
 * for the worker's global `self`.
 */
function beatWorkerHandler(): Handler {
  if (!beatWorker.handler) {
    const g = globalThis as { self?: unknown };
    const previous = g.self;
    g.self = {
      addEventListener: (_type: string, h: Handler) => (beatWorker.handler = h),
      removeEventListener: () => undefined,
      postMessage: (m: unknown) => (beatWorker.last = m),
    };
    try {
      require('web-audio-beat-detector-worker');
    } finally {
      g.self = previous;
    }
    if (!beatWorker.handler)
      throw new Error('web-audio-beat-detector-worker did not register a message handler');
  }
  return beatWorker.handler;
}

/** Web Audio's low-pass biquad (Q in dB, default 1) as the browser would apply it. */
function webAudioLowpass(pcm: Float32Array, sampleRate: number, freq: number, qDb = 1): Float32Array {
  const w0 = (2 * Math.PI * freq) / sampleRate;
  const alpha = Math.sin(w0) / (2 * Math.pow(10, qDb / 20));
  const cos = Math.cos(w0);
  const a0 = 1 + alpha;
  const b0 = (1 - cos) / 2 / a0;
  const b1 = (1 - cos) / a0;
  const b2 = b0;
  const a1 = (-2 * cos) / a0;
  const a2 = (1 - alpha) / a0;
  const out = new Float32Array(pcm.length);
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  for (let i = 0; i < pcm.length; i++) {
    const x = pcm[i] as number;
    const y = b0 * x + b1 * x1 + b2 * x2 - a1 * y1 - a2 * y2;
    x2 = x1;
    x1 = x;
    y2 = y1;
    y1 = y;
    out[i] = y;
  }
  return out;
}

let nextId = 1;
/** web-audio-beat-detector's `analyze` (its default 90-180 BPM search range). */
export const webAudioBeatDetector: Estimator = async (pcm, sampleRate) => {
  const handler = beatWorkerHandler();
  const channelData = webAudioLowpass(pcm, sampleRate, 240);
  const id = nextId++;
  await handler({ data: { id, method: 'analyze', params: { channelData, sampleRate } } });
  const reply = beatWorker.last as { id: number; result?: number; error?: { message: string } };
  if (reply.id !== id) throw new Error('web-audio-beat-detector: reply for another call');
  if (reply.error) return null; // "does not contain any detectable beats"
  return positive(reply.result);
};
