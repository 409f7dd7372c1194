import { describe, expect, it } from 'vitest';
import { fakeFeed } from './fake-feed.test-helper.ts';
import { createLiveCache } from './live-cache.ts';

function setup(maxAgeMs = 5000) {
  const feed = fakeFeed();
  let t = 1_000_000;
  const cache = createLiveCache<{ name: string } | undefined>({ feed, maxAgeMs, now: () => t });
  let reads = 0;
  let name = 'first';
  const load = async () => {
    reads++;
    return { name };
  };
  const get = (key = 'k') => cache.get(key, load, () => ['user:u1', `session:${key}`]);
  /** A load of `k` that ends only when `release()` is called (a slow database), answering `{ name }`. */
  const slowGet = (answer: string, tags: readonly string[]) => {
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const result = cache.get(
      'k',
      async () => {
        await gate;
        return { name: answer };
      },
      () => tags,
    );
    return { result, release };
  };
  return {
    feed,
    cache,
    get,
    slowGet,
    reads: () => reads,
    rename: (n: string) => (name = n),
    advance: (ms: number) => (t += ms),
  };
}

describe('live cache', () => {
  it('serves a read again without loading until the max age, then loads again', async () => {
    const s = setup(5000);
    expect(await s.get()).toEqual({ name: 'first' });
    s.rename('second');
    s.advance(3999);
    expect(await s.get()).toEqual({ name: 'first' });
    expect(s.reads()).toBe(1);
    s.advance(1001); // read no more since: expired
    expect(await s.get()).toEqual({ name: 'second' });
    expect(s.reads()).toBe(2);
  });

  it('a key read steadily is read anew before it expires: its readers never wait for a load', async () => {
    const feed = fakeFeed();
    let t = 0;
    const cache = createLiveCache<string>({ feed, maxAgeMs: 5000, now: () => t });
    let loads = 0;
    let release: (() => void) | undefined;
    /** A load that ends only when the test says so (a slow database). */
    const load = () =>
      new Promise<string>((resolve) => {
        const n = ++loads;
        release = () => resolve(`v${n}`);
      });
    const read = () => cache.get('k', load, () => ['targets:u1']);
    const first = read();
    release!();
    expect(await first).toBe('v1');
    // A reader every 500 ms for 30 s: each is answered at once, from a value younger than 5 s.
    let waited = 0;
    let newest = 'v1';
    for (let i = 0; i < 60; i++) {
      t += 500;
      let answered: string | undefined;
      const r = read().then((v) => (answered = v));
      await Promise.resolve();
      await Promise.resolve();
      if (answered === undefined) waited++;
      release?.(); // the database answers the refresh started by this read, if any
      await r;
      expect(Number(answered!.slice(1))).toBeGreaterThanOrEqual(Number(newest.slice(1)));
      newest = answered!;
    }
    expect(waited).toBe(0);
    // One load per 4 s (from 80 % of the max age), not one per read.
    expect(loads).toBeGreaterThanOrEqual(7);
    expect(loads).toBeLessThanOrEqual(9);
  });

  it('a refresh read before a change is not kept, and the entry still expires at its max age', async () => {
    const s = setup(5000);
    await s.get();
    s.advance(4500);
    s.rename('second');
    const during = s.get(); // starts a refresh
    s.feed.notify('user:u1'); // a change while it reads: what it read may be old
    expect(await during).toEqual({ name: 'first' });
    expect(s.reads()).toBe(2);
    expect(await s.get()).toEqual({ name: 'second' }); // dropped by the change: read again
    expect(s.reads()).toBe(3);
  });

  it('drops the entries read from a row when the feed reports its change, and only those', async () => {
    const s = setup();
    await s.get('a');
    await s.cache.get(
      'b',
      async () => ({ name: 'other' }),
      () => ['user:u2'],
    );
    s.rename('renamed');
    s.feed.notify('user:u1');
    expect(await s.get('a')).toEqual({ name: 'renamed' });
    expect(s.cache.size).toBe(2);
    s.feed.notify('session:a');
    expect(s.cache.size).toBe(1);
    s.feed.notify('user:nobody');
    expect(s.cache.size).toBe(1);
  });

  it('while the feed is not live, loads every time and keeps nothing; cleared on loss', async () => {
    const s = setup();
    await s.get();
    s.feed.lose();
    expect(s.cache.size).toBe(0);
    await s.get();
    await s.get();
    expect(s.reads()).toBe(3);
    expect(s.cache.size).toBe(0);
  });

  it('does not store what a load read when a change arrived while it ran', async () => {
    const s = setup();
    const { result: slow, release } = s.slowGet('stale', ['user:u1']);
    s.feed.notify('user:u1'); // committed while the read ran: what it read may be the old row
    release();
    expect(await slow).toEqual({ name: 'stale' });
    expect(s.cache.size).toBe(0);
    expect(await s.get()).toEqual({ name: 'first' });
  });

  it('keeps what a load read when only other rows changed while it ran (a busy feed)', async () => {
    const s = setup();
    const { result: slow, release } = s.slowGet('mine', ['user:u1', 'session:k']);
    // Other runners' changes, as at 1,000 runners (tens a second): none of them touches this value.
    for (let i = 0; i < 50; i++) s.feed.notify(`user:other${i}`);
    release();
    expect(await slow).toEqual({ name: 'mine' });
    expect(s.cache.size).toBe(1);
    expect(await s.get()).toEqual({ name: 'mine' }); // served from the cache: no second read
    expect(s.reads()).toBe(0);
  });

  it('a load whose own change was forgotten among many others still keeps nothing', async () => {
    const s = setup();
    const { result: slow, release } = s.slowGet('stale', ['user:u1']);
    s.feed.notify('user:u1');
    for (let i = 0; i < 20_000; i++) s.feed.notify(`user:other${i}`); // more than the record of drops holds
    release();
    await slow;
    expect(s.cache.size).toBe(0);
  });

  it('a caller after a change does not share a load that started before it', async () => {
    const s = setup();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let loads = 0;
    const load = async () => {
      const n = ++loads;
      if (n === 1) await gate;
      return { name: `v${n}` };
    };
    const first = s.cache.get('k', load, () => ['user:u1']);
    const joined = s.cache.get('k', load, () => ['user:u1']);
    s.feed.notify('user:u1');
    const after = s.cache.get('k', load, () => ['user:u1']);
    expect(await after).toEqual({ name: 'v2' }); // read after the change
    release();
    expect(await first).toEqual({ name: 'v1' });
    expect(await joined).toEqual({ name: 'v1' });
    expect(loads).toBe(2);
    expect(await s.cache.get('k', load, () => ['user:u1'])).toEqual({ name: 'v2' }); // v1 was not kept
  });

  it('a notification drops its entries among many without touching the others', async () => {
    const s = setup();
    for (let i = 0; i < 500; i++)
      await s.cache.get(
        `k${i}`,
        async () => ({ name: `n${i}` }),
        () => [`user:u${i % 50}`],
      );
    expect(s.cache.size).toBe(500);
    s.feed.notify('user:u7');
    expect(s.cache.size).toBe(490);
    s.feed.notify('user:u7');
    expect(s.cache.size).toBe(490);
  });

  it('shares one load between concurrent callers and never stores undefined', async () => {
    const s = setup();
    await Promise.all([s.get(), s.get(), s.get()]);
    expect(s.reads()).toBe(1);
    let misses = 0;
    const none = () =>
      s.cache.get(
        'missing',
        async () => {
          misses++;
          return undefined;
        },
        () => [],
      );
    await none();
    await none();
    expect(misses).toBe(2);
  });

  it("a local drop forgets at once (this process's own writes)", async () => {
    const s = setup();
    await s.get('a');
    s.cache.drop('session:a');
    await s.get('a');
    expect(s.reads()).toBe(2);
  });
});

describe('a value that goes stale by the clock', () => {
  it('is read anew from the moment it names, within its max age', async () => {
    const feed = fakeFeed();
    let t = 1_000_000;
    let reads = 0;
    // A value that says "waiting until t + 20 s", as a source's resume time does.
    const cache = createLiveCache<{ until: number }>({
      feed,
      maxAgeMs: 120_000,
      now: () => t,
      staleAt: (v) => v.until,
    });
    const get = () =>
      cache.get(
        'k',
        async () => {
          reads++;
          return { until: t + 20_000 };
        },
        () => ['sources:u1'],
      );
    await get();
    t += 15_000;
    await get();
    expect(reads).toBe(1); // still before its moment: served
    t += 5_000;
    await get();
    expect(reads).toBe(2); // its moment came: read anew, without a notification
  });
});
