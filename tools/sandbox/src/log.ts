// The request log and per-endpoint counters that tests and benchmarks read to count calls.
import type { Service } from './limits/faults.ts';

export interface LoggedRequest {
  seq: number;
  /** Sandbox clock, ms since the epoch. */
  at: number;
  service: Service | 'other';
  method: string;
  /** Route pattern, e.g. /spotify/api/v1/playlists/:playlist_id/items. */
  route: string;
  /** Path and query as sent. */
  url: string;
  status: number;
  clientId?: string;
  userId?: string;
  /** The fault injected into this request, if any: `status 503`, `reset`, `slow after apply`, … */
  fault?: string;
  /** The connection closed before the whole answer was sent (the client gave up, or a reset). */
  clientGone?: boolean;
  durationMs: number;
}

export interface Counter {
  count: number;
  statuses: Record<string, number>;
}

export class RequestLog {
  private entries: LoggedRequest[] = [];
  private seq = 0;
  private readonly counterMap = new Map<string, Counter>();
  private readonly limit: () => number;

  constructor(limit: () => number) {
    this.limit = limit;
  }

  record(entry: Omit<LoggedRequest, 'seq'>): void {
    const full = { ...entry, seq: ++this.seq };
    this.entries.push(full);
    const excess = this.entries.length - this.limit();
    if (excess > 0) this.entries.splice(0, excess);
    const key = `${entry.method} ${entry.route}`;
    let c = this.counterMap.get(key);
    if (!c) this.counterMap.set(key, (c = { count: 0, statuses: {} }));
    c.count++;
    c.statuses[entry.status] = (c.statuses[entry.status] ?? 0) + 1;
  }

  list(
    filter: { service?: string; since?: number; clientId?: string; userId?: string } = {},
  ): LoggedRequest[] {
    return this.entries.filter(
      (e) =>
        (!filter.service || e.service === filter.service) &&
        (filter.since === undefined || e.seq > filter.since) &&
        (!filter.clientId || e.clientId === filter.clientId) &&
        (!filter.userId || e.userId === filter.userId),
    );
  }

  /** Counters keyed by "METHOD route", e.g. "GET /spotify/api/v1/me/tracks". */
  counters(): Record<string, Counter> {
    return Object.fromEntries([...this.counterMap.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }

  /** Number of requests to a route (any method unless given), from the counters. */
  count(route: string, method?: string): number {
    let n = 0;
    for (const [key, c] of this.counterMap) {
      const [m, r] = key.split(' ') as [string, string];
      if (r === route && (!method || m === method)) n += c.count;
    }
    return n;
  }

  clear(): void {
    this.entries = [];
    this.counterMap.clear();
  }

  get lastSeq(): number {
    return this.seq;
  }
}
