// MP3 encode (LAME compiled to WebAssembly) and decode (mpg123 compiled to WebAssembly) for mono PCM clips.
import { MPEGDecoder } from 'mpg123-decoder';
import { createMp3Encoder } from 'wasm-media-encoders';

const BLOCK = 1152 * 8;

const BITRATES = [8, 16, 24, 32, 40, 48, 64, 80, 96, 112, 128, 160, 192, 224, 256, 320] as const;
type Kbps = (typeof BITRATES)[number];
const isKbps = (n: number): n is Kbps => (BITRATES as readonly number[]).includes(n);

// One encoder per thread, configured again for each clip. LAME in WebAssembly encodes a 30 s preview in
// about 70 ms where lamejs (its pure-JS port) took 430-710 ms: the simulated CDN's previews were what
// bounded demo mode's and the browser tests' audio checks (a real CDN serves a preview for nothing).
const encoder = await createMp3Encoder();

/** Encode mono PCM in [-1, 1] as a constant-bit-rate MP3. */
export function encodeMp3(pcm: Float32Array, sampleRate: number, kbps = 128): Uint8Array {
  if (!isKbps(kbps)) throw new RangeError(`not an MP3 bit rate: ${kbps} kbps`);
  encoder.configure({ channels: 1, sampleRate, bitrate: kbps });
  const chunks: Uint8Array[] = [];
  const block = new Float32Array(BLOCK);
  for (let i = 0; i < pcm.length; i += BLOCK) {
    const n = Math.min(BLOCK, pcm.length - i);
    for (let j = 0; j < n; j++) block[j] = Math.max(-1, Math.min(1, pcm[i + j] as number));
    // The encoder's output buffer is reused by its next call: copied out.
    const out = encoder.encode([n === BLOCK ? block : block.subarray(0, n)]);
    if (out.length > 0) chunks.push(out.slice());
  }
  const tail = encoder.finalize();
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
