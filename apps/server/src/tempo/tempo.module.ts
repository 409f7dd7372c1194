// Wires the tempo resolver from the settings: one paced caller and one client per outside service.
import { createDeezerClient } from './clients/deezer.client.ts';
import { createGetSongBpmClient } from './clients/getsongbpm.client.ts';
import { createServiceCaller } from './clients/outside.ts';
import { createPreviewClient } from './clients/preview.client.ts';
import { createReccoBeatsClient } from './clients/reccobeats.client.ts';
import type { TempoConfig } from './tempo.config.ts';
import { createTempoRepository } from './tempo.repository.ts';
import { createTempoService, type TempoServiceDeps } from './tempo.service.ts';

/** The Drizzle handle the repository takes (only repositories import the client itself). */
type Db = Parameters<typeof createTempoRepository>[0];

export interface TempoModuleOptions {
  estimatePreview?: TempoServiceDeps['estimatePreview'];
  fetch?: typeof fetch;
  now?: () => Date;
  sleep?: (ms: number) => Promise<void>;
  /** Counts each outside request by service (benchmarks). */
  onRequest?: (service: string) => void;
  concurrency?: number;
  /** Prefix of the shared pacing rows (tests isolate their runs with it). */
  limitScope?: string;
}

export interface TempoModuleDeps extends TempoModuleOptions {
  config: TempoConfig;
}

export function createTempoModule(db: Db, deps: TempoModuleDeps) {
  const { config, ...opts } = deps;
  const repo = createTempoRepository(db);
  const caller = (service: string, ratePerSecond: number) =>
    createServiceCaller({
      service,
      pacerKey: `${opts.limitScope ?? ''}${service}`,
      pacer: repo,
      ratePerSecond,
      timeoutMs: config.TEMPO_TIMEOUT_SECONDS * 1000,
      ...(opts.fetch ? { fetch: opts.fetch } : {}),
      ...(opts.now ? { now: opts.now } : {}),
      ...(opts.sleep ? { sleep: opts.sleep } : {}),
      ...(opts.onRequest ? { onRequest: opts.onRequest } : {}),
    });
  const key = config.GETSONGBPM_API_KEY;
  const service = createTempoService({
    repo,
    reccobeats: createReccoBeatsClient({
      baseUrl: config.RECCOBEATS_API_URL,
      http: caller('reccobeats', config.RECCOBEATS_RATE_PER_MINUTE / 60),
    }),
    deezer: createDeezerClient({
      baseUrl: config.DEEZER_API_URL,
      http: caller('deezer', config.DEEZER_RATE_PER_SECOND),
    }),
    previews: createPreviewClient({
      http: caller('deezer-preview', config.PREVIEW_RATE_PER_SECOND),
      allowedHosts: [...config.DEEZER_PREVIEW_HOSTS, new URL(config.DEEZER_API_URL).hostname.toLowerCase()],
    }),
    ...(key
      ? {
          getsongbpm: createGetSongBpmClient({
            baseUrl: config.GETSONGBPM_API_URL,
            apiKey: key,
            http: caller('getsongbpm', config.GETSONGBPM_RATE_PER_HOUR / 3600),
          }),
        }
      : {}),
    ...(opts.estimatePreview ? { estimatePreview: opts.estimatePreview } : {}),
    settings: { retryUnknownDays: config.TEMPO_RETRY_UNKNOWN_DAYS },
    ...(opts.now ? { now: opts.now } : {}),
    ...(opts.concurrency ? { concurrency: opts.concurrency } : {}),
  });
  return { repo, service };
}

export type TempoModule = ReturnType<typeof createTempoModule>;
