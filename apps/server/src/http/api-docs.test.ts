// The OpenAPI document is generated from the routes themselves: every /api route in Fastify's route table
// must be in it with a request schema and a 2xx reply schema, so a route added without its zod schemas
// fails here. And the routes are the contract's endpoint table (packages/contract endpoints.ts), no more
// and no less, each with its entry's schemas, so a route added by hand (or a call the server stopped
// serving) fails here too. The routes come from the full app (test/full-app.ts), so new features are
// checked too.
import Fastify, { type FastifyInstance } from 'fastify';
import openapiTS, { astToString } from 'openapi-typescript';
import { serializerCompiler, validatorCompiler, type ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { endpoints, ENDPOINT_PATHS, type Endpoint, type EndpointName } from '@pacebeat/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiRoutes, buildFullApp, type FullApp } from '../../test/full-app.ts';
import { apiDocs, DOCS_PREFIX, isDocumentedRoute, OPENAPI_PATH } from './api-docs.ts';
import { endpoint, routeSchema } from './endpoint.ts';

interface Operation {
  parameters?: { in: string; name: string }[];
  requestBody?: { content: Record<string, { schema: unknown }> };
  responses: Record<string, { content?: Record<string, { schema?: unknown }> }>;
  security?: Record<string, string[]>[];
  tags?: string[];
}
interface OpenApiDoc {
  openapi: string;
  paths: Record<string, Record<string, Operation>>;
}

/** Calls that carry no request body by design; every other POST/PUT/PATCH must declare its body. */
const BODILESS = new Set([
  'POST /api/logout',
  'PUT /api/spotify/disconnect',
  'POST /api/spotify/targets/:id/remove_unfitting',
  'POST /api/spotify/runs/:id/build',
  'POST /api/spotify/runs/:id/send',
]);

/** What each /api route of the route table lacks: its declared schemas, its place in the document. */
function schemaProblems(app: FastifyInstance, doc: OpenApiDoc): string[] {
  const problems: string[] = [];
  for (const [method, url] of apiRoutes(app)) {
    if (!isDocumentedRoute(url)) continue;
    const name = `${method} ${url}`;
    const declared = app.declaredApiRoutes.find((r) => r.method === method && r.url === url);
    const op = doc.paths[url.replace(/:(\w+)/g, '{$1}')]?.[method.toLowerCase()];
    if (!declared || !op) {
      problems.push(`${name}: not in the document (hidden, or added before the docs plugin)`);
      continue;
    }
    const replies = Object.entries(op.responses).filter(
      ([code, r]) => /^2/.test(code) && r.content?.['application/json']?.schema,
    );
    if (replies.length === 0) problems.push(`${name}: no reply schema (schema.response[200])`);
    const { body, querystring, params } = declared.schema;
    if (!body && !querystring && !params) {
      problems.push(`${name}: no request schema (body, querystring or params)`);
    }
    if (['POST', 'PUT', 'PATCH'].includes(method) && !body && !BODILESS.has(name)) {
      problems.push(`${name}: no body schema`);
    }
    for (const [, p] of url.matchAll(/:(\w+)/g)) {
      if (!(params instanceof z.ZodObject && p! in params.shape)) {
        problems.push(`${name}: no params schema for :${p}`);
      }
    }
  }
  return problems;
}

/**
 * How the served /api routes differ from the endpoint table: a route that is not in it, an entry that is
 * not served, a route whose schemas are not its entry's (registered by hand rather than with `endpoint()`).
 */
function tableProblems(app: FastifyInstance): string[] {
  const problems: string[] = [];
  // Every /api route as it was added (the docs plugin's onRoute record: whole paths with their parameter
  // names, where printRoutes shows nested routes by their last part only).
  const served = app.declaredApiRoutes;
  const entries = Object.values(endpoints) as Endpoint[];
  for (const { method, url, schema: declared } of served) {
    const entry = entries.find((e) => e.method === method && e.path === url);
    if (!entry) {
      problems.push(`${method} ${url}: served, but not in the endpoint table`);
      continue;
    }
    const expected = routeSchema(entry);
    const differs: string[] = (['params', 'querystring', 'body'] as const).filter(
      (k) => declared[k] !== expected[k],
    );
    const reply = (declared.response as Record<number, unknown> | undefined)?.[200];
    if (reply !== entry.reply) differs.push('response');
    if (differs.length > 0) {
      problems.push(`${method} ${url}: ${differs.join(', ')} not the schemas of ${entry.name}`);
    }
  }
  for (const name of Object.keys(ENDPOINT_PATHS) as EndpointName[]) {
    const { method, path } = ENDPOINT_PATHS[name];
    if (!served.some((r) => r.method === method && r.url === path)) {
      problems.push(`${name} (${method} ${path}): in the endpoint table, but not served`);
    }
  }
  return problems;
}

/** An app with the docs plugin and no route yet, for the checks' own tests. */
async function docsOnlyApp() {
  const app = Fastify();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  await app.register(apiDocs);
  return { app, r: app.withTypeProvider<ZodTypeProvider>() };
}

async function documentOf(app: FastifyInstance): Promise<OpenApiDoc> {
  const res = await app.inject({ method: 'GET', url: OPENAPI_PATH, headers: { host: 'localhost' } });
  expect(res.statusCode).toBe(200);
  return res.json<OpenApiDoc>();
}

describe('the OpenAPI document of /api', () => {
  let full: FullApp;
  let doc: OpenApiDoc;
  beforeAll(async () => {
    full = await buildFullApp();
    doc = await documentOf(full.app);
  });
  afterAll(async () => {
    await full.close();
  });

  it('holds every /api route with its request and reply schemas', () => {
    const routes = apiRoutes(full.app);
    expect(routes.map(([m, u]) => `${m} ${u}`)).toEqual(
      expect.arrayContaining(['POST /api/login', 'GET /api/whoami', 'PUT /api/spotify/connect']),
    );
    expect(doc.openapi).toBe('3.1.0');
    expect(schemaProblems(full.app, doc)).toEqual([]);
    // Only /api calls: not the health checks, the web app or the documentation's own files.
    expect(Object.keys(doc.paths).every((p) => p.startsWith('/api/') && !p.startsWith(DOCS_PREFIX))).toBe(
      true,
    );
    expect(Object.keys(doc.paths)).not.toContain(OPENAPI_PATH);
  });

  it("serves the contract's endpoint table, no more and no less, each route with its entry's schemas", () => {
    expect(tableProblems(full.app)).toEqual([]);
  });

  it('says which calls need a session, and documents the error envelope on each', () => {
    const ping = doc.paths['/api/ping']!.get!;
    expect(ping.security).toEqual([{ session: [] }]);
    expect(doc.paths['/api/login']!.post!.security).toBeUndefined();
    const error = doc.paths['/api/login']!.post!.responses['default']!.content!['application/json']!
      .schema as { properties: Record<string, unknown> };
    expect(Object.keys(error.properties)).toEqual(['error', 'error_name', 'requestId']);
    const login = doc.paths['/api/login']!.post!.requestBody!.content['application/json']!.schema;
    expect(JSON.stringify(login)).toContain('"password"');
    expect(doc.paths['/api/spotify/connect']!.put!.tags).toEqual(['spotify']);
  });

  it('is a valid OpenAPI 3.1 document that a code generator reads', async () => {
    const types = astToString(await openapiTS(doc as never));
    expect(types).toContain('"/api/login"');
    expect(types).toContain('"/api/spotify/connect"');
  });

  it('is readable at /api/docs from this origin, under the strict Content-Security-Policy', async () => {
    const page = await full.app.inject({
      method: 'GET',
      url: `${DOCS_PREFIX}/`,
      headers: { host: 'localhost' },
    });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-security-policy']).toContain("script-src 'self';");
    expect(page.body).toContain('<title>Pacebeat API</title>');
    const scripts = [...page.body.matchAll(/<script src="([^"]+)"/g)].map((m) => m[1]!);
    expect(scripts.length).toBeGreaterThan(0);
    for (const src of scripts) {
      expect(src).not.toMatch(/^(https?:)?\/\//); // no CDN: files of this server
      const file = await full.app.inject({
        method: 'GET',
        url: new URL(src, `http://localhost${DOCS_PREFIX}/`).pathname,
        headers: { host: 'localhost' },
      });
      expect(file.statusCode, src).toBe(200);
      expect(file.headers['content-type']).toMatch(/javascript/);
    }
    const json = await full.app.inject({
      method: 'GET',
      url: `${DOCS_PREFIX}/json`,
      headers: { host: 'localhost' },
    });
    expect(json.json<OpenApiDoc>().paths).toEqual(doc.paths);
  });
});

describe('the schema check', () => {
  it('names each route that lacks its reply, body or params schema', async () => {
    const { app, r } = await docsOnlyApp();
    const Reply = z.object({ ok: z.boolean() });
    r.get('/api/no-schema', async () => ({ ok: true }));
    r.post('/api/no-body', { schema: { response: { 200: Reply } } }, async () => ({ ok: true }));
    r.get(
      '/api/items/:id',
      { schema: { querystring: z.object({ q: z.string() }), response: { 200: Reply } } },
      async () => ({ ok: true }),
    );
    r.get(
      '/api/hidden',
      { schema: { hide: true, querystring: z.object({}), response: { 200: Reply } } },
      async () => ({
        ok: true,
      }),
    );
    r.get(
      '/api/things/:id',
      { schema: { params: z.object({ id: z.string() }), response: { 200: Reply } } },
      async () => ({ ok: true }),
    );
    r.post(
      '/api/fine',
      { schema: { body: z.object({ a: z.string() }), response: { 200: Reply } } },
      async () => ({ ok: true }),
    );
    await app.ready();
    const problems = schemaProblems(app, await documentOf(app));
    expect(problems.sort()).toEqual(
      [
        'GET /api/hidden: not in the document (hidden, or added before the docs plugin)',
        'GET /api/items/:id: no params schema for :id',
        'GET /api/no-schema: no reply schema (schema.response[200])',
        'GET /api/no-schema: no request schema (body, querystring or params)',
        'POST /api/no-body: no body schema',
        'POST /api/no-body: no request schema (body, querystring or params)',
      ].sort(),
    );
    await app.close();
  });
});

describe('the endpoint table check', () => {
  it('names a route added by hand, a route with other schemas, and every entry not served', async () => {
    const { app, r } = await docsOnlyApp();
    r.route({ ...endpoint('ping'), handler: async () => ({ message: 'pong' }) });
    const Reply = z.object({ ok: z.boolean() });
    r.get('/api/by_hand', { schema: { querystring: z.object({}), response: { 200: Reply } } }, async () => ({
      ok: true,
    }));
    r.get('/api/whoami', { schema: { querystring: z.object({}), response: { 200: Reply } } }, async () => ({
      ok: true,
    }));
    await app.ready();
    const problems = tableProblems(app);
    expect(problems).toContain('GET /api/by_hand: served, but not in the endpoint table');
    expect(problems).toContain('GET /api/whoami: querystring, response not the schemas of whoami');
    expect(problems).toContain(
      'targets.edit (PATCH /api/spotify/targets/:id): in the endpoint table, but not served',
    );
    expect(problems.filter((p) => p.includes('ping'))).toEqual([]);
    // Every entry but ping and whoami is not served.
    expect(problems.filter((p) => p.endsWith('not served'))).toHaveLength(Object.keys(endpoints).length - 2);
    await app.close();
  });
});
