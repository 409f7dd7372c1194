// whoami's connect status with the per-process caches: what invalidates it (a linked/unlinked/disabled
// account, a cooldown), what only ages out (the day's call counts), and never one user's status for another.
import { describe, expect, it } from 'vitest';
import pino from 'pino';
import { fakeFeed } from '../cache/fake-feed.test-helper.ts';
import { createLiveCache } from '../cache/live-cache.ts';
import { createSpotifyConnectService, type SpotifyConnectDeps } from './connect.service.ts';

function setup() {
  const feed = fakeFeed();
  let t = 1_000_000;
  const now = () => t;
  const rows = new Map<string, { disabledReason: string | null }>();
  let cooldownUntil: Date | null = null;
  const reads = { accounts: 0, budget: 0 };
  const deps = {
    accounts: {
      get: async (userId: string) => {
        reads.accounts++;
        return rows.get(userId);
      },
      delete: async (userId: string) => void rows.delete(userId),
    },
    budget: {
      waitsUntil: async () => {
        reads.budget++;
        return cooldownUntil ? { until: cooldownUntil, reason: 'quota' } : null;
      },
      forgetUserInLedger: async () => undefined,
    },
    tokens: { forget: () => undefined },
    app: async () => ({
      clientId: 'c',
      accountsUrl: 'http://x',
      demo: false,
      limits: { key: 'app', dailyQuota: 1000 },
    }),
    log: pino({ level: 'silent' }),
    statusCache: {
      accounts: createLiveCache({ feed, maxAgeMs: 5000, now }),
      resumes: createLiveCache({ feed, maxAgeMs: 1000, now }),
    },
  } as unknown as SpotifyConnectDeps;
  const service = createSpotifyConnectService(deps);
  const status = async (userId: string) => {
    const s = await service.status(userId);
    return { connected: s.services['spotify']!.connected, resumes: s.services['spotify']!.work_resumes_at };
  };
  return {
    feed,
    rows,
    reads,
    service,
    status,
    advance: (ms: number) => (t += ms),
    setCooldown: (d: Date) => (cooldownUntil = d),
  };
}

describe('connect status cache', () => {
  it('reads once, then answers from the cache; a change to the account row is seen at once', async () => {
    const s = setup();
    expect(await s.status('u1')).toEqual({ connected: false, resumes: null });
    expect(await s.status('u1')).toEqual({ connected: false, resumes: null });
    // One budget read for the playlist updates' wait, one for the catalogs' (each cached).
    expect(s.reads).toEqual({ accounts: 1, budget: 2 });
    s.rows.set('u1', { disabledReason: null }); // connected in another process
    expect((await s.status('u1')).connected).toBe(false); // not yet told
    s.feed.notify('spotify:u1');
    expect((await s.status('u1')).connected).toBe(true);
  });

  it("keeps users apart: one user connected does not change another's status", async () => {
    const s = setup();
    s.rows.set('u1', { disabledReason: null });
    expect((await s.status('u1')).connected).toBe(true);
    expect((await s.status('u2')).connected).toBe(false);
    s.feed.notify('spotify:u1');
    expect(s.reads.accounts).toBe(2);
    expect((await s.status('u2')).connected).toBe(false);
    expect(s.reads.accounts).toBe(2);
  });

  it('a cooldown is seen at once by its NOTIFY; otherwise the shared pause is read at most once a second', async () => {
    const s = setup();
    await s.status('u1');
    const until = new Date(2_000_000_000_000);
    s.setCooldown(until);
    expect((await s.status('u1')).resumes).toBeNull();
    s.feed.notify('budget:app');
    expect((await s.status('u1')).resumes).toBe(until.getTime() / 1000);
    s.setCooldown(new Date(2_000_000_100_000)); // e.g. the day's quota, which sends no NOTIFY
    s.advance(1000);
    expect((await s.status('u1')).resumes).toBe(2_000_000_100);
  });

  it('a disconnect in this process is seen at once, before any NOTIFY', async () => {
    const s = setup();
    s.rows.set('u1', { disabledReason: null });
    expect((await s.status('u1')).connected).toBe(true);
    await s.service.disconnect('u1');
    expect((await s.status('u1')).connected).toBe(false);
  });
});
