import { describe, expect, it } from 'vitest';
import { formatLocalTime } from './format-time.ts';

describe('formatLocalTime', () => {
  const at = new Date('2026-11-23T13:05:00Z');
  it('formats in the user’s time zone', () => {
    expect(formatLocalTime(at, 'Europe/Paris')).toBe('23 Nov 2026, 14:05');
    expect(formatLocalTime(at, 'America/New_York')).toBe('23 Nov 2026, 08:05');
    expect(formatLocalTime(at, 'Asia/Kolkata')).toBe('23 Nov 2026, 18:35');
  });
  it('falls back to UTC, saying so, without a usable zone', () => {
    expect(formatLocalTime(at, null)).toBe('23 Nov 2026, 13:05 UTC');
    expect(formatLocalTime(at, 'Mars/Olympus_Mons')).toBe('23 Nov 2026, 13:05 UTC');
  });
});
