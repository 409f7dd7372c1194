// "Refresh now" says when it runs (issue 23): a rescan is a library scan, so it waits for the scans' share of
// Spotify's daily limit (80 %), which other work (the artist catalogs, another runner) may have spent while
// the whole quota is not. On the real test PostgreSQL's call budget.
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db.ts';
import { createBudgetRepository } from '../spotify/budget.repository.ts';
import type { BudgetLimits } from '../spotify/budget.ts';
import { createSpotifyConnectService, type SpotifyConnectDeps } from '../spotify/connect.service.ts';
import { createRefreshService } from './refresh.service.ts';

const t = testDb();
afterAll(() => t.close());
const budget = createBudgetRepository(t.db);

describe('refresh now and the daily limit', () => {
  it('says the rescan waits, and until when, once the scans’ share of the day is spent', async () => {
    const limits: BudgetLimits = { key: randomUUID(), ratePer30s: null, dailyQuota: 10 };
    const connect = createSpotifyConnectService({
      budget,
      settings: { clientId: 'x', accountsUrl: 'http://localhost', demo: true, limits },
      log: pino({ level: 'silent' }),
    } as unknown as SpotifyConnectDeps);
    // 8 of the day's 10 calls made (by anyone): the scans' 80 % is spent, the quota is not.
    const first = await budget.reserve(limits, 'interactive', {
      userKey: 'someone',
      endpoint: 'GET /me',
      purpose: 'test',
      priority: 'interactive',
    });
    expect(first.granted).toBe(true);
    for (let i = 1; i < 8; i++)
      await budget.reserve(limits, 'interactive', {
        userKey: 'someone',
        endpoint: 'GET /me',
        purpose: 'test',
        priority: 'interactive',
      });
    expect(await connect.workResumesAt()).toBeNull();
    const scans = await connect.workResumesAt('library_scan');
    const firstAt = first.granted ? first.at.getTime() : 0;
    expect(scans?.getTime()).toBe(firstAt + 86_400_000 + 1);

    const refresh = createRefreshService({
      repo: {
        requestRescan: async () => true,
        refreshSource: async () => true,
        getSource: async () => undefined,
      },
      histogram: { tempoCounts: async () => ({ byBpm: [], withoutTempo: 0 }) },
      wake: async () => undefined,
      workResumesAt: (p?: 'library_scan') => connect.workResumesAt(p),
      minConfidence: 0.76,
    } as unknown as Parameters<typeof createRefreshService>[0]);
    const answer = await refresh.refresh('u1', {}, { timeZone: 'UTC' });
    expect(answer.message).not.toContain('starts now');
    expect(answer.message).toContain("Spotify's limit on Pacebeat's calls is reached");
    expect(answer.runs_at).toBe(Math.ceil(scans!.getTime() / 1000));
  });
});
