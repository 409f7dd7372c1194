// startSandbox(): the simulated music world on one HTTP server, for tests (in-process) and the demo.
import { buildApp, BASE_PATHS } from './app.ts';
import { buildConfig, type SandboxOptions } from './config.ts';
import type { BaseUrls, Ctx, PreviewStats } from './context.ts';
import { Clock } from './limits/clock.ts';
import { Faults } from './limits/faults.ts';
import { RollingWindow } from './limits/window.ts';
import { RequestLog } from './log.ts';
import { OpenApi } from './spotify/openapi.ts';
import { TokenStore } from './spotify/tokens.ts';
import { World } from './world/world.ts';
import { createAdmin, type Admin } from './admin/admin.ts';

export type { SandboxOptions, SandboxConfig } from './config.ts';
export type { BaseUrls } from './context.ts';
export type { FaultRule } from './limits/faults.ts';
export { transientFaultMix } from './limits/faults.ts';
export {
  OCTAVE_ERRORS_ONLY,
  REALISTIC_TEMPO_ERRORS,
  reportMeter,
  type TempoErrorConfig,
} from './world/tempo-errors.ts';
export { meterOfPattern, type Meter } from './world/tempo.ts';
export type { Admin } from './admin/admin.ts';
export type { ScoreRequest, TargetScore } from './admin/scoring.ts';
export { PRODUCT_SCOPES } from './admin/admin.ts';
export { DEFAULT_DAILY_QUOTA, REALISTIC_TRANSIENT_SHARE } from './config.ts';
export { NOT_REGISTERED_MESSAGES, PREMIUM_MESSAGES } from './spotify/messages.ts';
export { World } from './world/world.ts';

export interface Sandbox {
  /** http://host:port */
  url: string;
  baseUrls: BaseUrls;
  world: World;
  admin: Admin;
  /** Previews synthesised in this run, and those read from the disk cache (config `previews.diskCacheDir`). */
  previewStats: PreviewStats;
  close(): Promise<void>;
}

export const DEFAULT_SEED = 20261122;

export async function startSandbox(opts: SandboxOptions = {}): Promise<Sandbox> {
  const config = buildConfig(opts);
  const seed = opts.seed ?? DEFAULT_SEED;
  const clock = new Clock();
  const world = new World({ seed, size: opts.size ?? 'default', now: Date.UTC(2026, 10, 1) });
  const ctx: Ctx = {
    world,
    config,
    clock,
    tokens: undefined as unknown as TokenStore,
    log: new RequestLog(() => ctx.config.requestLogSize),
    faults: new Faults(seed, config.faults),
    windows: new RollingWindow(),
    openapi: new OpenApi(),
    baseUrls: { spotifyAccounts: '', spotifyApi: '', deezer: '', reccobeats: '', getsongbpm: '', admin: '' },
    previewStats: { generated: 0, fromDisk: 0 },
  };
  ctx.tokens = new TokenStore(() => ctx.config, clock, seed);
  ctx.faults.setBackground(config.transientFailures);
  const admin = createAdmin(ctx, config);
  const app = buildApp(ctx, admin, { logger: opts.logger ?? false, adminToken: opts.adminToken });
  await app.listen({ host: opts.host ?? '127.0.0.1', port: opts.port ?? 0 });
  const addr = app.server.address();
  const port = typeof addr === 'object' && addr ? addr.port : opts.port;
  const host = opts.host && opts.host !== '0.0.0.0' ? opts.host : '127.0.0.1';
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${port}`;
  Object.assign(ctx.baseUrls, {
    spotifyAccounts: url + BASE_PATHS['spotify-accounts'],
    spotifyApi: url + BASE_PATHS['spotify-api'],
    deezer: url + BASE_PATHS.deezer,
    reccobeats: url + BASE_PATHS.reccobeats,
    getsongbpm: url + BASE_PATHS.getsongbpm,
    admin: url + BASE_PATHS.admin,
  });
  return {
    url,
    baseUrls: ctx.baseUrls,
    world,
    admin,
    previewStats: ctx.previewStats,
    close: async () => {
      await app.close();
    },
  };
}
