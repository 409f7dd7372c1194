import { describe, expect, it } from 'vitest';
import { formatLocalTime, readerKey } from './format-time.ts';

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

  it('writes the time in the reader’s locale when the request names one (issue 23: one style on screen)', () => {
    const at = new Date('2026-11-23T13:05:00Z');
    expect(formatLocalTime(at, readerKey('Europe/Paris', 'en-US,en;q=0.9'))).toBe('Nov 23, 2026, 02:05 PM');
    expect(formatLocalTime(at, readerKey('Europe/Paris', 'de-DE'))).toBe('23. Nov. 2026, 14:05');
    expect(formatLocalTime(at, readerKey(null, 'en-US'))).toBe('Nov 23, 2026, 01:05 PM UTC');
    // No usable locale: as before.
    for (const header of [undefined, '', '*', 'not a tag!!', 'x'.repeat(300)])
      expect(formatLocalTime(at, readerKey('Europe/Paris', header))).toBe('23 Nov 2026, 14:05');
  });
});
