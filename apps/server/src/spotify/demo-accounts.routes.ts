// Demo mode: the simulated Spotify's accounts service (consent page, its decision, the token exchange)
// served through the app's own origin under DEMO_ACCOUNTS_PATH, forwarded to the world's own address
// (loopback in-process, or DEMO_SANDBOX_URL's). The runner's browser then needs to reach only the app: in a
// container, behind a proxy, or on another device. Registered only in demo mode; it answers 404 once an
// admin has left demo mode on the setup page. The code that talks to Spotify is the same as for the real
// one: only the base URL the browser is given differs.
//
// Only three exact paths go through (DEMO_ACCOUNTS_ALLOWED), matched on the raw request target: a path with
// a backslash, a percent escape, a dot segment or a doubled slash is none of them, so it answers 404 before
// anything is forwarded (the WHATWG URL parser that builds the forwarded URL would otherwise turn `\` into
// `/` and resolve `..`, and reach the world's admin API). The forwarded URL is built from the
// allow-listed path and a re-encoded query, never from the raw target. A malformed percent escape anywhere
// in the target is a 400.
import fastifyReplyFrom from '@fastify/reply-from';
import type { FastifyInstance } from 'fastify';
import { AppError, badRequest, notFound } from '../errors.ts';
import { BAD_ESCAPE_TEXT } from '../http/error-handler.ts';

export interface DemoAccountsRoutesOptions {
  /** The path on the app's origin (DEMO_ACCOUNTS_PATH). */
  path: string;
  /** The world's accounts service as this server reaches it, e.g. `http://127.0.0.1:41234/spotify/accounts`. */
  upstream: string;
  /** False once an admin has saved a client id (the setup page): then nothing is forwarded. */
  demoInForce: () => Promise<boolean>;
}

/**
 * Every path of the accounts service a browser needs, below DEMO_ACCOUNTS_PATH, with its methods: the
 * consent page (it has no scripts, styles or images of its own), its form's decision, and the token
 * exchange (with its CORS preflight, as Spotify answers one).
 */
export const DEMO_ACCOUNTS_ALLOWED: ReadonlyMap<string, readonly string[]> = new Map([
  ['/authorize', ['GET', 'HEAD']],
  ['/authorize/decision', ['POST']],
  ['/api/token', ['POST', 'OPTIONS']],
]);

/** False for a `%` not followed by two hex digits, or escapes that are no UTF-8: no decoder reads them. */
function decodable(text: string): boolean {
  try {
    decodeURIComponent(text);
    return true;
  } catch {
    return false;
  }
}

/** The media type of a Content-Type header, lower case, without its parameters (well formed or not). */
const mediaType = (header: string | undefined) => header?.split(';')[0]?.trim().toLowerCase();

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
    // The whole prefix, with `\` or `%5c` after it too: all of it answers here, forwarded or not.
    url: `${opts.path}*`,
    // As the web app's other pages: a bound on what one address may make the world do.
    preHandler: app.rateLimit({ max: 300, timeWindow: '1 minute' }),
    handler: async (req, reply) => {
      if (!(await opts.demoInForce())) {
        throw new AppError('NotFound', 404, 'Pacebeat is not in demo mode: there is no simulated Spotify.');
      }
      // The raw request target as the client sent it (Node's parser neither decodes nor normalises it).
      const target = req.raw.url ?? '';
      const q = target.indexOf('?');
      const rawPath = q === -1 ? target : target.slice(0, q);
      const rawQuery = q === -1 ? '' : target.slice(q + 1);
      if (!decodable(target)) throw badRequest(BAD_ESCAPE_TEXT, 'BadRequest');
      const rest = rawPath.startsWith(`${opts.path}/`) ? rawPath.slice(opts.path.length) : undefined;
      const methods = rest === undefined ? undefined : DEMO_ACCOUNTS_ALLOWED.get(rest);
      // Exact paths only: `\`, `%2e`, `%2f`, `%5c`, `..`, `//` or a trailing slash make no allowed path.
      if (!methods?.includes(req.method)) {
        throw notFound('The simulated Spotify has no such page.');
      }
      // The two posts are HTML forms (the consent page's, the token exchange): nothing else is forwarded,
      // and the body goes on under a plain form type whatever parameters its header carried.
      const form = req.method === 'POST' && req.body !== undefined;
      if (form && mediaType(req.headers['content-type']) !== 'application/x-www-form-urlencoded') {
        throw new AppError(
          'UnsupportedMediaType',
          415,
          'The simulated Spotify takes form posts (application/x-www-form-urlencoded) only.',
        );
      }
      // Parsed and written again: nothing in it can reach the path, whatever it held.
      const query = new URLSearchParams(rawQuery).toString();
      return reply.from(`${upstreamPath}${rest}`, {
        // Never the raw target's query (reply-from's default when this is empty).
        queryString: () => query,
        // A GET, HEAD or OPTIONS goes on without a body, whatever came with it.
        ...(form
          ? { body: req.body as Buffer, contentType: 'application/x-www-form-urlencoded' }
          : { body: null }),
        // The world answers at once or not at all: a hung one must not hold the browser's request long.
        timeout: 15_000,
        // Only what the world needs: not the runner's Pacebeat session cookie.
        rewriteRequestHeaders: (_req, headers) => {
          const { cookie: _cookie, ...rest } = headers;
          return rest;
        },
        // The world's connection headers are about its connection to this server, not the browser's to
        // the app (hop by hop): copied as they were, its `keep-alive` overrode a browser's `close`.
        rewriteHeaders: (headers) => {
          const { connection: _connection, 'keep-alive': _keepAlive, ...rest } = headers;
          return rest;
        },
      });
    },
  });
}
