// The admin API (JSON) over the in-process helpers; see README.md for every route.
import { timingSafeEqual } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Ctx } from '../context.ts';
import { AdminError, type Admin } from './admin.ts';

type Body = Record<string, unknown>;
const list = (v: unknown): string[] => (Array.isArray(v) ? v.map(String) : []);

export function registerAdminRoutes(app: FastifyInstance, _ctx: Ctx, admin: Admin, token?: string): void {
  if (token) {
    // Anyone who reaches the port (another local user, a LAN with `--host`) could otherwise connect any
    // simulated user or change the world: only who started the sandbox knows the token.
    const expected = Buffer.from(`Bearer ${token}`);
    app.addHook('onRequest', async (req, reply) => {
      const given = Buffer.from(req.headers.authorization ?? '');
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
        return reply.code(401).send({ error: 'the admin API needs Authorization: Bearer <admin token>' });
      }
    });
  }
  app.setErrorHandler((err: { statusCode?: number; message: string }, _req, reply: FastifyReply) => {
    const status =
      err instanceof AdminError ? err.status : err.statusCode && err.statusCode < 500 ? err.statusCode : 400;
    reply.code(status).send({ error: err.message });
  });
  app.setNotFoundHandler((_req, reply) => reply.code(404).send({ error: 'unknown admin route' }));

  const p = (req: { params: unknown }) => req.params as Record<string, string>;
  const b = (req: { body: unknown }) => (req.body ?? {}) as Body;

  app.get('/world', async () => admin.world());
  app.get('/users', async () => admin.users());
  app.post('/crowd', async (req, reply) =>
    reply.code(201).send(admin.createCrowd(b(req) as unknown as Parameters<Admin['createCrowd']>[0])),
  );
  app.get('/users/:id', async (req) => admin.user(p(req)['id'] as string));
  app.post('/users', async (req, reply) =>
    reply.code(201).send(admin.createUser(b(req) as Parameters<Admin['createUser']>[0])),
  );
  app.put('/users/:id/registration', async (req) => {
    admin.setRegistered(
      p(req)['id'] as string,
      b(req)['registered'] !== false,
      b(req)['clientId'] as string | undefined,
    );
    return admin.user(p(req)['id'] as string);
  });
  app.post('/users/:id/liked', async (req) => {
    const addedAt = b(req)['addedAt'] as string | number | undefined;
    admin.likeAt(p(req)['id'] as string, list(b(req)['trackIds']), addedAt);
    return admin.user(p(req)['id'] as string);
  });
  app.delete('/users/:id/liked', async (req) => {
    admin.unlike(p(req)['id'] as string, list(b(req)['trackIds']));
    return admin.user(p(req)['id'] as string);
  });
  app.post('/users/:id/following', async (req) => {
    admin.followArtists(p(req)['id'] as string, list(b(req)['artistIds']));
    return admin.user(p(req)['id'] as string);
  });
  app.delete('/users/:id/following', async (req) => {
    admin.unfollowArtists(p(req)['id'] as string, list(b(req)['artistIds']));
    return admin.user(p(req)['id'] as string);
  });
  app.post('/users/:id/playlists', async (req, reply) =>
    reply
      .code(201)
      .send(admin.createPlaylist(p(req)['id'] as string, b(req) as Parameters<Admin['createPlaylist']>[1])),
  );
  app.post('/users/:id/followed-playlists', async (req) => {
    admin.followPlaylist(p(req)['id'] as string, String(b(req)['playlistId']));
    return admin.user(p(req)['id'] as string);
  });
  // The user unfollows a playlist (deletes it, when they own it).
  app.delete('/users/:id/followed-playlists/:playlistId', async (req) => {
    admin.unfollowPlaylist(p(req)['id'] as string, p(req)['playlistId'] as string);
    return admin.user(p(req)['id'] as string);
  });
  app.delete('/users/:id/followed-playlists', async (req) => {
    admin.unfollowPlaylist(p(req)['id'] as string, String(b(req)['playlistId']));
    return admin.user(p(req)['id'] as string);
  });
  app.put('/playlists/:id', async (req) =>
    admin.editPlaylist(p(req)['id'] as string, b(req) as Parameters<Admin['editPlaylist']>[1]),
  );
  app.post('/artists/:id/releases', async (req, reply) =>
    reply
      .code(201)
      .send(admin.addRelease(p(req)['id'] as string, b(req) as Parameters<Admin['addRelease']>[1])),
  );
  app.get('/playlists/:id/items', async (req) => ({
    trackIds: admin.playlistItems(p(req)['id'] as string),
    uris: admin.playlistUris(p(req)['id'] as string),
  }));
  app.post('/playlists/:id/items', async (req) =>
    admin.addToPlaylist(
      p(req)['id'] as string,
      list(b(req)['trackIds']),
      b(req)['userId'] as string | undefined,
    ),
  );
  app.delete('/playlists/:id/items', async (req) => {
    const body = b(req);
    if (body['uris'] !== undefined || body['positions'] !== undefined)
      return admin.removeItems(p(req)['id'] as string, {
        uris: list(body['uris']),
        positions: Array.isArray(body['positions']) ? body['positions'].map(Number) : [],
      });
    return admin.removeFromPlaylist(p(req)['id'] as string, list(body['trackIds']));
  });
  app.put('/login', async (req) => {
    const id = b(req)['userId'];
    admin.setLoginUser(typeof id === 'string' ? id : undefined);
    return { userId: id ?? null };
  });
  app.post('/authorize', async (req) => admin.authorize(b(req) as Parameters<Admin['authorize']>[0]));
  app.post('/connect', async (req) => admin.connect(b(req) as Parameters<Admin['connect']>[0]));
  app.post('/tokens/revoke', async (req) => admin.revokeTokens(b(req)));
  app.post('/tokens/expire', async (req) => admin.expireTokens(b(req)));
  app.get('/config', async () => admin.config());
  app.put('/config', async (req) => admin.setConfig(b(req)));
  app.get('/faults', async () => admin.faults());
  app.put('/faults', async (req) => {
    admin.setFaults(
      (Array.isArray(req.body) ? req.body : ((b(req)['rules'] as unknown[]) ?? [])) as Parameters<
        Admin['setFaults']
      >[0],
    );
    return admin.faults();
  });
  app.get('/faults/background', async () => admin.backgroundFaults());
  app.delete('/faults', async () => {
    admin.setFaults([]);
    return [];
  });
  app.get('/requests', async (req) => {
    const q = req.query as Record<string, string | undefined>;
    return admin.requests({
      ...(q['service'] ? { service: q['service'] } : {}),
      ...(q['since'] ? { since: Number(q['since']) } : {}),
      ...(q['clientId'] ? { clientId: q['clientId'] } : {}),
      ...(q['userId'] ? { userId: q['userId'] } : {}),
    });
  });
  app.delete('/requests', async () => {
    admin.clearRequests();
    return { cleared: true };
  });
  app.get('/counters', async () => admin.counters());
  app.get('/previews', async () => admin.previews());
  app.get('/usage', async (req) =>
    admin.usage((req.query as Record<string, string | undefined>)['clientId']),
  );
  app.post('/clock', async (req) => admin.advanceClock(Number(b(req)['advanceSeconds'] ?? 0)));
  app.post('/reset', async () => {
    admin.reset();
    return { reset: true };
  });
  app.get('/tracks/:id', async (req) => admin.track(p(req)['id'] as string));
  app.get('/songs/:id', async (req) => admin.song(p(req)['id'] as string));
  app.post('/score', async (req) => admin.score(b(req) as unknown as Parameters<Admin['score']>[0]));
}
