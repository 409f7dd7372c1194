import { describe, expect, it } from 'vitest';
import { backoffDelay, parseErrorBody, parseRetryAfter } from './http.ts';

describe('parseRetryAfter', () => {
  const now = new Date('2026-11-22T10:00:00Z');
  it('reads delta-seconds', () => {
    expect(parseRetryAfter('7', now)).toBe(7000);
    expect(parseRetryAfter(' 50400 ', now)).toBe(50_400_000);
  });
  it('reads an HTTP date, and never goes negative', () => {
    expect(parseRetryAfter('Sun, 22 Nov 2026 10:00:30 GMT', now)).toBe(30_000);
    expect(parseRetryAfter('Sun, 22 Nov 2026 09:00:00 GMT', now)).toBe(0);
  });
  it('gives null when absent or unreadable', () => {
    expect(parseRetryAfter(null, now)).toBeNull();
    expect(parseRetryAfter('soon', now)).toBeNull();
  });
});

describe('parseErrorBody', () => {
  it('reads API errors with a reason', () => {
    expect(
      parseErrorBody('{"error":{"status":429,"message":"Too many requests","reason":"QUOTA_EXCEEDED"}}'),
    ).toEqual({ message: 'Too many requests', reason: 'QUOTA_EXCEEDED' });
  });
  it('reads auth errors', () => {
    expect(parseErrorBody('{"error":"invalid_grant","error_description":"Refresh token revoked"}')).toEqual({
      message: 'Refresh token revoked',
      reason: 'invalid_grant',
    });
  });
  it('survives non-JSON bodies', () => {
    expect(parseErrorBody('<html>Bad gateway</html>')).toEqual({
      message: '<html>Bad gateway</html>',
      reason: undefined,
    });
  });
});

describe('backoffDelay', () => {
  const opts = { baseMs: 500, capMs: 8000 };
  it('doubles per attempt within [ceiling/2, ceiling], and is capped', () => {
    expect(backoffDelay(1, { ...opts, random: () => 0 })).toBe(250);
    expect(backoffDelay(1, { ...opts, random: () => 1 })).toBe(500);
    expect(backoffDelay(3, { ...opts, random: () => 1 })).toBe(2000);
    expect(backoffDelay(10, { ...opts, random: () => 1 })).toBe(8000);
    expect(backoffDelay(10, { ...opts, random: () => 0 })).toBe(4000);
  });
  it('spreads retries (jitter)', () => {
    const seen = new Set([0.1, 0.5, 0.9].map((r) => backoffDelay(2, { ...opts, random: () => r })));
    expect(seen.size).toBe(3);
  });
});
