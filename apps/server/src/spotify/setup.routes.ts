import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAdmin, requireUser } from '../http/auth.plugin.ts';
import { endpoint } from '../http/endpoint.ts';
import type { SetupService } from './setup.service.ts';

export interface SetupRoutesOptions {
  setup: Pick<SetupService, 'state' | 'save' | 'checkRedirects' | 'checkAccount'>;
}

/**
 * The admin's setup page, /api/admin/spotify_app (the endpoint table's `setup.*`): admins only, never in sudo mode
 * (`requireAdmin`, after the sudo hook; a visitor gets 401 first); CSRF as every /api route (auth plugin).
 */
export async function setupRoutes(app: FastifyInstance, opts: SetupRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = { onRequest: requireUser, preHandler: requireAdmin };

  r.route({
    ...endpoint('setup.spotifyApp'),
    ...admin,
    handler: async () => ({ data: await opts.setup.state() }),
  });

  r.route({
    ...endpoint('setup.saveSpotifyApp'),
    ...admin,
    handler: async (req) => ({
      data: await opts.setup.save(req.auth!.user.id, req.body.client_id, req.body.confirm === true),
    }),
  });

  r.route({
    ...endpoint('setup.checkRedirects'),
    ...admin,
    handler: async () => ({ data: { checks: await opts.setup.checkRedirects() } }),
  });

  r.route({
    ...endpoint('setup.checkAccount'),
    ...admin,
    handler: async (req) => ({ data: await opts.setup.checkAccount(req.auth!.user.id, req.body) }),
  });
}
