// What every route module gets: the world, the live config, the clock, and the shared state.
import type { SandboxConfig } from './config.ts';
import type { Clock } from './limits/clock.ts';
import type { FaultRule, Faults, Service } from './limits/faults.ts';
import type { RollingWindow } from './limits/window.ts';
import type { RequestLog } from './log.ts';
import type { OpenApi } from './spotify/openapi.ts';
import type { TokenStore } from './spotify/tokens.ts';
import type { World } from './world/world.ts';

export interface BaseUrls {
  spotifyAccounts: string;
  spotifyApi: string;
  deezer: string;
  reccobeats: string;
  getsongbpm: string;
  admin: string;
}

export interface Ctx {
  world: World;
  config: SandboxConfig;
  clock: Clock;
  tokens: TokenStore;
  log: RequestLog;
  faults: Faults;
  windows: RollingWindow;
  openapi: OpenApi;
  baseUrls: BaseUrls;
  /** The Spotify user "logged in" in the sandbox's browser: the consent page preselects them. */
  loginUser?: string;
  /** Previews synthesised in this run, and those read from the disk cache (config `previews.diskCacheDir`). */
  previewStats: PreviewStats;
}

export interface PreviewStats {
  generated: number;
  fromDisk: number;
}

/** Per-request notes for the request log. */
export interface RequestNotes {
  service: Service | 'other';
  clientId?: string;
  userId?: string;
  fault?: string;
  /** A fault to apply once the request was handled (see FaultRule.afterApply). */
  afterApply?: FaultRule;
  /** The status the handler answered, when a fault holds the answer back. */
  handledStatus?: number;
  /** Already in the request log. */
  logged?: boolean;
  start: number;
}

declare module 'fastify' {
  interface FastifyRequest {
    notes: RequestNotes;
  }
}
