// The synthesiser uses the sandbox's one seeded generator (mulberry32 over an FNV-1a/murmur3 hash),
// under the names the audio code was written with.
export { hash32 as hashSeed, Rng as Prng } from '../world/rng.ts';
