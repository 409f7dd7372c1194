import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireUser } from './auth.plugin.ts';
import { endpoint } from './endpoint.ts';

/** GET /api/ping (spec §7): answers a message for a signed-in user, 401 otherwise. */
export async function pingRoutes(app: FastifyInstance) {
  app.withTypeProvider<ZodTypeProvider>().route({
    ...endpoint('ping'),
    preHandler: requireUser,
    handler: async (req) => ({ message: `pong, ${req.auth!.user.email}` }),
  });
}
