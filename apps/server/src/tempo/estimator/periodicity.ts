// Periodicity of onset curves: their autocorrelation (does the music repeat after this lag?),
// computed through the FFT and averaged over curves.
import { fftOf } from './fft.ts';

/**
 * Mean autocorrelation of the curves by lag in frames, each normalised to 1 at lag 0 and corrected
 * for the shrinking overlap at longer lags. With `weightFrom`, each curve is weighted by the square of
 * its own highest autocorrelation at lags from `weightFrom` on, so curves that repeat (the bands the
 * instruments play in) outweigh curves that do not (bands holding only noise).
 */
export function autocorrelation(curves: Float64Array[], maxLag: number, weightFrom?: number): Float64Array {
  const n = curves[0]?.length ?? 0;
  let nfft = 4;
  while (nfft < 2 * n) nfft <<= 1;
  const fft = fftOf(nfft);
  const lags = Math.max(0, Math.min(n - 1, maxLag));
  const acf = new Float64Array(lags + 1);
  // Real transforms (fft.js fills the spectrum's first half, interleaved, which is all a real input needs).
  const input = new Float64Array(nfft);
  const spectrum = new Float64Array(2 * nfft);
  const power = new Float64Array(nfft);
  const back = new Float64Array(2 * nfft);
  const one = new Float64Array(acf.length);
  let total = 0;
  for (const curve of curves) {
    let mean = 0;
    for (let i = 0; i < n; i++) mean += curve[i] as number;
    mean /= Math.max(1, n);
    input.fill(0);
    for (let i = 0; i < n; i++) input[i] = (curve[i] as number) - mean;
    fft.realTransform(spectrum, input);
    for (let k = 0; k <= nfft / 2; k++) {
      const p = (spectrum[2 * k] as number) ** 2 + (spectrum[2 * k + 1] as number) ** 2;
      power[k] = p;
      if (k > 0 && k < nfft / 2) power[nfft - k] = p;
    }
    // The power spectrum is real and even, so a forward transform gives the autocorrelation.
    fft.realTransform(back, power);
    const zero = back[0] as number;
    if (!(zero > 0)) continue;
    let peak = 0;
    for (let l = 0; l <= lags; l++) {
      one[l] = ((back[2 * l] as number) / zero) * (n / (n - l));
      if (weightFrom !== undefined && l >= weightFrom) peak = Math.max(peak, one[l] as number);
    }
    const w = weightFrom === undefined ? 1 : peak * peak;
    total += w;
    for (let l = 0; l <= lags; l++) acf[l]! += w * (one[l] as number);
  }
  if (total > 0) for (let l = 0; l < acf.length; l++) acf[l]! /= total;
  return acf;
}

/** Linear interpolation into an array at a fractional index (0 outside). */
export function at(x: Float64Array, i: number): number {
  if (i < 0 || i > x.length - 1) return 0;
  const k = Math.floor(i);
  const f = i - k;
  return (x[k] as number) * (1 - f) + (k + 1 < x.length ? (x[k + 1] as number) * f : 0);
}

/** Largest value within ±`tol` (relative) of index i, so slightly drifting peaks still count. */
export function peakNear(x: Float64Array, i: number, tol: number): number {
  const w = Math.max(1, i * tol);
  let best = -Infinity;
  for (let j = Math.floor(i - w); j <= Math.ceil(i + w); j++) {
    if (j >= 0 && j < x.length) best = Math.max(best, x[j] as number);
  }
  return best === -Infinity ? 0 : best;
}

/**
 * How reliably a pulse of period `lag` (frames) sounds on consecutive beats: the mean of
 * x(t)·y(t+d)·y(t+2d) for the best d within ±`tol` (relative) of `lag`, where x is the onset curve and
 * y the same curve spread over a few frames (timing jitter). Three beats in a row must all hold
 * onsets, so a grid with an empty slot (a swing's middle triplet, the half-bar of a 3/4) scores
 * near zero although its autocorrelation can be high. Not normalised: compare values of one curve.
 */
export function continuity(x: Float64Array, y: Float64Array, lag: number, tol: number): number {
  let best = 0;
  for (let d = Math.max(1, Math.floor(lag * (1 - tol))); d <= Math.ceil(lag * (1 + tol)); d++) {
    const n = x.length - 2 * d;
    if (n <= 0) break;
    let s = 0;
    for (let t = 0; t < n; t++) s += (x[t] as number) * (y[t + d] as number) * (y[t + 2 * d] as number);
    best = Math.max(best, s / n);
  }
  return best;
}

/** Running maximum over `radius` frames on each side. */
export function spread(x: Float64Array, radius: number): Float64Array {
  const out = new Float64Array(x.length);
  for (let i = 0; i < x.length; i++) {
    let m = 0;
    for (let j = Math.max(0, i - radius); j <= Math.min(x.length - 1, i + radius); j++)
      m = Math.max(m, x[j] as number);
    out[i] = m;
  }
  return out;
}
