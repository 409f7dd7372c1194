// Onset strength: how much new energy appears in each frequency band at each moment. Downsample to
// about 11 kHz, take a short-time spectrum, compress it logarithmically and sum its positive changes
// per band (spectral flux), then remove the slowly varying part.
import { fftOf } from './fft.ts';

export const TARGET_RATE = 11025;
const WINDOW = 512;
const HOP = 64;
/** Band edges in Hz: lows (kick, bass), low mids, mids, presence, highs (snare crack, hats). */
const BAND_EDGES = [0, 150, 400, 1000, 2500, 5000, 5600];
/** Mean flux below which a band is treated as holding no onsets (music sits at 3e-3 to 1e-1). */
const MIN_BAND_MEAN = 2e-3;

export interface OnsetEnvelopes {
  /** One onset-strength curve per band that holds onsets at all, all the same length. */
  bands: Float64Array[];
  /** The bands' sum, each band scaled to mean 1 and square-root compressed. */
  sum: Float64Array;
  /** The two lowest bands' sum (kick, bass, a piano's left hand): where a bar's accents are. */
  low: Float64Array;
  /** Frames per second. */
  rate: number;
  /** RMS of the downsampled signal before normalisation. */
  rms: number;
}

/** Average blocks of `factor` samples (a crude but cheap anti-alias filter; onsets survive it). */
export function downsample(pcm: Float32Array, sampleRate: number): { x: Float64Array; rate: number } {
  const factor = Math.max(1, Math.round(sampleRate / TARGET_RATE));
  const n = Math.floor(pcm.length / factor);
  const x = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = 0;
    for (let j = 0; j < factor; j++) s += pcm[i * factor + j] as number;
    x[i] = s / factor;
  }
  return { x, rate: sampleRate / factor };
}

/** Moving average over `radius` frames on each side. */
export function movingAverage(x: Float64Array, radius: number): Float64Array {
  const out = new Float64Array(x.length);
  let sum = 0;
  let lo = 0;
  let hi = -1;
  for (let i = 0; i < x.length; i++) {
    const want = Math.min(x.length - 1, i + radius);
    while (hi < want) sum += x[++hi] as number;
    while (lo < i - radius) sum -= x[lo++] as number;
    out[i] = sum / (hi - lo + 1);
  }
  return out;
}

/**
 * Flux of the energy above the downsampled band (hats, cymbals, consonants), from the full-rate signal
 * on the same frame grid: high-pass, frame RMS, log, positive two-frame difference. No FFT needed.
 */
function highBand(
  pcm: Float32Array,
  sampleRate: number,
  factor: number,
  frames: number,
): Float64Array | null {
  if (factor < 2 || frames === 0) return null;
  const cut = TARGET_RATE / 2;
  const w = (2 * Math.PI * cut) / sampleRate;
  const cos = Math.cos(w);
  const alpha = Math.sin(w) / Math.SQRT2;
  const a0 = 1 + alpha;
  const b0 = (1 + cos) / 2 / a0;
  const b1 = -(1 + cos) / a0;
  const a1 = (-2 * cos) / a0;
  const a2 = (1 - alpha) / a0;
  // Two cascaded sections (fourth order), then prefix sums of the squared output give any frame's
  // energy in O(1).
  // The filters' state in locals, not an array: this loop runs over every sample of the preview.
  const prefix = new Float64Array(pcm.length + 1);
  let x1 = 0;
  let x2 = 0;
  let y1 = 0;
  let y2 = 0;
  let z1 = 0;
  let z2 = 0;
  let total = 0;
  let full = 0;
  for (let i = 0; i < pcm.length; i++) {
    const x = pcm[i] as number;
    full += x * x;
    const y = b0 * x + b1 * x1 + b0 * x2 - a1 * y1 - a2 * y2;
    x2 = x1;
    x1 = x;
    const z = b0 * y + b1 * y1 + b0 * y2 - a1 * z1 - a2 * z2;
    y2 = y1;
    y1 = y;
    z2 = z1;
    z1 = z;
    total += z * z;
    prefix[i + 1] = total;
  }
  const hop = HOP * factor;
  const win = WINDOW * factor;
  // Level changes 50 dB below the whole signal are not onsets.
  const floor = Math.sqrt(full / Math.max(1, pcm.length)) * 3e-3 + 1e-9;
  const level = new Float64Array(frames);
  for (let t = 0; t < frames; t++) {
    const a = Math.min(pcm.length, t * hop + win / 4);
    const b = Math.min(pcm.length, t * hop + (3 * win) / 4);
    level[t] = Math.log(
      floor + Math.sqrt(((prefix[b] as number) - (prefix[a] as number)) / Math.max(1, b - a)),
    );
  }
  const out = new Float64Array(frames);
  for (let t = 2; t < frames; t++) out[t] = Math.max(0, (level[t] as number) - (level[t - 2] as number));
  return out;
}

