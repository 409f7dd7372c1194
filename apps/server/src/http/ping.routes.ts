import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { PingReply, SudoQuery } from '@pacebeat/contract';
import { unauthorized } from './errors.ts';

/**
 * GET /api/ping (spec §7): answers a message for a signed-in user, 401 otherwise.
 * Sign-in comes with the accounts module; until a session exists every caller is a visitor.
 */
export async function pingRoutes(app: FastifyInstance) {
  app
    .withTypeProvider<ZodTypeProvider>()
    .get('/ping', { schema: { querystring: SudoQuery, response: { 200: PingReply } } }, async () => {
      throw unauthorized();
    });
}
