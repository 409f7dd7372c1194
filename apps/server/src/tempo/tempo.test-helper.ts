// Test harness for the tempo resolver: the simulated world in-process, the real test PostgreSQL, and a
// tempo module on it with its own pacing rows. Only tests import this file.
import { randomUUID } from 'node:crypto';
import { expect } from 'vitest';
import { startSandbox, type Sandbox, type SandboxOptions } from '@pacebeat/sandbox';
import { testDb } from '../../test/db.ts';
import estimateFromMp3 from './estimator/estimator.worker.ts';
import { TempoConfigSchema } from './tempo.config.ts';
import { createTempoModule, type TempoModuleOptions } from './tempo.module.ts';
import type { TrackInput } from './tempo.service.ts';

/** The estimator pool's own task (decode + estimate), run on the test thread. */
export const estimateInline = (mp3: Uint8Array) => estimateFromMp3(mp3);

let nextSeed = 0;
/**
 * Seeds differ per test file as well as per harness: test files run in parallel on one shared database,
 * and a world drawn with another file's seed would find that file's answers in the shared tempo cache.
 */
const fileSeedBase = () => {
  // The path from the repository's own folders: the same seeds in every clone (a CI clone's folder name
  // changed them, and with them which songs a test drew).
  const path = expect.getState().testPath ?? '';
  const file = path.slice(Math.max(0, path.lastIndexOf('/apps/')));
  let h = 0;
  for (const c of file) h = (h * 31 + c.charCodeAt(0)) % 9973;
  return 10_000 + h * 100;
};

export interface TempoHarness {
  sandbox: Sandbox;
  module: ReturnType<typeof createTempoModule>;
  requests: Map<string, number>;
  total(): number;
  /** A user's liked songs as resolver input, with each one's true tempo. */
  liked(user: string, n?: number): { tracks: TrackInput[]; truth: Map<string, number> };
  close(): Promise<void>;
}

export async function startTempoHarness(
  sandboxOptions: SandboxOptions,
  o: { settings?: Record<string, string>; module?: TempoModuleOptions } = {},
): Promise<TempoHarness> {
  // Each harness its own world seed (deterministic in test order): other recordings, so the shared
  // cache of earlier tests does not answer.
  const sandbox = await startSandbox({
    size: 'tiny',
    seed: fileSeedBase() + nextSeed++,
    rateLimit: false,
    dailyQuota: false,
    ...sandboxOptions,
  });
  const db = testDb();
  const requests = new Map<string, number>();
  const config = TempoConfigSchema.parse({
    DEEZER_API_URL: sandbox.baseUrls.deezer,
    RECCOBEATS_API_URL: sandbox.baseUrls.reccobeats,
    GETSONGBPM_API_URL: sandbox.baseUrls.getsongbpm,
    DEEZER_RATE_PER_SECOND: '200',
    PREVIEW_RATE_PER_SECOND: '200',
    RECCOBEATS_RATE_PER_MINUTE: '6000',
    // The simulated Deezer synthesises each preview on the test's own thread: the longest the setting
    // allows, so that a busy or one-core machine does not time previews out (the timeout has its own test).
    TEMPO_TIMEOUT_SECONDS: '120',
    ...o.settings,
  });
  const module = createTempoModule(db.db, {
    config,
    limitScope: `${randomUUID()}:`,
    estimatePreview: estimateInline,
    onRequest: (s) => requests.set(s, (requests.get(s) ?? 0) + 1),
    ...o.module,
  });
  return {
    sandbox,
    module,
    requests,
    total: () => [...requests.values()].reduce((a, b) => a + b, 0),
    liked(user, n = Infinity) {
      const u = sandbox.world.user(user);
      if (!u) throw new Error(`no user ${user}`);
      const facts = u.liked.slice(0, n).map((l) => sandbox.world.trackFacts(l.g));
      return {
        tracks: facts.map(({ bpm: _truth, ...track }) => track),
        truth: new Map(facts.map((f) => [f.spotifyId, f.bpm])),
      };
    },
    async close() {
      await sandbox.close();
      await db.close();
    },
  };
}

/** Right for running: within 4 % of the true tempo after ×1, ×2 or ×½. */
export const rightForRunning = (bpm: number, truth: number) =>
  [1, 2, 0.5].some((f) => Math.abs(Math.log((bpm * f) / truth)) < Math.log(1.04));
