// A realistic low background of transient failures (a setting, off by default) and a rate limit that
// is not an exact 180 per 30 s.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../index.ts';
import { REALISTIC_TRANSIENT_SHARE } from '../config.ts';
import { allowance } from './window.ts';

describe('background failures and an inexact rate limit', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({ size: 'tiny', seed: 8, dailyQuota: false });
  });
  afterAll(() => sb.close());

  /**
   * n calls to Deezer's track lookup (cheap, no token) with a 1.2 s client time limit: under the shortest
   * slow answer (1.5 s), so every slow answer is `gone`, and far above a plain answer even on busy cores
   * (with 0.3 s, plain answers ran out of time under a load average of 15 and the test failed). With no
   * slow answers to tell apart, `limitMs` can be far longer (1.2 s ran out under a load average of 9).
   */
  async function deezerCalls(n: number, limitMs = 1_200): Promise<string[]> {
    const out: string[] = [];
    for (let k = 0; k < n; k++) {
      const res = await fetch(`${sb.baseUrls.deezer}/track/${1_000_000 + k}`, {
        signal: AbortSignal.timeout(limitMs),
      }).catch(() => undefined);
      out.push(res ? String(res.status) : 'gone');
    }
    return out;
  }

  it('is off by default: no call fails', async () => {
    sb.admin.reset();
    sb.admin.setConfig({ deezer: { rateLimit: false } });
    expect(sb.admin.config().transientFailures).toBe(0);
    expect((await deezerCalls(300, 30_000)).filter((s) => s !== '200')).toEqual([]);
  });

  it('fails a share of calls with 5xx, resets and slow answers, the same calls each run', async () => {
    const run = async () => {
      sb.admin.reset();
      sb.admin.setConfig({ deezer: { rateLimit: false }, transientFailures: 0.04 });
      const statuses = await deezerCalls(300);
      await new Promise((r) => setTimeout(r, 100));
      return { statuses, faults: sb.admin.requests({ service: 'deezer' }).map((r) => r.fault ?? '') };
    };
    const a = await run();
    const failed = a.statuses.filter((s) => s !== '200').length;
    expect(failed).toBeGreaterThan(3);
    expect(failed).toBeLessThan(40);
    const kinds = new Set(a.faults.filter((f) => f !== '').map((f) => f.split(' ')[0]));
    expect([...kinds].sort()).toEqual(['reset', 'slow', 'status']);
    expect(sb.admin.backgroundFaults().some((f) => f.fired > 0 && f.rule.afterApply)).toBe(false);
    expect(await run()).toEqual(a);
    sb.admin.reset();
    expect(REALISTIC_TRANSIENT_SHARE).toBeGreaterThan(0);
    expect(REALISTIC_TRANSIENT_SHARE).toBeLessThanOrEqual(0.01);
  });

  it('the default rate limit allows a drifting number of calls per 30 s, not exactly 180', async () => {
    sb.admin.reset();
    const limit = sb.admin.config().rateLimit;
    expect(limit).toMatchObject({ windowSeconds: 30, maxRequests: 180 });
    const token = sb.admin.connect({ userId: 'ana.runs' }).access_token;
    const allowed: number[] = [];
    for (let period = 0; period < 5; period++) {
      sb.admin.advanceClock(31);
      let n = 0;
      for (; n < 400; n++) {
        const res = await fetch(`${sb.baseUrls.spotifyApi}/me`, {
          headers: { authorization: `Bearer ${token}` },
        });
        await res.arrayBuffer();
        if (res.status === 429) break;
      }
      allowed.push(n);
    }
    expect(new Set(allowed).size).toBeGreaterThan(1);
    for (const n of allowed) {
      expect(n).toBeGreaterThanOrEqual(144);
      expect(n).toBeLessThanOrEqual(198);
    }
    // An explicit limit without jitter stays exact.
    expect(allowance('k', { windowSeconds: 30, maxRequests: 5 }, Date.now())).toBe(5);
  });
});
