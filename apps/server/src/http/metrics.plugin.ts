import type { FastifyInstance } from 'fastify';
import fp from 'fastify-plugin';
import type { Metrics } from '../metrics/metrics.ts';

/**
 * Counts every answered request in `pacebeat_http_request_duration_seconds`, labelled by the route's
 * pattern (`/api/spotify/connect`, `/assets/*`), so ids in URLs never become labels. Requests no route
 * matched (the web app's history fallback, unknown /api paths) share the label `unmatched`.
 */
export const httpMetrics = fp<{ metrics: Pick<Metrics, 'httpRequest'> }>(
  async (app: FastifyInstance, { metrics }) => {
    app.addHook('onResponse', async (request, reply) => {
      metrics.httpRequest({
        method: request.method,
        route: request.is404 ? 'unmatched' : (request.routeOptions.url ?? 'unmatched'),
        status: reply.statusCode,
        seconds: reply.elapsedTime / 1000,
      });
    });
  },
  { name: 'http-metrics' },
);
