// The tempo estimator: public surface for the rest of the server.
export { estimateTempo, type TempoEstimate, type TempoCandidate } from './estimate.ts';
export { decodePreview, PreviewDecodeError } from './decode.ts';
export {
  createEstimatorPool,
  type EstimatorPool,
  type EstimatorPoolOptions,
  type EstimatorResult,
} from './pool.ts';
export { estimateMeter, type MeterEstimate } from './meter.ts';
