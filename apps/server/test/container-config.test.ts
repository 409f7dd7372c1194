// The container files set only settings the server accepts, as Compose hands them over: the image's ENV
// (Dockerfile) under compose.yaml's environment, and compose.caddy.yaml's on top of both. And the files they
// name exist, and docs/install.md shows the compose Caddyfile as it is (docs/install.md, "In a container").
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import YAML from 'yaml';
import { ConfigError, loadConfig } from '../src/app/config.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');
const read = (file: string) => fs.readFileSync(path.join(root, file), 'utf8');

/** The ENV lines of the Dockerfile's last stage (the image that runs). */
function imageEnv(): Record<string, string> {
  const dockerfile = read('Dockerfile').replace(/\\\n/g, ' ');
  const runtime = dockerfile.slice(dockerfile.lastIndexOf('\nFROM '));
  const env: Record<string, string> = {};
  for (const [, line] of runtime.matchAll(/^ENV (.+)$/gm)) {
    for (const pair of line!.trim().split(/\s+/)) {
      const [name, ...value] = pair.split('=');
      env[name!] = value.join('=');
    }
  }
  return env;
}

/** Compose's interpolation: `${NAME}`, `${NAME:-default}` and `${NAME:?message}` (a refusal when unset). */
function interpolate(text: string, vars: Record<string, string>): string {
  return text.replace(/\$\{(\w+)(?::([-?])([^}]*))?\}/g, (_, name: string, op?: string, arg?: string) => {
    const value = vars[name];
    if (value !== undefined && value !== '') return value;
    if (op === '-') return arg ?? '';
    throw new Error(`compose refuses to start: ${name}: ${arg ?? 'unset'}`);
  });
}

interface Service {
  environment?: Record<string, string>;
  ports?: string[];
  volumes?: string[];
  image?: string;
}
// `!reset []` (compose.caddy.yaml) empties a list of the file below.
const resetTag = { tag: '!reset', collection: 'seq' as const, resolve: () => [] };
const compose = (file: string) =>
  YAML.parse(read(file), { customTags: [resetTag] }) as { services: Record<string, Service> };

/** What the server's process sees: the image's ENV, then each file's `environment` for the service. */
function containerEnv(files: string[], vars: Record<string, string>): NodeJS.ProcessEnv {
  const env: Record<string, string> = imageEnv();
  for (const file of files) {
    for (const [name, value] of Object.entries(compose(file).services.pacebeat?.environment ?? {})) {
      env[name] = interpolate(String(value), vars);
    }
  }
  return env;
}

const dotEnv = { POSTGRES_PASSWORD: 'a1b2c3d4e5f6', DOMAIN: 'pace.example.org' };

describe('the container files set settings the server accepts', () => {
  it('the image alone refuses to start without PUBLIC_URL, and says which setting', () => {
    expect(imageEnv()).toMatchObject({ HOST: '0.0.0.0', PORT: '8080', DATA_DIR: '/data' });
    expect(() => loadConfig(imageEnv())).toThrow(ConfigError);
    expect(() => loadConfig(imageEnv())).toThrow(/PUBLIC_URL/);
    expect(loadConfig({ ...imageEnv(), PUBLIC_URL: 'http://127.0.0.1:8080' }).PORT).toBe(8080);
  });

  it('compose.yaml: the compose database, at http://127.0.0.1:8080', () => {
    const config = loadConfig(containerEnv(['compose.yaml'], dotEnv));
    expect(config.DATABASE_URL).toBe('postgres://pacebeat:a1b2c3d4e5f6@db:5432/pacebeat');
    expect(config.PUBLIC_URL).toBe('http://127.0.0.1:8080');
    expect(config.ALLOWED_ORIGINS).toEqual(['http://localhost:8080']);
    expect(config.TRUST_PROXY).toBe(false);
    expect(config.dataDir).toBe('/data');
    expect(compose('compose.yaml').services.pacebeat!.ports).toEqual(['127.0.0.1:8080:8080']);
    // Without a password in .env, Compose refuses to start (rather than a database without one).
    expect(() => containerEnv(['compose.yaml'], {})).toThrow(/POSTGRES_PASSWORD/);
  });

  it('compose.caddy.yaml on top: https on the domain, one trusted proxy hop, no port on the host', () => {
    const config = loadConfig(containerEnv(['compose.yaml', 'compose.caddy.yaml'], dotEnv));
    expect(config.PUBLIC_URL).toBe('https://pace.example.org');
    expect(config.ALLOWED_ORIGINS).toEqual([]);
    // The nearest address (Caddy's) is believed about the client; the one before it is the client.
    const trust = config.TRUST_PROXY as (address: string, hop: number) => boolean;
    expect(trust('172.18.0.3', 0)).toBe(true);
    expect(trust('203.0.113.7', 1)).toBe(false);
    expect(compose('compose.caddy.yaml').services.pacebeat!.ports).toEqual([]);
    expect(() => containerEnv(['compose.yaml', 'compose.caddy.yaml'], { POSTGRES_PASSWORD: 'x' })).toThrow(
      /DOMAIN/,
    );
  });

  it('the files the compose files mount exist, and Caddy proxies to the service and port of the image', () => {
    for (const file of ['compose.yaml', 'compose.caddy.yaml']) {
      for (const service of Object.values(compose(file).services)) {
        for (const volume of service.volumes ?? []) {
          if (volume.startsWith('./'))
            expect(fs.existsSync(path.join(root, volume.split(':')[0]!)), volume).toBe(true);
        }
      }
    }
    expect(read('Caddyfile')).toMatch(new RegExp(`reverse_proxy pacebeat:${imageEnv().PORT}\\n`));
    expect(read('Dockerfile')).toMatch(/^HEALTHCHECK .*\n.*\/readyz/m);
  });

  it('docs/install.md shows the compose Caddyfile as it is', () => {
    const blocks = [...read('docs/install.md').matchAll(/```caddyfile\n([\s\S]*?)```/g)].map((m) => m[1]);
    expect(blocks).toContain(read('Caddyfile'));
  });
});
