// "Refresh now" says when it runs: a rescan is a library scan, so it waits for the scans' part
// (80 %) of the runner's fair share of the day, or for Spotify's whole day when that is spent, and says which.
// On the real test PostgreSQL's call budget.
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { connectedRunner } from '../../test/connected-runner.ts';
import { testDb } from '../../test/db.ts';
import { createBudgetRepository } from '../spotify/budget.repository.ts';
import type { BudgetLimits } from '../spotify/budget.ts';
import { createSpotifyConnectService, type SpotifyConnectDeps } from '../spotify/connect.service.ts';
import { createRefreshService } from './refresh.service.ts';

const t = testDb();
afterAll(() => t.close());
const budget = createBudgetRepository(t.db);

const entry = (userKey: string) => ({
  userKey,
  endpoint: 'GET /me',
  purpose: 'test',
  priority: 'interactive' as const,
});

function services(limits: BudgetLimits, sourceResumesAt: Date | null = null) {
  const connect = createSpotifyConnectService({
    budget,
    app: async () => ({ clientId: 'x', accountsUrl: 'http://localhost', demo: true, limits }),
    log: pino({ level: 'silent' }),
  } as unknown as SpotifyConnectDeps);
  const refresh = createRefreshService({
    repo: {
      requestRescan: async () => true,
      refreshSource: async () => true,
      getSource: async () => ({ enabled: true, resumesAt: sourceResumesAt }),
    },
    histogram: { tempoCounts: async () => ({ byBpm: [], withoutTempo: 0 }) },
    wake: async () => undefined,
    workWait: (p: 'library_scan', userId: string) => connect.workWait(p, userId),
    minConfidence: 0.76,
  } as unknown as Parameters<typeof createRefreshService>[0]);
  return { connect, refresh };
}

describe('refresh now and the daily limit', () => {
  it('a runner whose share of the day is spent is told when their rescan starts; another runner’s starts now', async () => {
    const limits: BudgetLimits = { key: randomUUID(), ratePer30s: null, dailyQuota: 20 };
    const { connect, refresh } = services(limits);
    const [busy, other] = [await connectedRunner(t.db), await connectedRunner(t.db)];
    expect((await budget.reserve(limits, 'interactive', entry(other))).granted).toBe(true);
    // Two runners today: 9 calls each. The busy runner makes 8, so their scans' 80 % (7) is spent.
    const first = await budget.reserve(limits, 'interactive', entry(busy));
    for (let i = 1; i < 8; i++)
      expect((await budget.reserve(limits, 'interactive', entry(busy))).granted).toBe(true);
    expect(await connect.workWait('interactive', busy)).toBeNull();
    const scans = await connect.workWait('library_scan', busy);
    const firstAt = first.granted ? first.at.getTime() : 0;
    expect(scans?.reason).toBe('share');
    // Their 2nd-oldest call frees the 7th place when it leaves the rolling day.
    expect(scans!.until.getTime()).toBeGreaterThan(firstAt + 86_400_000);
    expect(scans!.until.getTime()).toBeLessThan(firstAt + 86_400_000 + 60_000);

    const busyAnswer = await refresh.refresh(busy, {}, { timeZone: 'UTC' });
    expect(busyAnswer.message).not.toContain('starts now');
    expect(busyAnswer.message).toContain("Your share of today's Spotify calls is used");
    expect(busyAnswer.runs_at).toBe(Math.ceil(scans!.until.getTime() / 1000));
    expect((await refresh.refresh(other, {}, { timeZone: 'UTC' })).message).toBe(
      'Queued: the rescan starts now.',
    );
  });

  it('one source whose own wait ends later than the share’s is still said to wait for the runner’s share', async () => {
    const limits: BudgetLimits = { key: randomUUID(), ratePer30s: null, dailyQuota: 20 };
    const later = new Date(Date.now() + 30 * 3600_000);
    const { connect, refresh } = services(limits, later);
    const [busy, other] = [await connectedRunner(t.db), await connectedRunner(t.db)];
    expect((await budget.reserve(limits, 'interactive', entry(other))).granted).toBe(true);
    for (let i = 0; i < 8; i++)
      expect((await budget.reserve(limits, 'interactive', entry(busy))).granted).toBe(true);
    expect((await connect.workWait('library_scan', busy))?.reason).toBe('share');
    const answer = await refresh.refresh(
      busy,
      { kind: 'liked_songs', source_id: 'liked' },
      { timeZone: 'UTC' },
    );
    expect(answer.message).toContain("Your share of today's Spotify calls is used");
    expect(answer.runs_at).toBe(Math.ceil(later.getTime() / 1000));
  });

  it('when Spotify’s whole day is spent, every runner is told when the rescan starts', async () => {
    const limits: BudgetLimits = { key: randomUUID(), ratePer30s: null, dailyQuota: 10 };
    const { refresh } = services(limits);
    // Callers that are no connected runners (each alone has a share of 9) spend the day's 10.
    for (let i = 0; i < 10; i++)
      expect((await budget.reserve(limits, 'interactive', entry(`caller-${i % 2}`))).granted).toBe(true);
    const runner = await connectedRunner(t.db);
    const answer = await refresh.refresh(runner, {}, { timeZone: 'UTC' });
    expect(answer.message).toContain("Spotify's limit on Pacebeat's calls is reached");
    expect(answer.runs_at * 1000).toBeGreaterThan(Date.now() + 23 * 3600_000);
  });
});
