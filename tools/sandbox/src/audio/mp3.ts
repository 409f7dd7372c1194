// MP3 encode (lamejs, pure JS) and decode (mpg123 compiled to WebAssembly) for mono PCM clips.
import { Mp3Encoder } from '@breezystack/lamejs';
import { MPEGDecoder } from 'mpg123-decoder';

const BLOCK = 1152 * 8;

/** Encode mono PCM in [-1, 1] as a constant-bit-rate MP3. */
export function encodeMp3(pcm: Float32Array, sampleRate: number, kbps = 128): Uint8Array {
  const encoder = new Mp3Encoder(1, sampleRate, kbps);
  const chunks: Uint8Array[] = [];
  const block = new Int16Array(BLOCK);
  for (let i = 0; i < pcm.length; i += BLOCK) {
    const n = Math.min(BLOCK, pcm.length - i);
    for (let j = 0; j < n; j++) {
      const s = Math.max(-1, Math.min(1, pcm[i + j] as number));
      block[j] = Math.round(s < 0 ? s * 32768 : s * 32767);
    }
    const out = encoder.encodeBuffer(n === BLOCK ? block : block.subarray(0, n));
    if (out.length > 0) chunks.push(out.slice());
  }
  const tail = encoder.flush();
  if (tail.length > 0) chunks.push(tail.slice());
  const total = chunks.reduce((s, c) => s + c.length, 0);
  const bytes = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  return bytes;
}

/** Decode an MP3 to mono PCM (channels averaged). Throws if no audio could be decoded. */
export async function decodeMp3(bytes: Uint8Array): Promise<{ pcm: Float32Array; sampleRate: number }> {
  const decoder = new MPEGDecoder();
  await decoder.ready;
  try {
    const { channelData, samplesDecoded, sampleRate } = decoder.decode(bytes);
    if (samplesDecoded === 0 || channelData.length === 0)
      throw new Error('no MPEG audio frames could be decoded');
    const pcm = new Float32Array(samplesDecoded);
    for (const ch of channelData) {
      for (let i = 0; i < samplesDecoded; i++) pcm[i]! += (ch[i] as number) / channelData.length;
    }
    return { pcm, sampleRate };
  } finally {
    decoder.free();
  }
}
