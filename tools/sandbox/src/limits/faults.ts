// Injected faults: each rule picks requests by service, method and path, then fires on a fraction of
// them. Whether the n-th matching request fires is a pure function of the seed, the rule and n, so a
// test that sends the same requests sees the same faults.
import { unit } from '../world/rng.ts';

export type Service = 'spotify-accounts' | 'spotify-api' | 'deezer' | 'reccobeats' | 'getsongbpm' | 'admin';

export type FaultKind =
  /** Answer this HTTP status (500, 502, 503, or 429 with Retry-After) with the service's error body. */
  | 'status'
  /** Wait delayMs, then answer normally. */
  | 'slow'
  /** Destroy the connection without an answer. */
  | 'reset'
  /** Revoke the caller's Spotify grant (access and refresh tokens); the call then answers 401. */
  | 'revoke';

export interface FaultRule {
  kind: FaultKind;
  service?: Service;
  /** Matches when the method equals this (e.g. 'GET'). */
  method?: string;
  /** Matches when the request path (after the service's base path, without query) contains this string, e.g. '/me/tracks'. */
  path?: string;
  status?: number;
  delayMs?: number;
  retryAfterSeconds?: number;
  /** Share of matching requests that fail, 0..1 (default 1). */
  fraction?: number;
  /** Fire at most this many times. */
  times?: number;
  /**
   * Let the request be handled first (a write is applied), then fail the answer: `status` answers the
   * error instead of the real answer, `reset` destroys the connection, `slow` holds the answer back for
   * delayMs (a client that gives up sooner never hears that its change landed).
   */
  afterApply?: boolean;
}

/** How a fired rule is named in the request log: `status 500`, `reset`, `slow after apply`, … */
export function faultLabel(rule: FaultRule): string {
  const base = rule.kind === 'status' ? `status ${rule.status ?? 500}` : rule.kind;
  return rule.afterApply && rule.kind !== 'revoke' ? `${base} after apply` : base;
}

const WRITES: ReadonlyArray<{ method: string; path?: string }> = [
  { method: 'POST' },
  { method: 'PUT' },
  { method: 'DELETE' },
];

/**
 * A mix of transient failures like a real service's, scaled by `share` (the share of calls that fail
 * in some way, default 1 %): 5xx, resets and slow answers on every call, and on every Spotify write
 * (playlist adds, removals, creation, changes) the same three failing *after* the write was applied,
 * which is why a client must check before it repeats a write that is not idempotent.
 */
export function transientFaultMix(share = 0.01, slowMs = 12_000): FaultRule[] {
  const f = (x: number) => Math.min(1, x * share);
  const afterApply: FaultRule[] = WRITES.flatMap((w) => [
    {
      kind: 'status',
      status: 500,
      service: 'spotify-api',
      method: w.method,
      fraction: f(0.3),
      afterApply: true,
    },
    {
      kind: 'status',
      status: 502,
      service: 'spotify-api',
      method: w.method,
      fraction: f(0.2),
      afterApply: true,
    },
    { kind: 'reset', service: 'spotify-api', method: w.method, fraction: f(0.15), afterApply: true },
    {
      kind: 'slow',
      service: 'spotify-api',
      method: w.method,
      delayMs: slowMs,
      fraction: f(0.15),
      afterApply: true,
    },
  ]);
  const services = ['spotify-api', 'spotify-accounts', 'deezer', 'reccobeats', 'getsongbpm'] as const;
  const anyCall: FaultRule[] = services.flatMap((service) => [
    { kind: 'status', status: 503, service, fraction: f(0.3) },
    { kind: 'status', status: 500, service, fraction: f(0.15) },
    { kind: 'status', status: 502, service, fraction: f(0.1) },
    { kind: 'reset', service, fraction: f(0.15) },
    { kind: 'slow', service, delayMs: 1_500, fraction: f(0.2) },
    { kind: 'slow', service, delayMs: slowMs, fraction: f(0.1) },
  ]);
  return [...afterApply, ...anyCall];
}

export interface FiredFault {
  rule: FaultRule;
  index: number;
}

export class Faults {
  rules: FaultRule[] = [];
  private seen: number[] = [];
  private fired: number[] = [];
  /** The background (transientFailures), checked after the explicit rules. */
  private background: Faults | undefined;
  private readonly seed: number;

  constructor(seed: number, rules: FaultRule[]) {
    this.seed = seed;
    this.set(rules);
  }

  set(rules: FaultRule[]): void {
    this.rules = rules.map((r) => ({ ...r }));
    this.seen = rules.map(() => 0);
    this.fired = rules.map(() => 0);
  }

  /** Sets the background of transient failures (share of calls; 0 = none). */
  setBackground(share: number): void {
    this.background = share > 0 ? new Faults(this.seed + 1, transientFaultMix(share)) : undefined;
  }

  /** How often the background's rules matched and fired. */
  backgroundStats(): Array<{ rule: FaultRule; matched: number; fired: number }> {
    return this.background?.stats() ?? [];
  }

  /** The first rule that fires for this request (explicit rules first, then the background), if any. */
  pick(service: Service, method: string, path: string): FiredFault | undefined {
    return this.pickExplicit(service, method, path) ?? this.background?.pick(service, method, path);
  }

  private pickExplicit(service: Service, method: string, path: string): FiredFault | undefined {
    for (let i = 0; i < this.rules.length; i++) {
      const rule = this.rules[i] as FaultRule;
      if (rule.service && rule.service !== service) continue;
      if (rule.method && rule.method.toUpperCase() !== method) continue;
      if (rule.path && !path.includes(rule.path)) continue;
      const n = this.seen[i] as number;
      this.seen[i] = n + 1;
      if (rule.times !== undefined && (this.fired[i] as number) >= rule.times) continue;
      if (unit(this.seed, 'fault', i, n) >= (rule.fraction ?? 1)) continue;
      this.fired[i] = (this.fired[i] as number) + 1;
      return { rule, index: i };
    }
    return undefined;
  }

  stats(): Array<{ rule: FaultRule; matched: number; fired: number }> {
    return this.rules.map((rule, i) => ({
      rule,
      matched: this.seen[i] as number,
      fired: this.fired[i] as number,
    }));
  }
}