export function onsetEnvelopes(pcm: Float32Array, sampleRate: number): OnsetEnvelopes {
  const { x, rate } = downsample(pcm, sampleRate);
  let energy = 0;
  for (let i = 0; i < x.length; i++) energy += (x[i] as number) ** 2;
  const rms = Math.sqrt(energy / Math.max(1, x.length));
  const gain = rms > 0 ? 0.1 / rms : 0;

  const frames = Math.max(0, Math.floor((x.length - WINDOW) / HOP) + 1);
  const bins = WINDOW / 2;
  const binOf = (hz: number) => Math.min(bins, Math.round((hz * WINDOW) / rate));
  const edges = BAND_EDGES.map(binOf);
  const nb = edges.length - 1;
  const bands: Float64Array[] = Array.from({ length: nb }, () => new Float64Array(frames));
  const hann = new Float64Array(WINDOW);
  for (let i = 0; i < WINDOW; i++) hann[i] = 0.5 - 0.5 * Math.cos((2 * Math.PI * i) / WINDOW);

  const fft = fftOf(WINDOW);
  // Interleaved complex input and output of the transform.
  const data = new Float64Array(2 * WINDOW);
  const z = new Float64Array(2 * WINDOW);
  // Log spectra of the last frames (a ring of four: two are written per transform), for a flux over a two-frame (11.6 ms) lag.
  const hist: Float64Array[] = [0, 1, 2, 3].map(() => new Float64Array(bins));
  const compress = 1000 / WINDOW;
  const spectrum = (mag2: number) => Math.log1p(compress * Math.sqrt(mag2));

  const flux = (t: number, cur: Float64Array) => {
    if (t >= 2) {
      const prev = hist[(t - 2) % 4] as Float64Array;
      for (let b = 0; b < nb; b++) {
        let s = 0;
        for (let k = Math.max(1, edges[b] as number); k < (edges[b + 1] as number); k++) {
          const d = (cur[k] as number) - (prev[k] as number);
          if (d > 0) s += d;
        }
        (bands[b] as Float64Array)[t] = s / ((edges[b + 1] as number) - Math.max(1, edges[b] as number));
      }
    }
  };

  // Two real frames per complex transform: frame t in the real part, t + 1 in the imaginary part.
  for (let t = 0; t < frames; t += 2) {
    const a = t * HOP;
    const hasB = t + 1 < frames;
    for (let i = 0; i < WINDOW; i++) {
      data[2 * i] = (x[a + i] as number) * (hann[i] as number) * gain;
      data[2 * i + 1] = hasB ? (x[a + HOP + i] as number) * (hann[i] as number) * gain : 0;
    }
    fft.transform(z, data);
    const specA = hist[t % 4] as Float64Array;
    const specB = hist[(t + 1) % 4] as Float64Array;
    for (let k = 0; k < bins; k++) {
      const j = (WINDOW - k) % WINDOW;
      const zr = z[2 * k] as number;
      const zi = z[2 * k + 1] as number;
      const cr = z[2 * j] as number;
      const ci = -(z[2 * j + 1] as number);
      // X_a = (Z[k] + conj Z[N-k]) / 2, X_b = (Z[k] - conj Z[N-k]) / 2i
      const ar = (zr + cr) / 2;
      const ai = (zi + ci) / 2;
      const br = (zi - ci) / 2;
      const bi = -(zr - cr) / 2;
      specA[k] = spectrum(ar * ar + ai * ai);
      specB[k] = spectrum(br * br + bi * bi);
    }
    flux(t, specA);
    if (hasB) flux(t + 1, specB);
  }

  const hf = highBand(pcm, sampleRate, Math.round(sampleRate / rate), frames);
  if (hf) bands.push(hf);

  const frameRate = rate / HOP;
  // Keep only what rises above the local level (a 0.3 s neighbourhood).
  const radius = Math.round(0.15 * frameRate);
  for (const env of bands) {
    const avg = movingAverage(env, radius);
    for (let i = 0; i < env.length; i++) env[i] = Math.max(0, (env[i] as number) - (avg[i] as number));
  }
  // Each band scaled to mean 1 before summing: peaky bands (drums) then stand out, steady ones (hiss) don't.
  const sum = new Float64Array(frames);
  const active: Float64Array[] = [];
  for (const env of bands) {
    let mean = 0;
    for (let i = 0; i < frames; i++) mean += env[i] as number;
    mean /= Math.max(1, frames);
    // The square root keeps a few loud drum hits from drowning the steady hats in the periodicity.
    // A floor on the mean keeps a band with no real onsets (a steady tone's leakage) from being blown up.
    const scale = Math.max(mean, MIN_BAND_MEAN);
    if (mean >= MIN_BAND_MEAN) active.push(env);
    for (let i = 0; i < frames; i++) sum[i]! += Math.sqrt((env[i] as number) / scale);
  }
  const low = new Float64Array(frames);
  for (const env of bands.slice(0, 2)) for (let i = 0; i < frames; i++) low[i]! += env[i] as number;
  return { bands: active, sum, low, rate: frameRate, rms };
}
