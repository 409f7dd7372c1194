import type { FastifyInstance } from 'fastify';

export interface HealthDeps {
  /** Resolves when the database and the job queue answer; rejects with the reason otherwise. */
  checkReady: () => Promise<void>;
}

/** Liveness and readiness for process managers and load balancers. */
export async function healthRoutes(app: FastifyInstance, { checkReady }: HealthDeps) {
  app.get('/healthz', async () => ({ status: 'ok' }));
  app.get('/readyz', async (request, reply) => {
    try {
      await checkReady();
      return { status: 'ready' };
    } catch (err) {
      request.log.warn({ err }, 'not ready');
      return reply.status(503).send({ status: 'not ready', reason: (err as Error).message });
    }
  });
}
