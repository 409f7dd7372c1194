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
  pacebeat: (pcm, sampleRate) => estimateTempo(pcm, sampleRate).bpm,
  'essentia Percival': essentiaPercival,
  'essentia RhythmExtractor2013': essentiaRhythm2013,
  'music-tempo': musicTempo,
  'web-audio-beat-detector': webAudioBeatDetector,
};
