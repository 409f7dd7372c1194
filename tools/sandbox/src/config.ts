// Every switch of the sandbox, with its default. startSandbox() takes a partial of these; the admin
// API (PUT /admin/config) changes them while it runs.
import type { WorldSize } from './world/sizes.ts';
import type { FaultRule } from './limits/faults.ts';
import { REALISTIC_TEMPO_ERRORS, type TempoErrorConfig } from './world/tempo-errors.ts';

export interface WindowLimit {
  windowSeconds: number;
  maxRequests: number;
  /** How inexact the limit is: the allowance drifts between (1 - jitter) and (1 + jitter / 2) × maxRequests. */
  jitter?: number;
}

export interface DailyQuota extends WindowLimit {
  /** The lock-out once the quota is spent: a Retry-After drawn between these (default 13 h and 15 h). */
  minRetryAfterSeconds: number;
  /** Default: minRetryAfterSeconds × 15/13. */
  maxRetryAfterSeconds?: number;
}

export interface SandboxConfig {
  /** Extended-quota semantics (multi-get endpoints, old shapes, audio-features) instead of development mode. */
  extendedQuota: boolean;
  /** Registered Spotify client ids (apps). All of them belong to one developer account. */
  clientIds: string[];
  /** Exact redirect URIs per client id; a client without an entry accepts any https or loopback-IP URI. */
  redirectUris: Record<string, string[]>;
  /** Whether the app owner has Premium (development mode needs it; false makes every Web API call 403). */
  ownerHasPremium: boolean;
  /**
   * Which of Spotify's observed wordings a refused account's 403 has (spotify/messages.ts): an index,
   * or null for one per client id (from the seed). Clients must not depend on the wording.
   */
  messageVariant: number | null;
  /**
   * Answer 400 for unknown query parameters, unexpected bodies, empty JSON bodies and bodies that are
   * not sent as JSON. Off by default: real Spotify ignores and accepts all of these; tests that want to
   * catch a client's sloppy requests turn it on.
   */
  strictRequests: boolean;
  accessTokenTtlSeconds: number;
  /** Refresh tokens expire this long after the user authorised the app (Spotify: 6 months). */
  refreshTokenTtlSeconds: number;
  /** 'always': every refresh returns a new refresh token and retires the old one; 'never'; 'sometimes': half. */
  rotateRefreshTokens: 'always' | 'never' | 'sometimes';
  /** Spotify's rolling 30-second limit per app (unpublished, and not exact: see `jitter`). false = off. */
  rateLimit: WindowLimit | false;
  /** Spotify's daily quota (rolling 24 h, then a 13-15 h lock-out). false = off (default in extended quota). */
  dailyQuota: DailyQuota | false;
  /** Who shares the daily quota: 'account' (every client id belongs to one developer account) or 'client'. */
  dailyQuotaScope: 'account' | 'client';
  /**
   * Extended quota only: whether this app used audio-features before 2024-11-27 and so keeps it. An
   * extended-quota app that did not gets 403 from the audio-features endpoints (and keeps the rest).
   */
  audioFeaturesAccess: boolean;
  /** Share of tracks whose audio-features tempo (and ReccoBeats') is at double or half tempo. */
  audioFeaturesOctaveErrorShare: number;
  /** The tempo services' other errors: 3:2, another version's tempo, tempo changes, wrong entries. */
  tempoErrors: TempoErrorConfig;
  deezer: {
    /** Share of tracks Deezer has at all (by ISRC). */
    coverage: number;
    /** Share of known tracks with bpm 0 (unknown). */
    unknownBpmShare: number;
    /** Share of known bpm values at double or half tempo (doubled again for sparse and half-time tracks). */
    octaveErrorShare: number;
    /** Share of tracks whose ISRC and search matches return a live or cast version of another duration. */
    wrongVersionShare: number;
    /** Share of tracks without a preview. */
    missingPreviewShare: number;
    rateLimit: WindowLimit | false;
  };
  reccobeats: { coverage: number; rateLimit: WindowLimit | false; retryAfterSeconds: number };
  getsongbpm: {
    coverage: number;
    octaveErrorShare: number;
    apiKeys: string[];
    rateLimit: WindowLimit | false;
  };
  previews: {
    seconds: number;
    sampleRate: number;
    kbps: number;
    cacheSize: number;
    /**
     * A folder where synthesised previews are kept across runs (absent: memory only). Making one costs
     * about 0.25-0.35 s of CPU (synthesis, then MP3 encoding), two to three times what Pacebeat's
     * estimator spends on it; a real CDN serves it for nothing. Benchmarks set it so their figures are
     * Pacebeat's, not the stand-in's synthesiser.
     */
    diskCacheDir?: string;
  };
  faults: FaultRule[];
  /**
   * A background of transient failures on every service (transientFaultMix): the share of calls that
   * fail in some way. 0 = none (the default: unit tests need determinism); demo mode and the
   * benchmarks use REALISTIC_TRANSIENT_SHARE.
   */
  transientFailures: number;
  requestLogSize: number;
}

