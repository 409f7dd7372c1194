// 30-second MP3 previews synthesised at a track's tempo with its drum pattern, made on demand by a
// small pool of worker threads and kept in an in-memory cache (least recently used out) and, when the
// config names a folder, on disk across runs (keyed by everything that shapes the sound, the synthesiser's
// own source included, so a changed synthesiser never serves an old file).
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { Worker } from 'node:worker_threads';
import type { PatternName } from '../world/tempo.ts';
import type { SandboxConfig } from '../config.ts';
import type { PreviewStats } from '../context.ts';
import type { PreviewJob } from './preview.worker.ts';

export interface PreviewSpec {
  key: number;
  bpm: number;
  pattern: PatternName;
  seed: number;
}

type Pending = { resolve: (mp3: Uint8Array) => void; reject: (err: Error) => void };

/** What makes the sound besides the spec: the synthesiser's and the encoder's code. */
const SYNTH_SOURCE = createHash('sha256')
  .update(readFileSync(new URL('../audio/synth.ts', import.meta.url)))
  .update(readFileSync(new URL('../audio/mp3.ts', import.meta.url)))
  .update(readFileSync(new URL('./preview.worker.ts', import.meta.url)))
  .digest('hex');

export class PreviewCache {
  private readonly cache = new Map<number, Uint8Array>();
  private readonly inFlight = new Map<number, Promise<Uint8Array>>();
  private readonly config: () => SandboxConfig['previews'];
  private readonly workers: Array<{ worker: Worker; busy: number }> = [];
  private readonly pending = new Map<number, Pending>();
  private readonly size: number;
  private nextId = 1;

  /** Counted into: previews synthesised, and those read from the disk cache. */
  private readonly stats: PreviewStats;

  constructor(config: () => SandboxConfig['previews'], stats: PreviewStats, workers = 2) {
    this.config = config;
    this.stats = stats;
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
    const promise = (cfg.diskCacheDir ? this.fromDiskOrMade(spec, cfg.diskCacheDir) : this.made(spec)).then(
      (mp3) => {
        this.inFlight.delete(spec.key);
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

  /** The file kept from an earlier run, else a new one, written for the next (a failed write costs nothing). */
  private async fromDiskOrMade(spec: PreviewSpec, dir: string): Promise<Uint8Array> {
    const cfg = this.config();
    const sound = [spec.bpm, spec.pattern, spec.seed, cfg.seconds, cfg.sampleRate, cfg.kbps, SYNTH_SOURCE];
    const file = join(
      dir,
      `${createHash('sha256').update(JSON.stringify(sound)).digest('hex').slice(0, 32)}.mp3`,
    );
    try {
      const kept = new Uint8Array(await readFile(file));
      this.stats.fromDisk++;
      return kept;
    } catch {
      // Not made yet.
    }
    const mp3 = await this.made(spec);
    try {
      await mkdir(dir, { recursive: true });
      const tmp = `${file}.${process.pid}.${spec.key}.tmp`;
      await writeFile(tmp, mp3);
      await rename(tmp, file);
    } catch {
      // A full or read-only disk: the preview is still served.
    }
    return mp3;
  }

  /** Synthesises and encodes one preview on a worker thread. */
  private made(spec: PreviewSpec): Promise<Uint8Array> {
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
    return new Promise<Uint8Array>((resolve, reject) => {
      this.pending.set(job.id, { resolve, reject });
      slot.worker.postMessage(job);
    }).then((mp3) => {
      this.stats.generated++;
      return mp3;
    });
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.splice(0).map((w) => w.worker.terminate()));
  }
}
