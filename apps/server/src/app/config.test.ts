import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, SETTING_NAMES } from './config.ts';

describe('docs/settings.md', () => {
  const doc = fs.readFileSync(
    path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../../docs/settings.md'),
    'utf8',
  );
  /** The table's rows: name and default as written (`| \`NAME\` | default | meaning |`). */
  const rows = [...doc.matchAll(/^\| `([A-Z][A-Z0-9_]*)` \| ([^|]*) \|/gm)].map((m) => ({
    name: m[1]!,
    written: m[2]!.trim(),
  }));

  it('has a row for every setting of the config schema, and none that is not one', () => {
    expect(rows.map((r) => r.name).sort()).toEqual([...SETTING_NAMES].sort());
  });

  it('gives the schema’s default wherever it writes one as a plain value', () => {
    const defaults = loadConfig({}) as unknown as Record<string, unknown>;
    const shown = (v: unknown) => (v === null ? 'unlimited' : String(v));
    const mismatches = rows
      .filter((r) => /^`[^`]*`$/.test(r.written))
      .filter(
        (r) => ['string', 'number', 'boolean'].includes(typeof defaults[r.name]) || defaults[r.name] === null,
      )
      // A path default is resolved against the working folder: the docs write it relative.
      .filter(
        (r) =>
          ![r.written.slice(1, -1), path.resolve(r.written.slice(1, -1))].includes(shown(defaults[r.name])),
      )
      .map((r) => `${r.name}: docs ${r.written}, schema ${shown(defaults[r.name])}`);
    expect(mismatches).toEqual([]);
  });
});

describe('loadConfig', () => {
  it('gives the embedded defaults when nothing is set', () => {
    const config = loadConfig({});
    expect(config.HOST).toBe('127.0.0.1');
    expect(config.PORT).toBe(8080);
    expect(config.dataDir).toBe(path.resolve('./data'));
    expect(config.DATABASE_URL).toBeUndefined();
    expect(Object.isFrozen(config)).toBe(true);
  });

  it('resolves a relative WEB_DIST_DIR against the working folder (the static files need an absolute one)', () => {
    expect(loadConfig({ WEB_DIST_DIR: 'apps/web/dist' }).WEB_DIST_DIR).toBe(path.resolve('apps/web/dist'));
  });

  it('treats an empty DATABASE_URL as unset', () => {
    expect(loadConfig({ DATABASE_URL: '' }).DATABASE_URL).toBeUndefined();
  });

  it('accepts a PostgreSQL URL', () => {
    expect(loadConfig({ DATABASE_URL: 'postgres://u:p@db:5432/x' }).DATABASE_URL).toBe(
      'postgres://u:p@db:5432/x',
    );
  });

  it('lists every bad variable at once, with its value', () => {
    let error: unknown;
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x', LOG_LEVEL: 'loud' });
    } catch (err) {
      error = err;
    }
    expect(error).toBeInstanceOf(ConfigError);
    const problems = (error as ConfigError).problems;
    expect(problems).toHaveLength(3);
    expect(problems.find((p) => p.startsWith('PORT:'))).toContain('"eighty"');
    expect(problems.find((p) => p.startsWith('DATABASE_URL:'))).toContain('postgres://');
    expect(problems.find((p) => p.startsWith('LOG_LEVEL:'))).toContain('"loud"');
    expect((error as Error).message).toMatch(/^Invalid environment variables:/);
  });

  it('rejects a port out of range and a PUBLIC_URL that is not http(s)', () => {
    expect(() => loadConfig({ PORT: '70000' })).toThrow(/PORT/);
    expect(() => loadConfig({ PUBLIC_URL: 'ftp://x.org' })).toThrow(/PUBLIC_URL/);
  });

  it('accounts: local sign-in by default, Firebase only with both its project id and web config', () => {
    const d = loadConfig({});
    expect(d.authProvider).toBe('local');
    expect(d.ADMIN_EMAILS).toEqual([]);
    expect(d.SMTP_URL).toBeUndefined();
    const fb = loadConfig({
      FIREBASE_PROJECT_ID: 'p',
      FIREBASE_WEB_CONFIG: '{"apiKey":"k","projectId":"p"}',
    });
    expect(fb.authProvider).toBe('firebase');
    expect(fb.FIREBASE_WEB_CONFIG).toEqual({ apiKey: 'k', projectId: 'p' });
    expect(() => loadConfig({ FIREBASE_PROJECT_ID: 'p' })).toThrow(/set both/);
    expect(() => loadConfig({ FIREBASE_PROJECT_ID: 'p', FIREBASE_WEB_CONFIG: '{bad' })).toThrow(
      /FIREBASE_WEB_CONFIG: must be JSON/,
    );
  });

  it('accounts: parses admin emails, SMTP URLs and session limits', () => {
    expect(loadConfig({ ADMIN_EMAILS: ' A@x.org, b@y.org ,' }).ADMIN_EMAILS).toEqual(['a@x.org', 'b@y.org']);
    expect(() => loadConfig({ ADMIN_EMAILS: 'not-an-email' })).toThrow(/ADMIN_EMAILS/);
    expect(loadConfig({ SMTP_URL: 'smtps://u:p@mail.example.org' }).SMTP_URL).toBe(
      'smtps://u:p@mail.example.org',
    );
    expect(() => loadConfig({ SMTP_URL: 'http://mail' })).toThrow(/SMTP_URL/);
    expect(() => loadConfig({ SESSION_IDLE_HOURS: '100', SESSION_ABSOLUTE_HOURS: '10' })).toThrow(
      /SESSION_IDLE_HOURS/,
    );
  });
});