export interface SandboxOptions extends Partial<
  Omit<SandboxConfig, 'deezer' | 'reccobeats' | 'getsongbpm' | 'previews' | 'tempoErrors'>
> {
  seed?: number;
  size?: WorldSize;
  host?: string;
  /** 0 = any free port. */
  port?: number;
  deezer?: Partial<SandboxConfig['deezer']>;
  reccobeats?: Partial<SandboxConfig['reccobeats']>;
  getsongbpm?: Partial<SandboxConfig['getsongbpm']>;
  previews?: Partial<SandboxConfig['previews']>;
  tempoErrors?: TempoErrorOptions;
  /** Log requests with Fastify's logger (pino) to stdout. */
  logger?: boolean;
  /**
   * When set, the admin API answers only requests with `Authorization: Bearer <adminToken>` (401 otherwise).
   * The CLI sets a random one per start; a sandbox started in-process by a test or the product needs none
   * (its admin object is at hand).
   */
  adminToken?: string;
}

export interface TempoErrorOptions {
  tempoChangeShare?: number;
  spotify?: Partial<TempoErrorConfig['spotify']>;
  deezer?: Partial<TempoErrorConfig['deezer']>;
  getsongbpm?: Partial<TempoErrorConfig['getsongbpm']>;
}

/** `base` with the given shares changed. */
export function mergeTempoErrors(base: TempoErrorConfig, patch: TempoErrorOptions = {}): TempoErrorConfig {
  return {
    tempoChangeShare: patch.tempoChangeShare ?? base.tempoChangeShare,
    spotify: { ...base.spotify, ...patch.spotify },
    deezer: { ...base.deezer, ...patch.deezer },
    getsongbpm: { ...base.getsongbpm, ...patch.getsongbpm },
  };
}

/** A realistic low background of transient failures: 0.5 % of calls (5xx, resets, slow answers). */
export const REALISTIC_TRANSIENT_SHARE = 0.005;

export const DAY_SECONDS = 86_400;
export const DEFAULT_DAILY_QUOTA: DailyQuota = {
  windowSeconds: DAY_SECONDS,
  maxRequests: 1000,
  minRetryAfterSeconds: 13 * 3600,
  maxRetryAfterSeconds: 15 * 3600,
};

export function buildConfig(opts: SandboxOptions): SandboxConfig {
  const extendedQuota = opts.extendedQuota ?? false;
  return {
    extendedQuota,
    clientIds: opts.clientIds ?? ['pacebeat-demo'],
    redirectUris: opts.redirectUris ?? {},
    ownerHasPremium: opts.ownerHasPremium ?? true,
    messageVariant: opts.messageVariant ?? null,
    strictRequests: opts.strictRequests ?? false,
    accessTokenTtlSeconds: opts.accessTokenTtlSeconds ?? 3600,
    refreshTokenTtlSeconds: opts.refreshTokenTtlSeconds ?? 182 * DAY_SECONDS,
    rotateRefreshTokens: opts.rotateRefreshTokens ?? 'always',
    rateLimit: opts.rateLimit ?? { windowSeconds: 30, maxRequests: 180, jitter: 0.2 },
    dailyQuota: opts.dailyQuota ?? (extendedQuota ? false : DEFAULT_DAILY_QUOTA),
    dailyQuotaScope: opts.dailyQuotaScope ?? 'account',
    audioFeaturesAccess: opts.audioFeaturesAccess ?? true,
    audioFeaturesOctaveErrorShare: opts.audioFeaturesOctaveErrorShare ?? 0.1,
    tempoErrors: mergeTempoErrors(REALISTIC_TEMPO_ERRORS, opts.tempoErrors),
    deezer: {
      coverage: 0.95,
      unknownBpmShare: 0.3,
      octaveErrorShare: 0.08,
      wrongVersionShare: 0.03,
      missingPreviewShare: 0.02,
      rateLimit: { windowSeconds: 5, maxRequests: 50 },
      ...opts.deezer,
    },
    reccobeats: {
      coverage: 0.7,
      rateLimit: { windowSeconds: 60, maxRequests: 120 },
      retryAfterSeconds: 10,
      ...opts.reccobeats,
    },
    getsongbpm: {
      coverage: 0.5,
      octaveErrorShare: 0.1,
      apiKeys: ['sandbox-key'],
      rateLimit: { windowSeconds: 3600, maxRequests: 3000 },
      ...opts.getsongbpm,
    },
    previews: { seconds: 30, sampleRate: 22050, kbps: 96, cacheSize: 64, ...opts.previews },
    faults: opts.faults ?? [],
    transientFailures: opts.transientFailures ?? 0,
    requestLogSize: opts.requestLogSize ?? 10_000,
  };
}
