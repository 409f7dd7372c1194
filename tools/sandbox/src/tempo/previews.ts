// 30-second MP3 previews synthesised at a track's tempo with its drum pattern, made on demand by a
// small pool of worker threads and kept in an in-memory cache (least recently used out).
import { Worker } from 'node:worker_threads';
import type { PatternName } from '../world/tempo.ts';
import type { SandboxConfig } from '../config.ts';
import type { PreviewJob } from './preview.worker.ts';

export interface PreviewSpec {
  key: number;
  bpm: number;
  pattern: PatternName;
  seed: number;
}

type Pending = { resolve: (mp3: Uint8Array) => void; reject: (err: Error) => void };

export class PreviewCache {
  private readonly cache = new Map<number, Uint8Array>();
  private readonly inFlight = new Map<number, Promise<Uint8Array>>();
  private readonly config: () => SandboxConfig['previews'];
  private readonly workers: Array<{ worker: Worker; busy: number }> = [];
  private readonly pending = new Map<number, Pending>();
  private readonly size: number;
  private nextId = 1;
  generated = 0;

  constructor(config: () => SandboxConfig['previews'], workers = 2) {
    this.config = config;
    this.size = workers;
  }

  private worker(): { worker: Worker; busy: number } {
    if (this.workers.length < this.size && this.workers.every((w) => w.busy > 0)) {
      const worker = new Worker(new URL('./preview.worker.ts', import.meta.url));
      worker.unref();
      const slot = { worker, busy: 0 };
      worker.on('message', (msg: { id: number; mp3?: Uint8Array; error?: string }) => {
        slot.busy--;
        const p = this.pending.get(msg.id);
        this.pending.delete(msg.id);
        if (!p) return;
        if (msg.mp3) p.resolve(msg.mp3);
        else p.reject(new Error(msg.error ?? 'preview failed'));
      });
      worker.on('error', (err) => {
        for (const [id, p] of this.pending) {
          p.reject(err);
          this.pending.delete(id);
        }
      });
      this.workers.push(slot);
    }
    return this.workers.reduce((a, b) => (b.busy < a.busy ? b : a));
  }

  get(spec: PreviewSpec): Promise<Uint8Array> {
    const hit = this.cache.get(spec.key);
    if (hit) {
      this.cache.delete(spec.key);
      this.cache.set(spec.key, hit);
      return Promise.resolve(hit);
    }
    const running = this.inFlight.get(spec.key);
    if (running) return running;
    const cfg = this.config();
    const job: PreviewJob = {
      id: this.nextId++,
      bpm: spec.bpm,
      pattern: spec.pattern,
      seed: spec.seed,
      seconds: cfg.seconds,
      sampleRate: cfg.sampleRate,
      kbps: cfg.kbps,
    };
    const slot = this.worker();
    slot.busy++;
    const promise = new Promise<Uint8Array>((resolve, reject) => {
      this.pending.set(job.id, { resolve, reject });
      slot.worker.postMessage(job);
    }).then(
      (mp3) => {
        this.inFlight.delete(spec.key);
        this.generated++;
        this.cache.set(spec.key, mp3);
        while (this.cache.size > cfg.cacheSize) this.cache.delete(this.cache.keys().next().value as number);
        return mp3;
      },
      (err: unknown) => {
        this.inFlight.delete(spec.key);
        throw err;
      },
    );
    this.inFlight.set(spec.key, promise);
    return promise;
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((w) => w.worker.terminate()));
  }
}
