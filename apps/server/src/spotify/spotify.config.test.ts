import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../app/config.ts';

describe('Spotify settings', () => {
  it('defaults to demo mode, Spotify URLs, and development-mode budgets', () => {
    const c = loadConfig({});
    expect(c.SPOTIFY_CLIENT_ID).toBeUndefined();
    expect(c.SPOTIFY_ACCOUNTS_URL).toBe('https://accounts.spotify.com');
    expect(c.SPOTIFY_API_URL).toBe('https://api.spotify.com/v1');
    expect(c.SPOTIFY_RATE_PER_30S).toBe(100);
    expect(c.SPOTIFY_DAILY_QUOTA).toBe(1000);
    expect(c.TOKEN_ENCRYPTION_KEY).toBeUndefined();
    expect(c.DEMO_TRANSIENT_FAILURES).toBe(0.005);
    expect(() => loadConfig({ DEMO_TRANSIENT_FAILURES: '0.5' })).toThrow(ConfigError);
  });

  it('takes "unlimited" for extended-quota apps', () => {
    const c = loadConfig({ SPOTIFY_RATE_PER_30S: 'unlimited', SPOTIFY_DAILY_QUOTA: 'unlimited' });
    expect(c.SPOTIFY_RATE_PER_30S).toBeNull();
    expect(c.SPOTIFY_DAILY_QUOTA).toBeNull();
    expect(loadConfig({ SPOTIFY_DAILY_QUOTA: '2500' }).SPOTIFY_DAILY_QUOTA).toBe(2500);
  });

  it('accepts a 32-byte key as hex or base64', () => {
    const key = randomBytes(32);
    expect(loadConfig({ TOKEN_ENCRYPTION_KEY: key.toString('hex') }).TOKEN_ENCRYPTION_KEY).toBe(
      key.toString('hex'),
    );
    expect(loadConfig({ TOKEN_ENCRYPTION_KEY: key.toString('base64') }).TOKEN_ENCRYPTION_KEY).toBeDefined();
  });

  it('lists every bad Spotify setting at once', () => {
    let error: unknown;
    try {
      loadConfig({
        SPOTIFY_CLIENT_ID: 'not a client id!',
        SPOTIFY_API_URL: 'ftp://x',
        SPOTIFY_DAILY_QUOTA: '0',
        TOKEN_ENCRYPTION_KEY: 'short',
      });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const names = (error as ConfigError).problems.map((p) => p.split(':')[0]);
    expect(names.sort()).toEqual([
      'SPOTIFY_API_URL',
      'SPOTIFY_CLIENT_ID',
      'SPOTIFY_DAILY_QUOTA',
      'TOKEN_ENCRYPTION_KEY',
    ]);
  });
});
