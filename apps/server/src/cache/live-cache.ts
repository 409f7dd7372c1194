// A per-process cache of small read results (a session and its user, a user's connect status) that is
// served only while the change feed is live, forgets an entry after `maxAgeMs` whatever happens, and drops
// entries at once when the feed reports a change to a row they were read from (their tags). An entry read
// again late in its life is read anew in the background while it is still served, so a key read steadily
// never makes its readers wait for the database (before, every expiry held each reader of the key for one
// load: the p99 of GET /api/spotify/targets at a steady 500 req/s was its load time, 34-44 ms).
import type { ChangeFeed } from './change-feed.ts';

export interface LiveCacheOptions<V> {
  feed: ChangeFeed;
  /** The longest an entry is served: the worst-case delay of a change whose notification was lost. */
  maxAgeMs: number;
  /** From this age on, a read of the entry also starts reading it anew (default: 80 % of `maxAgeMs`). */
  refreshAfterMs?: number;
  maxEntries?: number;
  now?: () => number;
  /**
   * When a value goes stale by the clock alone (a "waiting until" that passes), if before its max age: the
   * entry is read anew from then on.
   */
  staleAt?: (value: V) => number | undefined;
}

/**
 * The status page's reads (targets, sources, counts): every change to what they were read from reaches them
 * by NOTIFY, so the age only bounds a lost notification. Longer than the page's poll (15 s after each
 * answer), and read anew in the background from half of it, so a poll with nothing changed asks PostgreSQL
 * nothing and no poll waits for a load. At 5 s every poll missed: at 1,000 runners (130 reads a second)
 * each read's round trips, held until serve's busy event loop took the answer, filled its pool.
 */
export const STATUS_MAX_AGE_MS = 120_000;
export const STATUS_REFRESH_AFTER_MS = 60_000;

interface Entry<V> {
  value: V;
  at: number;
  /** Served until then: `at` + the max age, or sooner when the value goes stale by the clock. */
  until: number;
  tags: readonly string[];
}

export function createLiveCache<V>({
  feed,
  maxAgeMs,
  refreshAfterMs = maxAgeMs * 0.8,
  maxEntries = 10_000,
  now = Date.now,
  staleAt,
}: LiveCacheOptions<V>) {
  const entries = new Map<string, Entry<V>>();
  /** tag → the keys of the entries read from it, so a notification finds its entries without a scan. */
  const byTag = new Map<string, Set<string>>();
  const loading = new Map<string, { promise: Promise<V>; startedGen: number }>();
  /**
   * Counts invalidations. A load keeps what it read unless one of the value's own tags was dropped after
   * it started (`dropped`): before, any drop of any tag discarded every load in flight, and at 1,000
   * runners (tens of notifications a second, loads of 20-800 ms under load) almost nothing was ever
   * stored, so every status read went to the database.
   */
  let generation = 0;
  const dropped = new Map<string, number>();
  /** Loads started before this generation keep nothing (the `dropped` record before it was forgotten). */
  let floor = 0;
  const maxDropped = Math.max(1_000, maxEntries);

  const remove = (key: string) => {
    const e = entries.get(key);
    if (!e) return;
    entries.delete(key);
    for (const tag of e.tags) {
      const keys = byTag.get(tag);
      keys?.delete(key);
      if (keys?.size === 0) byTag.delete(tag);
    }
  };
  const put = (key: string, entry: Entry<V>) => {
    remove(key); // re-inserted last: the oldest entry is the first one evicted
    if (entries.size >= maxEntries) remove(entries.keys().next().value!);
    entries.set(key, entry);
    for (const tag of entry.tags) {
      const keys = byTag.get(tag);
      if (keys) keys.add(key);
      else byTag.set(tag, new Set([key]));
    }
  };
  const drop = (tag: string) => {
    generation++;
    if (dropped.size >= maxDropped) {
      dropped.clear();
      floor = generation;
    }
    dropped.set(tag, generation);
    const keys = byTag.get(tag);
    if (keys) for (const key of [...keys]) remove(key);
  };
  const clear = () => {
    generation++;
    floor = generation;
    dropped.clear();
    loading.clear();
    entries.clear();
    byTag.clear();
  };
  feed.subscribe({ change: drop, reset: clear });

  /** True when nothing the value was read from changed since `startedGen` (so it may be kept). */
  const unchangedSince = (startedGen: number, tags: readonly string[]) =>
    startedGen >= floor && tags.every((tag) => (dropped.get(tag) ?? -1) <= startedGen);

  /** Loads `key` (shared by concurrent callers) and keeps the value unless a change came meanwhile. */
  function loadInto(key: string, load: () => Promise<V>, tagsOf: (v: V) => readonly string[]): Promise<V> {
    const startedAt = now();
    const startedGen = generation;
    const promise = load().then(
      (value) => {
        if (loading.get(key)?.promise === promise) loading.delete(key);
        if (value !== undefined && feed.live) {
          const tags = tagsOf(value);
          const until = Math.min(startedAt + maxAgeMs, staleAt?.(value) ?? Infinity);
          if (unchangedSince(startedGen, tags)) put(key, { value, at: startedAt, until, tags });
        }
        return value;
      },
      (err: unknown) => {
        if (loading.get(key)?.promise === promise) loading.delete(key);
        throw err;
      },
    );
    loading.set(key, { promise, startedGen });
    return promise;
  }

  /**
   * A load in flight that a new caller may share: only if nothing changed since it started (its tags are
   * not known before it ends, and a caller after a change must see the change).
   */
  const sharable = (key: string) => {
    const l = loading.get(key);
    return l && l.startedGen === generation ? l.promise : undefined;
  };

  return {
    /**
     * The value for `key`: from the cache when fresh and the feed is live, else `load()` (shared by
     * concurrent callers). `tagsOf` names the rows the value was read from; `undefined` is never stored.
     */
    async get(key: string, load: () => Promise<V>, tagsOf: (v: V) => readonly string[]): Promise<V> {
      if (!feed.live) return load();
      const hit = entries.get(key);
      if (hit && now() < hit.until) {
        // Late in its life: read it anew for the next readers (one load at a time), serve this one now.
        if (now() - hit.at >= refreshAfterMs && !loading.has(key))
          loadInto(key, load, tagsOf).catch(() => undefined); // a failed refresh leaves the entry to expire
        return hit.value;
      }
      if (hit) remove(key);
      return sharable(key) ?? loadInto(key, load, tagsOf);
    },
    /** Drops what was read from the row `tag` names (this process's own writes, before the feed echoes them). */
    drop,
    /**
     * For a write that must be seen everywhere at once (logout): call before the write, await after; it
     * drops the entry here and resolves when the write's NOTIFY came back (sent to every process by then).
     */
    everywhere(tag: string): { settled: () => Promise<void> } {
      const echoed = feed.echo(tag);
      return {
        settled: async () => {
          drop(tag);
          await echoed;
        },
      };
    },
    clear,
    get size() {
      return entries.size;
    },
  };
}

export type LiveCache<V> = ReturnType<typeof createLiveCache<V>>;
