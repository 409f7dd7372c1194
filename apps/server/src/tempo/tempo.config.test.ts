import { describe, expect, it } from 'vitest';
import { TempoConfigSchema } from './tempo.config.ts';

describe('tempo settings', () => {
  it('defaults to the real services, no GetSongBPM key, and paces under their limits', () => {
    const c = TempoConfigSchema.parse({});
    expect(c).toMatchObject({
      DEEZER_API_URL: 'https://api.deezer.com',
      RECCOBEATS_API_URL: 'https://api.reccobeats.com/v1',
      GETSONGBPM_API_URL: 'https://api.getsong.co',
      DEEZER_RATE_PER_SECOND: 8,
      GETSONGBPM_RATE_PER_HOUR: 2800,
      TEMPO_RETRY_UNKNOWN_DAYS: 30,
    });
    expect(c.GETSONGBPM_API_KEY).toBeUndefined();
    expect(c.DEEZER_PREVIEW_HOSTS).toEqual(['dzcdn.net']);
  });

  it('reads preview hosts as a comma-separated list', () => {
    const c = TempoConfigSchema.parse({ DEEZER_PREVIEW_HOSTS: ' dzcdn.net, CDN.Example.org ,' });
    expect(c.DEEZER_PREVIEW_HOSTS).toEqual(['dzcdn.net', 'cdn.example.org']);
  });

  it('drops a trailing slash from base URLs and treats an empty key as none', () => {
    const c = TempoConfigSchema.parse({
      DEEZER_API_URL: 'http://127.0.0.1:9/deezer/',
      GETSONGBPM_API_KEY: ' ',
    });
    expect(c.DEEZER_API_URL).toBe('http://127.0.0.1:9/deezer');
    expect(c.GETSONGBPM_API_KEY).toBeUndefined();
  });

  it.each([
    ['DEEZER_API_URL', 'ftp://x'],
    ['RECCOBEATS_API_URL', 'not a url'],
    ['DEEZER_RATE_PER_SECOND', '0'],
    ['TEMPO_TIMEOUT_SECONDS', '0.5'],
    ['TEMPO_RETRY_UNKNOWN_DAYS', '0'],
    ['DEEZER_PREVIEW_HOSTS', 'http://dzcdn.net/'],
  ])('refuses %s=%s', (name, value) => {
    expect(TempoConfigSchema.safeParse({ [name]: value }).success).toBe(false);
  });
});
