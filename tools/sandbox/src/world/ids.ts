// Spotify-style ids (22 base-62 characters) that decode back to the world's internal numbers, so any
// id the product stored can be looked up without generating the whole catalog first. A keyed Feistel
// permutation over 128 bits makes them look random; a tag half makes unknown ids fail to decode.
import { hash32 } from './rng.ts';

const B62 = '0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz';
const MASK64 = (1n << 64n) - 1n;
const ROUNDS = 4;

export const IdKind = {
  artist: 1,
  album: 2,
  track: 3,
  playlist: 4,
  user: 5,
  episode: 6,
  show: 7,
} as const;
export type IdKindName = keyof typeof IdKind;

function mix64(x: bigint): bigint {
  // splitmix64 finaliser
  x = (x ^ (x >> 30n)) * 0xbf58476d1ce4e5b9n;
  x &= MASK64;
  x = (x ^ (x >> 27n)) * 0x94d049bb133111ebn;
  x &= MASK64;
  return x ^ (x >> 31n);
}

function key64(...parts: ReadonlyArray<number | string>): bigint {
  return (BigInt(hash32(...parts, 'hi')) << 32n) | BigInt(hash32(...parts, 'lo'));
}

export function toBase62(value: bigint, width: number): string {
  let out = '';
  let v = value;
  while (v > 0n) {
    out = B62[Number(v % 62n)] + out;
    v /= 62n;
  }
  return out.padStart(width, '0');
}

export function fromBase62(text: string): bigint | undefined {
  let v = 0n;
  for (const ch of text) {
    const d = B62.indexOf(ch);
    if (d < 0) return undefined;
    v = v * 62n + BigInt(d);
  }
  return v;
}

export const BASE62_ID = /^[0-9A-Za-z]{22}$/;

export class IdCodec {
  private readonly roundKeys: bigint[];
  private readonly tags: Map<number, bigint>;
  private readonly cache = new Map<number, Map<number, string>>();

  constructor(seed: number) {
    this.roundKeys = Array.from({ length: ROUNDS }, (_, r) => key64(seed, 'feistel', r));
    this.tags = new Map(Object.values(IdKind).map((k) => [k, key64(seed, 'tag', k)]));
  }

  encode(kind: IdKindName, n: number): string {
    const k = IdKind[kind];
    let perKind = this.cache.get(k);
    if (!perKind) this.cache.set(k, (perKind = new Map()));
    const hit = perKind.get(n);
    if (hit) return hit;
    let left = (BigInt(k) << 48n) | BigInt(n);
    let right = this.tags.get(k) as bigint;
    for (const rk of this.roundKeys) {
      const nextRight = left ^ mix64(right ^ rk);
      left = right;
      right = nextRight;
    }
    const id = toBase62((left << 64n) | right, 22);
    perKind.set(n, id);
    return id;
  }

  /** The number behind an id of the given kind, or undefined for an id this world never issued. */
  decode(kind: IdKindName, id: string): number | undefined {
    if (!BASE62_ID.test(id)) return undefined;
    const v = fromBase62(id);
    if (v === undefined || v >> 128n !== 0n) return undefined;
    let left = v >> 64n;
    let right = v & MASK64;
    for (let r = ROUNDS - 1; r >= 0; r--) {
      const prevRight = left;
      const prevLeft = right ^ mix64(left ^ (this.roundKeys[r] as bigint));
      left = prevLeft;
      right = prevRight;
    }
    const k = IdKind[kind];
    if (right !== this.tags.get(k) || left >> 48n !== BigInt(k)) return undefined;
    return Number(left & ((1n << 48n) - 1n));
  }
}
