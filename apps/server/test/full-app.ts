// The HTTP app with every feature's routes, composed as main.ts composes it (compose.ts), on the real test
// database and the simulated Spotify, for the tests that walk Fastify's route table (fuzzing, the API
// document's coverage). A feature that adds routes adds them in compose.ts, and these tests cover them.
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { startLibraryHarness, type LibraryHarness } from './library-harness.ts';
import { composedHttpApp, composeOnHarness } from './composed-app.ts';

export interface FullApp {
  app: FastifyInstance;
  harness: LibraryHarness;
  /** The session cookie of a signed-in admin (`ADMIN_EMAILS`), as a `cookie` header value. */
  adminCookie: string;
  close(): Promise<void>;
}

export async function buildFullApp(env: Record<string, string> = {}): Promise<FullApp> {
  const harness = await startLibraryHarness();
  const log = pino({ level: 'silent' });
  const email = `full-${Date.now()}-${Math.random().toString(36).slice(2)}@example.org`;
  const { config, pacebeat } = composeOnHarness(harness, { env: { ADMIN_EMAILS: email, ...env } });
  const app = await composedHttpApp(pacebeat, config, log);
  const signup = await app.inject({
    method: 'POST',
    url: '/api/signup',
    payload: { email, name: 'Admin', password: 'run4fun!' },
  });
  const c = signup.cookies.find((x) => x.name === 'pacebeat_session');
  return {
    app,
    harness,
    adminCookie: c ? `pacebeat_session=${c.value}` : '',
    async close() {
      await app.close();
      await pacebeat.accounts.close();
      await harness.close();
    },
  };
}

/**
 * Every route of the app under /api, as [method, url] pairs: each route the docs plugin saw added (whole
 * paths; Fastify's printRoutes shows a nested route, such as `/api/login_data` under `/api/login`, by its
 * last part only), and any other whole path of Fastify's own route table.
 */
export function apiRoutes(app: FastifyInstance): [string, string][] {
  const out = app.declaredApiRoutes.map((r): [string, string] => [r.method, r.url]);
  for (const line of app.printRoutes({ commonPrefix: false }).split('\n')) {
    const m = /(\/\S*) \(([A-Z, ]+)\)/.exec(line);
    if (!m || !m[1]!.startsWith('/api/')) continue;
    for (const method of m[2]!.split(', ')) {
      if (method !== 'HEAD' && !out.some(([om, ou]) => om === method && ou === m[1]))
        out.push([method, m[1]!]);
    }
  }
  return out;
}
