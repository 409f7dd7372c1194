import type { FastifyInstance } from 'fastify';
import { buildInfo } from '../version.ts';
import { isDatabaseUnavailable } from './error-handler.ts';

export interface HealthDeps {
  /** Resolves when the database and the job queue answer; rejects with the reason otherwise. */
  checkReady: () => Promise<void>;
}

/** A reason for not being ready that may be shown to anyone who asks (no address, no internals). */
export class NotReadyError extends Error {}

/**
 * What /readyz says about a failure: a NotReadyError's own words, else only which kind of thing failed.
 * A driver's message names the database's internal address (`connect ECONNREFUSED 10.0.3.7:5432`): it goes
 * to the log, never to the unauthenticated answer.
 */
export function publicReason(err: unknown): string {
  if (err instanceof NotReadyError) return err.message;
  if (isDatabaseUnavailable(err)) return 'database unreachable';
  return 'not ready (see the server log)';
}

/**
 * Liveness and readiness for process managers and load balancers. /readyz also says which release and
 * commit answer (an upgrade or a rollback can be checked with curl; docs/install.md, "Upgrades").
 */
export async function healthRoutes(app: FastifyInstance, { checkReady }: HealthDeps) {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (request, reply) => {
    const { version, commit } = buildInfo();
    try {
      await checkReady();
      return { status: 'ready', version, commit };
    } catch (err) {
      request.log.warn({ err }, 'not ready');
      return reply.status(503).send({ status: 'not ready', reason: publicReason(err), version, commit });
    }
  });
}
