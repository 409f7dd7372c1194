// How busy Spotify's rate is, as the playlist writer asks (`rateInUse`: how long an add after the first 50
// waits for company): every call counts under a daily quota, else the share of the 30 s window in use.
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import type { BudgetLimits } from './budget.ts';
import { createSpotifyConnectService } from './connect.service.ts';

function service(limits: Omit<BudgetLimits, 'key'>, used: number) {
  const asked: number[] = [];
  const connect = createSpotifyConnectService({
    accounts: {} as never,
    client: {} as never,
    tokens: {} as never,
    cipher: {} as never,
    budget: {
      usedSince: async (_key: string, ms: number) => {
        asked.push(ms);
        return { used, now: new Date(), oldest: null };
      },
    } as never,
    app: async () =>
      ({
        clientId: 'app',
        accountsUrl: '',
        browserAccountsUrl: '',
        demo: false,
        limits: { key: 'app', ...limits },
      }) as never,
    log: pino({ level: 'silent' }),
  });
  return { connect, asked };
}

describe('how busy Spotify’s rate is', () => {
  it('rateInUse is 1 under a daily quota (every call counts), else the window’s share', async () => {
    expect(await service({ ratePer30s: 100, dailyQuota: 1000 }, 0).connect.rateInUse()).toBe(1);
    const extended = service({ ratePer30s: 100, dailyQuota: null }, 25);
    expect(await extended.connect.rateInUse()).toBeCloseTo(0.25);
    expect(extended.asked).toEqual([30_000]);
    expect(await service({ ratePer30s: 100, dailyQuota: null }, 250).connect.rateInUse()).toBe(1);
    expect(await service({ ratePer30s: null, dailyQuota: null }, 250).connect.rateInUse()).toBe(0);
  });
});
