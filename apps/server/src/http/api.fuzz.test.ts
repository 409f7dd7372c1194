// Property-based fuzzing of every /api route: generated bad requests (wrong types, missing fields, NUL
// and control characters, huge and deep values, bad content types, bad Host and Origin headers, bad
// `?sudo`) must never answer 5xx. The routes are read from the app itself, so a new route is fuzzed too.
// Short in `npm test`; a long run: FUZZ_RUNS=5000 npx vitest run apps/server/src/http/api.fuzz.test.ts
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { uniqueIp } from '../../test/accounts-app.ts';
import { apiRoutes, buildFullApp, type FullApp } from '../../test/full-app.ts';

const RUNS = Number(process.env.FUZZ_RUNS ?? 150);

const nasty = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '\r\n',
    'x'.repeat(70_000),
    '💥'.repeat(500),
    '%00',
    '../../etc/passwd',
  ),
  fc.constantFrom('<script>alert(1)</script>', "' or 1=1 --", '${jndi:x}', 'null', '[]', '{}'),
);
const jsonValue = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    nasty,
    fc.integer(),
    fc.double(),
    fc.boolean(),
    fc.constant(null),
    fc.array(tie('value'), { maxLength: 5 }),
    fc.dictionary(
      fc.oneof(fc.string(), fc.constantFrom('email', 'password', 'token', 'kind', 'enabled', '__proto__')),
      tie('value'),
      { maxKeys: 5 },
    ),
  ),
})).value;
/** Valid bodies of the API's calls, to mutate one field at a time. */
const TEMPLATES: Record<string, unknown>[] = [
  { provider: 'local', email: 'fuzz@example.org', password: 'run4fun!', time_zone: 'Europe/Paris' },
  { provider: 'firebase', token: 'x'.repeat(40) },
  { email: 'new-runner@example.org', name: 'Runner', password: 'run4fun!' },
  { email: 'fuzz@example.org' },
  { code: 'abc', password: 'run4fun!' },
  { kinds: ['local', 'firebase'] },
  {
    token_info: {
      access_token: `BQ${'a'.repeat(60)}`,
      token_type: 'Bearer',
      scope: 'user-library-read',
      expires_in: 3600,
      refresh_token: 'AQ123',
    },
  },
  { kind: 'playlist', source_id: 'abc', enabled: true },
];
/** Bodies that look almost right: a valid body with one field made wrong or hostile. */
const nearMiss = fc
  .tuple(fc.constantFrom(...TEMPLATES), fc.nat(), jsonValue)
  .map(([template, which, value]) => {
    const keys = Object.keys(template);
    return { ...template, [keys[which % keys.length]!]: value };
  });
const deep = fc.integer({ min: 100, max: 20_000 }).map((n) => '['.repeat(n) + ']'.repeat(n));

const request = fc.record({
  route: fc.nat(),
  signedIn: fc.boolean(),
  sudo: fc.option(nasty, { nil: undefined }),
  contentType: fc.constantFrom(
    'application/json',
    'application/json',
    'application/json',
    'text/plain',
    'application/x-www-form-urlencoded',
    'multipart/form-data; boundary=x',
    'application/json; charset=utf-16',
    '',
  ),
  body: fc.oneof(
    jsonValue.map((v) => JSON.stringify(v) ?? 'null'),
    nearMiss.map((v) => JSON.stringify(v)),
    nearMiss.map((v) => JSON.stringify(v)),
    deep,
    nasty,
    fc.constant(undefined),
  ),
  // Mostly well-addressed, so most requests reach the routes themselves.
  host: fc.oneof(
    { weight: 5, arbitrary: fc.constant('localhost') },
    {
      weight: 1,
      arbitrary: fc.constantFrom('', 'a b', 'attacker.example', 'localhost:99999', '[::1', '%00'),
    },
  ),
  origin: fc.oneof(
    { weight: 5, arbitrary: fc.constantFrom(undefined, 'http://localhost') },
    { weight: 1, arbitrary: fc.oneof(nasty, fc.constantFrom('null', 'https://evil.example')) },
  ),
});

describe('fuzzing every /api route', () => {
  let full: FullApp;
  let app: FastifyInstance;
  let cookie = '';
  beforeAll(async () => {
    // Signed in as an admin, so `?sudo=` values reach the user lookup.
    full = await buildFullApp({ LOGIN_MAX_FAILURES_PER_ADDRESS: '100000', SIGNUP_MAX_PER_ADDRESS: '100000' });
    app = full.app;
    cookie = full.adminCookie;
  });
  afterAll(async () => {
    await full.close();
  });

  it('knows the routes it fuzzes', () => {
    const routes = apiRoutes(app).map(([m, u]) => `${m} ${u}`);
    expect(routes).toEqual(
      expect.arrayContaining(['POST /api/login', 'GET /api/whoami', 'PUT /api/spotify/connect']),
    );
    expect(cookie).not.toBe('');
  });

  it('never answers 5xx', async () => {
    const routes = apiRoutes(app);
    await fc.assert(
      fc.asyncProperty(request, async (r) => {
        const [method, url] = routes[r.route % routes.length]!;
        const query = r.sudo === undefined ? '' : `?sudo=${encodeURIComponent(r.sudo)}`;
        const headers: Record<string, string> = { host: r.host };
        if (r.contentType) headers['content-type'] = r.contentType;
        if (r.origin !== undefined) headers.origin = r.origin;
        if (r.signedIn) headers.cookie = cookie;
        const res = await app.inject({
          method: method as 'GET',
          url: `${url}${query}`,
          remoteAddress: uniqueIp(),
          headers,
          ...(method === 'GET' || r.body === undefined ? {} : { payload: r.body }),
        });
        expect(res.statusCode, `${method} ${url}${query} -> ${res.body.slice(0, 300)}`).toBeLessThan(500);
      }),
      { numRuns: RUNS },
    );
  }, 600_000);
});
