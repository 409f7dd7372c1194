import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PingReply, SudoQuery } from '@pacebeat/contract';
import { requireUser } from './auth.plugin.ts';

/** GET /api/ping (spec §7): answers a message for a signed-in user, 401 otherwise. */
export async function pingRoutes(app: FastifyInstance) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get(
      '/ping',
      { preHandler: requireUser, schema: { querystring: SudoQuery, response: { 200: PingReply } } },
      async (req) => ({ message: `pong, ${req.auth!.user.email}` }),
    );
}
