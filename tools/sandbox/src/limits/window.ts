// A rolling-window counter: at most maxRequests in any windowSeconds, per key. With `jitter` the
// allowance is less exact, as a real service's is: it drifts between (1 - jitter) and (1 + jitter / 2)
// times maxRequests from one window-long period to the next.
import type { WindowLimit } from '../config.ts';
import { unit } from '../world/rng.ts';

export interface WindowVerdict {
  ok: boolean;
  /** Seconds until a request would be accepted again (when !ok). */
  retryAfter: number;
}

export class RollingWindow {
  private readonly hits = new Map<string, number[]>();
  private readonly lockouts = new Map<string, number>();

  /** Records a request at `now` if the limit allows it. */
  take(key: string, limit: WindowLimit, now: number): WindowVerdict {
    const windowMs = limit.windowSeconds * 1000;
    const max = allowance(key, limit, now);
    let list = this.hits.get(key);
    if (!list) this.hits.set(key, (list = []));
    let drop = 0;
    while (drop < list.length && (list[drop] as number) <= now - windowMs) drop++;
    if (drop > 0) list.splice(0, drop);
    if (list.length >= max) {
      const oldest = list[list.length - max] as number;
      return { ok: false, retryAfter: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) };
    }
    list.push(now);
    return { ok: true, retryAfter: 0 };
  }

  /**
   * A lock-out on a key until a time (Spotify's daily quota: once spent, 13-15 h without calls). When
   * it has passed the key's count starts again. Answers the seconds left, or 0 when not locked out.
   */
  lockedFor(key: string, now: number): number {
    const until = this.lockouts.get(key);
    if (until === undefined) return 0;
    if (now < until) return Math.ceil((until - now) / 1000);
    this.lockouts.delete(key);
    this.hits.delete(key);
    return 0;
  }

  lockOut(key: string, until: number): void {
    this.lockouts.set(key, until);
  }

  count(key: string, windowSeconds: number, now: number): number {
    return (this.hits.get(key) ?? []).filter((t) => t > now - windowSeconds * 1000).length;
  }

  clear(): void {
    this.hits.clear();
    this.lockouts.clear();
  }
}

/** The number of requests allowed in the window that ends now. */
export function allowance(key: string, limit: WindowLimit, now: number): number {
  const jitter = limit.jitter ?? 0;
  if (jitter <= 0) return limit.maxRequests;
  const period = Math.floor(now / (limit.windowSeconds * 1000));
  const factor = 1 - jitter + 1.5 * jitter * unit('allowance', key, period);
  return Math.max(1, Math.round(limit.maxRequests * factor));
}
