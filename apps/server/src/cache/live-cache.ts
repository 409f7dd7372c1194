// A per-process cache of small read results (a session and its user, a user's connect status) that is
// served only while the change feed is live, forgets an entry after `maxAgeMs` whatever happens, and drops
// entries at once when the feed reports a change to a row they were read from (their tags). An entry read
// again late in its life is read anew in the background while it is still served, so a key read steadily
// never makes its readers wait for the database (before, every expiry held each reader of the key for one
// load: the p99 of GET /api/spotify/targets at a steady 500 req/s was its load time, 34-44 ms).
import type { ChangeFeed } from './change-feed.ts';

export interface LiveCacheOptions {
  feed: ChangeFeed;
  /** The longest an entry is served: the worst-case delay of a change whose notification was lost. */
  maxAgeMs: number;
  /** From this age on, a read of the entry also starts reading it anew (default: 80 % of `maxAgeMs`). */
  refreshAfterMs?: number;
  maxEntries?: number;
  now?: () => number;
}

interface Entry<V> {
  value: V;
  at: number;
  tags: readonly string[];
}

export function createLiveCache<V>({
  feed,
  maxAgeMs,
  refreshAfterMs = maxAgeMs * 0.8,
  maxEntries = 10_000,
  now = Date.now,
}: LiveCacheOptions) {
  const entries = new Map<string, Entry<V>>();
  const loading = new Map<string, Promise<V>>();
  /** Bumped by every invalidation: a load that started before one must not store what it read. */
  let generation = 0;

  const drop = (tag: string) => {
    generation++;
    loading.clear();
    for (const [key, e] of entries) if (e.tags.includes(tag)) entries.delete(key);
  };
  const clear = () => {
    generation++;
    loading.clear();
    entries.clear();
  };
  feed.subscribe({ change: drop, reset: clear });

  /** Loads `key` (shared by concurrent callers) and keeps the value unless a change came meanwhile. */
  function loadInto(key: string, load: () => Promise<V>, tagsOf: (v: V) => readonly string[]): Promise<V> {
    const startedAt = now();
    const startedGen = generation;
    const p = load().then(
      (value) => {
        if (loading.get(key) === p) loading.delete(key);
        if (value !== undefined && feed.live && generation === startedGen) {
          entries.delete(key); // re-inserted last: the oldest entry is the first one evicted
          if (entries.size >= maxEntries) entries.delete(entries.keys().next().value!);
          entries.set(key, { value, at: startedAt, tags: tagsOf(value) });
        }
        return value;
      },
      (err: unknown) => {
        if (loading.get(key) === p) loading.delete(key);
        throw err;
      },
    );
    loading.set(key, p);
    return p;
  }

  return {
    /**
     * The value for `key`: from the cache when fresh and the feed is live, else `load()` (shared by
     * concurrent callers). `tagsOf` names the rows the value was read from; `undefined` is never stored.
     */
    async get(key: string, load: () => Promise<V>, tagsOf: (v: V) => readonly string[]): Promise<V> {
      if (!feed.live) return load();
      const hit = entries.get(key);
      if (hit && now() - hit.at < maxAgeMs) {
        // Late in its life: read it anew for the next readers (one load at a time), serve this one now.
        if (now() - hit.at >= refreshAfterMs && !loading.has(key))
          loadInto(key, load, tagsOf).catch(() => undefined); // a failed refresh leaves the entry to expire
        return hit.value;
      }
      if (hit) entries.delete(key);
      return loading.get(key) ?? loadInto(key, load, tagsOf);
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
