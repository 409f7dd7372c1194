// The estimators the benchmark compares, by name, in table order.
import { estimateTempo } from '@pacebeat/server/src/tempo/estimator/estimate.ts';
import {
  essentiaPercival,
  essentiaRhythm2013,
  musicTempo,
  webAudioBeatDetector,
  type Estimator,
} from './anchors.ts';

export const ESTIMATORS: Record<string, Estimator> = {
  // The tempo and the meter it heard (estimator/meter.ts), from one run.
  pacebeat: (pcm, sampleRate) => {
    const r = estimateTempo(pcm, sampleRate);
    return { bpm: r.bpm, ...(r.meter ? { meter: r.meter } : {}) };
  },
  'essentia Percival': essentiaPercival,
  'essentia RhythmExtractor2013': essentiaRhythm2013,
  'music-tempo': musicTempo,
  'web-audio-beat-detector': webAudioBeatDetector,
};
