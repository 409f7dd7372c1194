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
}

export interface FiredFault {
  rule: FaultRule;
  index: number;
}

export class Faults {
  rules: FaultRule[] = [];
  private seen: number[] = [];
  private fired: number[] = [];
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

  /** The first rule that fires for this request, if any. */
  pick(service: Service, method: string, path: string): FiredFault | undefined {
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
