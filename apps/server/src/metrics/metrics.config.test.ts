import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../app/config.ts';

const problems = (env: Record<string, string>) => {
  try {
    loadConfig(env);
    return [];
  } catch (err) {
    if (err instanceof ConfigError) return err.problems;
    throw err;
  }
};

describe('metrics settings', () => {
  it('are off by default', () => {
    expect(loadConfig({}).METRICS_LISTEN).toBeUndefined();
  });

  it('read host:port, IPv6 in brackets too', () => {
    expect(loadConfig({ METRICS_LISTEN: '127.0.0.1:9464' }).METRICS_LISTEN).toEqual({
      host: '127.0.0.1',
      port: 9464,
    });
    expect(loadConfig({ METRICS_LISTEN: '[::1]:9464' }).METRICS_LISTEN).toEqual({ host: '::1', port: 9464 });
    expect(loadConfig({ METRICS_LISTEN: 'localhost:9464' }).METRICS_LISTEN).toEqual({
      host: 'localhost',
      port: 9464,
    });
  });

  it('refuse a malformed address', () => {
    for (const bad of ['9464', 'metrics.example.org:9464', '127.0.0.1:99999', '::1:9464']) {
      expect(problems({ METRICS_LISTEN: bad })[0], bad).toMatch(/^METRICS_LISTEN: must be host:port/);
    }
  });

  it('need a token when other machines can reach the listener', () => {
    expect(problems({ METRICS_LISTEN: '0.0.0.0:9464' })).toEqual([
      'METRICS_TOKEN: required when METRICS_LISTEN (0.0.0.0) is not a loopback address',
    ]);
    expect(problems({ METRICS_LISTEN: '10.0.0.5:9464', METRICS_TOKEN: 'short' })[0]).toMatch(
      /^METRICS_TOKEN: must be at least 16/,
    );
    expect(loadConfig({ METRICS_LISTEN: '0.0.0.0:9464', METRICS_TOKEN: 'x'.repeat(32) }).METRICS_TOKEN).toBe(
      'x'.repeat(32),
    );
  });
});
