// A preHandler for the routes whose action costs Spotify calls: the runner's own limit for that kind of
// action (accounts/rate-limit.service.ts ACTION_LIMITS, counted in PostgreSQL for every process) is taken
// before the route runs, so a loop on any of them cannot spend the day the runners share.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { SpotifyAction } from '../accounts/rate-limit.service.ts';

export interface ActionLimiter {
  takeAction(kind: SpotifyAction, userId: string): Promise<void>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by buildApp when the app has one (tests of a single route may leave it out). */
    actionLimits: ActionLimiter | null;
  }
}

/** The preHandler taking one `kind` action of the signed-in runner (after requireUser and forbidSudo). */
export const limitAction = (kind: SpotifyAction) =>
  async function takeAction(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
    const userId = request.auth?.user.id;
    if (userId) await request.server.actionLimits?.takeAction(kind, userId);
  };
