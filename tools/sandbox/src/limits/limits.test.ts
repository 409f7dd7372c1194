// Rate limit, daily quota and injected faults, deterministic from the seed.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../index.ts';
import { http, spotifyClient } from '../test-support.ts';
import type { FaultRule } from './faults.ts';
import { DEFAULT_DAILY_QUOTA } from '../config.ts';

describe('limits and faults', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ size: 'tiny', seed: 5 });
  });
  afterAll(() => sb.close());
  beforeEach(() => sb.admin.reset());

  const client = (userId = 'ana.runs') => spotifyClient(sb, sb.admin.connect({ userId }).access_token);

  it('answers 429 with Retry-After past the rolling 30-second limit, then recovers', async () => {
    sb.admin.setConfig({ rateLimit: { windowSeconds: 30, maxRequests: 5 }, dailyQuota: false });
    const api = client();
    for (let i = 0; i < 5; i++) expect((await api('GET', '/me')).status).toBe(200);
    const limited = await api('GET', '/me');
    expect(limited.status).toBe(429);
    expect(limited.body).toEqual({ error: { status: 429, message: 'API rate limit exceeded' } });
    const retry = Number(limited.headers.get('retry-after'));
    expect(retry).toBeGreaterThanOrEqual(1);
    expect(retry).toBeLessThanOrEqual(30);
    sb.admin.advanceClock(retry);
    expect((await api('GET', '/me')).status).toBe(200);
  });

  it('answers QUOTA_EXCEEDED with a long Retry-After once the daily quota is spent, shared by all users of the account', async () => {
    sb.admin.setConfig({
      rateLimit: false,
      dailyQuota: { windowSeconds: 86_400, maxRequests: 6, minRetryAfterSeconds: 13 * 3600 },
    });
    const ana = client('ana.runs');
    const ben = client('ben.pace');
    for (let i = 0; i < 3; i++) {
      expect((await ana('GET', '/me')).status).toBe(200);
      expect((await ben('GET', '/me')).status).toBe(200);
    }
    expect(sb.admin.usage()).toEqual({ dailyQuotaUsed: 6, dailyQuotaLimit: 6 });
    const over = await ana('GET', '/me/tracks');
    expect(over.status).toBe(429);
    expect(over.body).toEqual({
      error: { status: 429, message: 'Too many requests', reason: 'QUOTA_EXCEEDED' },
    });
    expect(Number(over.headers.get('retry-after'))).toBeGreaterThanOrEqual(13 * 3600);
    sb.admin.advanceClock(86_400);
    expect((await client('ana.runs')('GET', '/me')).status).toBe(200);
  });

  it('once the daily quota is spent, locks the account out for 13-15 h (not the rest of 24 h), then counts again', async () => {
    sb.admin.setConfig({
      rateLimit: false,
      dailyQuota: { ...DEFAULT_DAILY_QUOTA, maxRequests: 5 },
      accessTokenTtlSeconds: 30 * 86_400, // the clock moves by days
    });
    const api = client();
    const waits: number[] = [];
    for (let round = 0; round < 3; round++) {
      for (let i = 0; i < 5; i++) expect((await api('GET', '/me')).status).toBe(200);
      const over = await api('GET', '/me');
      expect(over.status).toBe(429);
      const retry = Number(over.headers.get('retry-after'));
      expect(retry).toBeGreaterThanOrEqual(13 * 3600);
      expect(retry).toBeLessThanOrEqual(15 * 3600);
      waits.push(retry);
      sb.admin.advanceClock(3600);
      const still = await api('GET', '/me');
      expect(still.status).toBe(429);
      expect(Number(still.headers.get('retry-after'))).toBe(retry - 3600);
      sb.admin.advanceClock(retry - 3600);
    }
    expect(new Set(waits).size).toBeGreaterThan(1);
    expect((await api('GET', '/me')).status).toBe(200);
  });

  it('can count the daily quota per client id instead of per developer account', async () => {
    sb.admin.setConfig({
      clientIds: ['app-a', 'app-b'],
      rateLimit: false,
      dailyQuotaScope: 'client',
      dailyQuota: { windowSeconds: 86_400, maxRequests: 2, minRetryAfterSeconds: 60 },
    });
    const a = spotifyClient(sb, sb.admin.connect({ userId: 'ana.runs', clientId: 'app-a' }).access_token);
    const b = spotifyClient(sb, sb.admin.connect({ userId: 'ana.runs', clientId: 'app-b' }).access_token);
    expect([
      (await a('GET', '/me')).status,
      (await a('GET', '/me')).status,
      (await a('GET', '/me')).status,
    ]).toEqual([200, 200, 429]);
    expect((await b('GET', '/me')).status).toBe(200);
    expect(sb.admin.usage('app-b').dailyQuotaUsed).toBe(1);
  });

  it('switching to extended quota turns the daily quota off, and back on', () => {
    expect(sb.admin.setConfig({ extendedQuota: true }).dailyQuota).toBe(false);
    expect(sb.admin.setConfig({ extendedQuota: false }).dailyQuota).toMatchObject({ maxRequests: 1000 });
  });

  it('injects faults into Deezer and the accounts service in their own error shapes', async () => {
    sb.admin.setFaults([
      { kind: 'status', status: 503, service: 'deezer', times: 1 },
      { kind: 'status', status: 500, service: 'spotify-accounts', path: '/api/token', times: 1 },
    ]);
    const deezer = await http(`${sb.baseUrls.deezer}/track/1000001`);
    expect(deezer.status).toBe(503);
    expect(deezer.body).toEqual({ error: { type: 'Exception', message: 'Service unavailable', code: 503 } });
    const token = await http(`${sb.baseUrls.spotifyAccounts}/api/token`, {
      method: 'POST',
      form: { grant_type: 'refresh_token', refresh_token: 'x', client_id: 'pacebeat-demo' },
    });
    expect(token.status).toBe(500);
    expect(token.body).toEqual({ error: 'server_error', error_description: 'Server error.' });
  });

  const statuses = async (target: Sandbox, rules: FaultRule[], n: number) => {
    target.admin.setConfig({ rateLimit: false, dailyQuota: false });
    target.admin.setFaults(rules);
    const api = spotifyClient(target, target.admin.connect({ userId: 'ana.runs' }).access_token);
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await api('GET', '/me/tracks?limit=1')).status);
    return out;
  };

  it('injects 5xx on a fraction of calls to an endpoint, the same calls for the same seed', async () => {
    const rule: FaultRule = {
      kind: 'status',
      status: 503,
      service: 'spotify-api',
      path: '/me/tracks',
      fraction: 0.4,
    };
    const a = await statuses(sb, [rule], 40);
    sb.admin.reset();
    const b = await statuses(sb, [rule], 40);
    expect(a).toEqual(b);
    const failed = a.filter((s) => s === 503).length;
    expect(failed).toBeGreaterThan(5);
    expect(failed).toBeLessThan(30);
    const other = await startSandbox({ size: 'tiny', seed: 6 });
    try {
      expect(await statuses(other, [rule], 40)).not.toEqual(a);
    } finally {
      await other.close();
    }
    expect((await client()('GET', '/me')).status).toBe(200);
    const log = sb.admin.requests({ service: 'spotify-api' }).filter((r) => r.fault);
    expect(log.every((r) => r.fault === 'status 503' && r.status === 503)).toBe(true);
  });

  it('fires a rule a limited number of times, with 500, 502 and 429 bodies in Spotify\u2019s shape', async () => {
    const api = client();
    sb.admin.setFaults([
      { kind: 'status', status: 502, path: '/me/playlists', times: 1 },
      { kind: 'status', status: 429, retryAfterSeconds: 7, path: '/me/following', times: 1 },
    ]);
    const bad = await api('GET', '/me/playlists');
    expect(bad.status).toBe(502);
    expect(bad.body).toEqual({ error: { status: 502, message: 'Bad gateway.' } });
    expect((await api('GET', '/me/playlists')).status).toBe(200);
    const limited = await api('GET', '/me/following?type=artist');
    expect(limited.status).toBe(429);
    expect(limited.headers.get('retry-after')).toBe('7');
    expect(sb.admin.faults().map((f) => f.fired)).toEqual([1, 1]);
  });

  it('resets connections, slows answers and revokes tokens on request', async () => {
    const t = sb.admin.connect({ userId: 'ana.runs' });
    const api = spotifyClient(sb, t.access_token);
    sb.admin.setFaults([{ kind: 'reset', path: '/me/tracks', times: 1 }]);
    await expect(api('GET', '/me/tracks')).rejects.toThrow();
    expect((await api('GET', '/me/tracks')).status).toBe(200);
    sb.admin.setFaults([{ kind: 'slow', delayMs: 50, path: '/me', method: 'GET', times: 1 }]);
    expect((await api('GET', '/me')).status).toBe(200);
    expect(sb.admin.requests().at(-1)?.fault).toBe('slow');
    sb.admin.setFaults([{ kind: 'revoke', path: '/me', times: 1 }]);
    expect((await api('GET', '/me')).status).toBe(401);
    const refresh = await http<{ error: string }>(`${sb.baseUrls.spotifyAccounts}/api/token`, {
      method: 'POST',
      form: {
        grant_type: 'refresh_token',
        refresh_token: t.refresh_token as string,
        client_id: 'pacebeat-demo',
      },
    });
    expect(refresh.body.error).toBe('invalid_grant');
  });
});
