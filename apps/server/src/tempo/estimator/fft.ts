// Fourier transforms for the estimator: fft.js (radix-4; about twice as fast as the radix-2 transform this
// file held, and its real transform about three times), one instance per size, since building an
// instance's twiddle table costs as much as a few transforms. Its arrays are interleaved complex values
// (re, im, re, im, …).
import FFT from 'fft.js';

const bySize = new Map<number, FFT>();

/** The transform of `size` points (a power of two, at least 4). */
export function fftOf(size: number): FFT {
  let f = bySize.get(size);
  if (!f) {
    if (size < 4 || (size & (size - 1)) !== 0)
      throw new RangeError(`FFT size must be a power of two, at least 4: ${size}`);
    f = new FFT(size);
    bySize.set(size, f);
  }
  return f;
}
