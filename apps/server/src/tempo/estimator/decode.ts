// Decode a 30-second preview MP3 to mono PCM with mpg123 (WebAssembly). Anything that is not a
// decodable MP3 (corrupt, truncated to nothing, another format) becomes a PreviewDecodeError.
import { MPEGDecoder } from 'mpg123-decoder';

export class PreviewDecodeError extends Error {
  override readonly name = 'PreviewDecodeError';
}

/** Fewer decoded seconds than this means the bytes were not really an MP3. */
const MIN_DECODED_SECONDS = 0.25;

export async function decodePreview(bytes: Uint8Array): Promise<{ pcm: Float32Array; sampleRate: number }> {
  if (bytes.length === 0) throw new PreviewDecodeError('empty preview');
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    let decoded;
    try {
      decoded = decoder.decode(bytes);
    } catch (err) {
      throw new PreviewDecodeError(`MP3 decoder failed: ${(err as Error).message}`);
    }
    const { channelData, samplesDecoded, sampleRate } = decoded;
    if (samplesDecoded === 0 || channelData.length === 0 || !(sampleRate > 0)) {
      throw new PreviewDecodeError('no MP3 audio frames found');
    }
    if (samplesDecoded / sampleRate < MIN_DECODED_SECONDS) {
      throw new PreviewDecodeError(
        `only ${((1000 * samplesDecoded) / sampleRate).toFixed(0)} ms of audio decoded`,
      );
    }
    return { pcm: mono(channelData, samplesDecoded), sampleRate };
  } finally {
    decoder.free();
  }
}

/** The channels' mean (a mono preview is copied; a stereo one, the usual, is averaged in one pass). */
function mono(channels: Float32Array[], samples: number): Float32Array {
  const [left, right] = channels as [Float32Array, Float32Array | undefined];
  if (channels.length === 1) return left.slice(0, samples);
  const pcm = new Float32Array(samples);
  if (channels.length === 2 && right) {
    for (let i = 0; i < samples; i++) pcm[i] = ((left[i] as number) + (right[i] as number)) / 2;
    return pcm;
  }
  for (const ch of channels) for (let i = 0; i < samples; i++) pcm[i]! += (ch[i] as number) / channels.length;
  return pcm;
}
