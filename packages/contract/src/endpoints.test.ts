import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { describe, expect, it } from 'vitest';
import { ENDPOINT_PATHS, endpointPath, type EndpointName } from './endpoint-paths.ts';
import { endpoints, type Endpoint } from './endpoints.ts';

const entries = Object.values(endpoints) as Endpoint[];

describe('the endpoint table', () => {
  it('names each call once, with its path and method from endpoint-paths.ts', () => {
    expect(Object.keys(endpoints)).toEqual(Object.keys(ENDPOINT_PATHS));
    for (const [name, e] of Object.entries(endpoints)) {
      expect(e.name).toBe(name);
      expect({ method: e.method, path: e.path }).toEqual(ENDPOINT_PATHS[name as EndpointName]);
    }
    const routes = entries.map((e) => `${e.method} ${e.path}`);
    expect(new Set(routes).size).toBe(routes.length);
  });

  it("declares each path parameter in the entry's params schema, and no other", () => {
    for (const e of entries) {
      const inPath = [...e.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
      const params = 'params' in e ? e.params : undefined;
      const declared = params instanceof z.ZodObject ? Object.keys(params.shape) : [];
      expect(declared.sort(), e.name).toEqual(inPath.sort());
    }
  });

  it('gives a body only to POST, PUT and PATCH calls, and every path lives under /api/', () => {
    for (const e of entries) {
      if ('body' in e) expect(['POST', 'PUT', 'PATCH'], e.name).toContain(e.method);
      expect(e.path, e.name).toMatch(/^\/api\/[a-z_/:A-Z]+$/);
    }
  });
});

describe('endpointPath', () => {
  it('fills in each parameter as one encoded segment', () => {
    expect(endpointPath('whoami')).toBe('/api/whoami');
    expect(endpointPath('targets.edit', { id: 'a/b?c' })).toBe('/api/spotify/targets/a%2Fb%3Fc');
    expect(endpointPath('choices.exclude', { kind: 'track', key: 'isrc:USRC17607839' })).toBe(
      '/api/spotify/exclusions/track/isrc%3AUSRC17607839',
    );
  });

  it('refuses a missing parameter rather than send a literal `:id`', () => {
    expect(() => endpointPath('targets.remove', {})).toThrow(
      'targets.remove: no value for the path parameter :id',
    );
  });
});

describe('docs/api.md', () => {
  it('lists every call of the table, in its order, with its method and path', () => {
    const doc = fs.readFileSync(fileURLToPath(new URL('../../../docs/api.md', import.meta.url)), 'utf8');
    const listed = [...doc.matchAll(/^\| *`([^`]+)` *\| *([A-Z]+) *\| *`([^`]+)` *\|/gm)].map((m) =>
      m.slice(1, 4),
    );
    const table = Object.entries(ENDPOINT_PATHS).map(([name, e]) => [name, e.method, e.path]);
    expect(listed).toEqual(table);
  });
});
