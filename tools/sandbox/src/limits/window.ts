// A rolling-window counter: at most maxRequests in any windowSeconds, per key.
import type { WindowLimit } from '../config.ts';

export interface WindowVerdict {
  ok: boolean;
  /** Seconds until a request would be accepted again (when !ok). */
  retryAfter: number;
}

export class RollingWindow {
  private readonly hits = new Map<string, number[]>();

  /** Records a request at `now` if the limit allows it. */
  take(key: string, limit: WindowLimit, now: number): WindowVerdict {
    const windowMs = limit.windowSeconds * 1000;
    let list = this.hits.get(key);
    if (!list) this.hits.set(key, (list = []));
    let drop = 0;
    while (drop < list.length && (list[drop] as number) <= now - windowMs) drop++;
    if (drop > 0) list.splice(0, drop);
    if (list.length >= limit.maxRequests) {
      const oldest = list[list.length - limit.maxRequests] as number;
      return { ok: false, retryAfter: Math.max(1, Math.ceil((oldest + windowMs - now) / 1000)) };
    }
    list.push(now);
    return { ok: true, retryAfter: 0 };
  }

  count(key: string, windowSeconds: number, now: number): number {
    return (this.hits.get(key) ?? []).filter((t) => t > now - windowSeconds * 1000).length;
  }

  clear(): void {
    this.hits.clear();
  }
}
