// The one HTTP server: every service under its own base path, with the request log and the fault
// injection in front of all of them.
import Fastify, { type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify';
import type { Ctx } from './context.ts';
import { faultLabel, type Service } from './limits/faults.ts';
import { registerAccountRoutes } from './spotify/accounts.routes.ts';
import { registerMeRoutes } from './spotify/me.routes.ts';
import { registerPlaylistRoutes } from './spotify/playlists.routes.ts';
import { registerCatalogRoutes } from './spotify/catalog.routes.ts';
import { registerLibraryRoutes } from './spotify/library.routes.ts';
import { spotifyError } from './spotify/route.ts';
import { registerAdminRoutes } from './admin/admin.routes.ts';
import { registerDeezerRoutes } from './tempo/deezer.routes.ts';
import { registerReccoBeatsRoutes } from './tempo/reccobeats.routes.ts';
import { registerGetSongBpmRoutes } from './tempo/getsongbpm.routes.ts';
import type { Admin } from './admin/admin.ts';

export const BASE_PATHS: Record<Exclude<Service, 'admin'>, string> & { admin: string } = {
  'spotify-accounts': '/spotify/accounts',
  'spotify-api': '/spotify/api/v1',
  deezer: '/deezer',
  reccobeats: '/reccobeats/v1',
  getsongbpm: '/getsongbpm',
  admin: '/admin',
};

const CORS_SERVICES = new Set<Service | 'other'>(['spotify-accounts', 'spotify-api']);

function serviceOf(url: string): Service | 'other' {
  for (const [service, base] of Object.entries(BASE_PATHS))
    if (url === base || url.startsWith(`${base}/`) || url.startsWith(`${base}?`)) return service as Service;
  return 'other';
}

/** The error body a service answers for an injected status. */
function faultBody(service: Service | 'other', status: number): unknown {
  const message =
    status === 429
      ? 'Too many requests'
      : status === 502
        ? 'Bad gateway.'
        : status === 503
          ? 'Service unavailable'
          : 'Server error.';
  switch (service) {
    case 'spotify-api':
      return spotifyError(status, message);
    case 'spotify-accounts':
      return { error: 'server_error', error_description: message };
    case 'deezer':
      return { error: { type: 'Exception', message, code: status } };
    default:
      return { error: message, status };
  }
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/**
 * Request bodies as Spotify reads them: JSON whatever the content type says (text/plain too), and an
 * empty body is no body (a JSON content type with nothing after it is fine). With strictRequests a
 * body must be JSON with a JSON content type, and an empty one is refused, as Fastify would.
 */
function registerSpotifyBodyParser(scope: FastifyInstance, ctx: Ctx): void {
  scope.removeAllContentTypeParsers();
  scope.addContentTypeParser('*', { parseAs: 'string' }, (req, body, done) => {
    const text = String(body);
    const json = /\bjson\b/i.test(req.headers['content-type'] ?? '');
    const strict = ctx.config.strictRequests;
    const fail = (message: string) => done(Object.assign(new Error(message), { statusCode: 400 }), undefined);
    if (text.trim() === '') {
      if (strict && json) return fail("Body cannot be empty when content-type is set to 'application/json'");
      return done(null, undefined);
    }
    if (strict && !json) return done(null, text); // the request check answers 400
    try {
      done(null, JSON.parse(text) as unknown);
    } catch {
      fail('Error parsing json');
    }
  });
}

export function buildApp(
  ctx: Ctx,
  admin: Admin,
  opts: { logger: boolean; adminToken?: string },
): FastifyInstance {
  const app = Fastify({ logger: opts.logger, bodyLimit: 4 * 1024 * 1024, forceCloseConnections: true });

  app.decorateRequest('notes', null as unknown as FastifyRequest['notes']);

  app.addHook('onRequest', async (req: FastifyRequest, reply: FastifyReply) => {
    const service = serviceOf(req.url);
    req.notes = { service, start: performance.now() };
    if (service === 'other' || service === 'admin') return;
    // Every request is logged once: when its answer is sent, or when its connection closes first
    // (a client that gave up, a reset).
    reply.raw.once('close', () => {
      const finished = reply.raw.writableFinished;
      record(req, finished ? reply.statusCode : (req.notes.handledStatus ?? 0), !finished);
    });
    if (CORS_SERVICES.has(service)) {
      // Spotify's accounts service and Web API allow browser calls (the PKCE flow runs in the browser).
      reply.header('access-control-allow-origin', '*').header('access-control-expose-headers', 'Retry-After');
      if (req.method === 'OPTIONS') {
        return reply
          .code(204)
          .header('access-control-allow-methods', 'GET, POST, PUT, DELETE, OPTIONS')
          .header('access-control-allow-headers', 'Authorization, Content-Type')
          .header('access-control-max-age', '600')
          .send();
      }
    }
    const path = req.url.slice(BASE_PATHS[service].length).split('?')[0] ?? '';
    const fired = ctx.faults.pick(service, req.method, path);
    if (!fired) return;
    const rule = fired.rule;
    req.notes.fault = faultLabel(rule);
    if (rule.afterApply && rule.kind !== 'revoke') {
      // Handled normally first; onSend fails the answer.
      req.notes.afterApply = rule;
      return;
    }
    if (rule.kind === 'slow') {
      await sleep(rule.delayMs ?? 2000);
      // The client gave up while the request waited: it is never handled (nothing is applied).
      if (req.raw.socket?.destroyed) {
        record(req, 0, true);
        reply.hijack();
      }
    } else if (rule.kind === 'reset') {
      record(req, 0);
      reply.hijack();
      req.raw.socket.destroy();
    } else if (rule.kind === 'revoke') {
      const token = /^Bearer\s+(\S+)$/i.exec(req.headers.authorization ?? '')?.[1];
      if (token) ctx.tokens.revoke({ accessToken: token });
    } else {
      const status = rule.status ?? 500;
      if (status === 429) reply.header('retry-after', String(rule.retryAfterSeconds ?? 5));
      return reply.code(status).send(faultBody(req.notes.service, status));
    }
  });

  // Faults that let the request be handled (a write applied) and then fail its answer.
  app.addHook('onSend', async (req: FastifyRequest, reply: FastifyReply, payload: unknown) => {
    const rule = req.notes?.afterApply;
    if (!rule) return payload;
    delete req.notes.afterApply;
    if (rule.kind === 'status') {
      const status = rule.status ?? 500;
      if (status === 429) reply.header('retry-after', String(rule.retryAfterSeconds ?? 5));
      reply.code(status).header('content-type', 'application/json; charset=utf-8');
      return JSON.stringify(faultBody(req.notes.service, status));
    }
    if (rule.kind === 'reset') {
      record(req, 0);
      req.raw.socket?.destroy();
      return payload;
    }
    req.notes.handledStatus = reply.statusCode;
    await sleep(rule.delayMs ?? 2000);
    return payload;
  });

  const record = (req: FastifyRequest, status: number, clientGone = false) => {
    const n = req.notes;
    if (!n || n.service === 'admin' || n.logged) return;
    n.logged = true;
    ctx.log.record({
      at: ctx.clock.now(),
      service: n.service,
      method: req.method,
      route: req.routeOptions.url ?? req.url.split('?')[0] ?? '',
      url: req.url,
      status,
      durationMs: Math.round((performance.now() - n.start) * 10) / 10,
      ...(n.clientId ? { clientId: n.clientId } : {}),
      ...(n.userId ? { userId: n.userId } : {}),
      ...(n.fault ? { fault: n.fault } : {}),
      ...(clientGone ? { clientGone: true } : {}),
    });
  };
  app.addHook('onResponse', async (req, reply) => record(req, reply.statusCode));

  app.register(
    async (scope) => {
      registerAccountRoutes(scope, ctx);
    },
    { prefix: BASE_PATHS['spotify-accounts'] },
  );
  app.register(
    async (scope) => {
      scope.setErrorHandler((err: { statusCode?: number; message: string }, _req, reply) => {
        const status = err.statusCode && err.statusCode < 500 ? 400 : 500;
        reply
          .code(status)
          .send(
            spotifyError(
              status,
              status === 400
                ? /JSON/i.test(err.message)
                  ? 'Error parsing json'
                  : err.message
                : 'Server error.',
            ),
          );
      });
      scope.setNotFoundHandler((_req, reply) => reply.code(404).send(spotifyError(404, 'Service not found')));
      registerSpotifyBodyParser(scope, ctx);
      registerMeRoutes(scope, ctx);
      registerPlaylistRoutes(scope, ctx);
      registerCatalogRoutes(scope, ctx);
      registerLibraryRoutes(scope, ctx);
    },
    { prefix: BASE_PATHS['spotify-api'] },
  );
  app.register(async (scope) => registerDeezerRoutes(scope, ctx), { prefix: BASE_PATHS.deezer });
  app.register(async (scope) => registerReccoBeatsRoutes(scope, ctx), { prefix: BASE_PATHS.reccobeats });
  app.register(async (scope) => registerGetSongBpmRoutes(scope, ctx), { prefix: BASE_PATHS.getsongbpm });
  app.register(async (scope) => registerAdminRoutes(scope, ctx, admin, opts.adminToken), {
    prefix: BASE_PATHS.admin,
  });
  app.get('/', async (_req, reply) =>
    reply.send({
      sandbox: 'pacebeat music world',
      baseUrls: ctx.baseUrls,
      readme: 'tools/sandbox/README.md',
    }),
  );
  return app;
}
