// 30-second MP3 previews synthesised at a track's tempo with its drum pattern, generated on demand and
// kept in a small in-memory cache.
import { synthesizeClip } from '../audio/synth.ts';
import { encodeMp3 } from '../audio/mp3.ts';
import type { PatternName } from '../world/tempo.ts';
import type { SandboxConfig } from '../config.ts';

export interface PreviewSpec {
  key: number;
  bpm: number;
  pattern: PatternName;
  seed: number;
}

export class PreviewCache {
  private readonly cache = new Map<number, Uint8Array>();
  private readonly config: () => SandboxConfig['previews'];
  generated = 0;

  constructor(config: () => SandboxConfig['previews']) {
    this.config = config;
  }

  get(spec: PreviewSpec): Uint8Array {
    const hit = this.cache.get(spec.key);
    if (hit) {
      this.cache.delete(spec.key);
      this.cache.set(spec.key, hit);
      return hit;
    }
    const cfg = this.config();
    const pcm = synthesizeClip({
      bpm: spec.bpm,
      pattern: spec.pattern,
      seconds: cfg.seconds,
      sampleRate: cfg.sampleRate,
      seed: spec.seed,
      humanizeMs: 6,
      driftPct: 1,
      noise: 0.05,
    });
    const mp3 = encodeMp3(pcm, cfg.sampleRate, cfg.kbps);
    this.generated++;
    this.cache.set(spec.key, mp3);
    while (this.cache.size > cfg.cacheSize) this.cache.delete(this.cache.keys().next().value as number);
    return mp3;
  }
}
