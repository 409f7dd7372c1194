// Demo mode: the simulated Spotify's accounts service (consent page, its decision, the token exchange)
// served through the app's own origin under DEMO_ACCOUNTS_PATH, forwarded as it is to the world's own
// address (loopback in-process, or DEMO_SANDBOX_URL's). The runner's browser then needs to reach only the
// app: in a container, behind a proxy, or on another device. Registered only in demo mode; it answers 404
// once an admin has left demo mode on the setup page. The code that talks to Spotify is the same as for
// the real one: only the base URL the browser is given differs.
import fastifyReplyFrom from '@fastify/reply-from';
import type { FastifyInstance } from 'fastify';
import { AppError } from '../errors.ts';

export interface DemoAccountsRoutesOptions {
  /** The path on the app's origin (DEMO_ACCOUNTS_PATH). */
  path: string;
  /** The world's accounts service as this server reaches it, e.g. `http://127.0.0.1:41234/spotify/accounts`. */
  upstream: string;
  /** False once an admin has saved a client id (the setup page): then nothing is forwarded. */
  demoInForce: () => Promise<boolean>;
}

export async function demoAccountsRoutes(app: FastifyInstance, opts: DemoAccountsRoutesOptions) {
  const upstream = new URL(opts.upstream);
  const upstreamPath = upstream.pathname.replace(/\/$/, '');
  await app.register(fastifyReplyFrom, {
    base: upstream.origin,
    // The world's answers go to the browser as they are, as Spotify's would: no retries here.
    retryMethods: [],
  });
  // The bodies go on as they came (the consent form, the token exchange): never parsed here.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));

  app.route({
    method: ['GET', 'HEAD', 'POST', 'OPTIONS'],
    url: `${opts.path}/*`,
    // As the web app's other pages: a bound on what one address may make the world do.
    preHandler: app.rateLimit({ max: 300, timeWindow: '1 minute' }),
    handler: async (req, reply) => {
      if (!(await opts.demoInForce())) {
        throw new AppError('NotFound', 404, 'Pacebeat is not in demo mode: there is no simulated Spotify.');
      }
      const rest = req.url.slice(opts.path.length); // "/authorize?…", "/api/token"
      // The accounts service only: no dot segments that could climb to the world's admin API.
      if (/(^|\/)(\.|%2e){1,2}(\/|\?|$)/i.test(rest.split('?')[0]!)) {
        throw new AppError('NotFound', 404, `No route ${req.method} ${opts.path}${rest.split('?')[0]}`);
      }
      return reply.from(`${upstreamPath}${rest}`, {
        // The world answers at once or not at all: a hung one must not hold the browser's request long.
        timeout: 15_000,
        // Only what the world needs: not the runner's Pacebeat session cookie.
        rewriteRequestHeaders: (_req, headers) => {
          const { cookie: _cookie, ...rest } = headers;
          return rest;
        },
      });
    },
  });
}
