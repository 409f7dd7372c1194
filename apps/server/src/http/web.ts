import { existsSync } from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { API_BASE, type ErrorReply } from '@pacebeat/contract';

const YEAR = 365 * 24 * 3600;

/**
 * Serves the built web app: hashed assets cached for a year, everything else revalidated,
 * and the history-mode fallback (any non-API GET answers index.html). The build writes brotli and gzip
 * copies of every text file (`file.br`, `file.gz`); a browser that accepts one gets it as it is, with
 * `Content-Encoding` and `Vary: Accept-Encoding`, so no request pays for compression.
 */
export async function webApp(app: FastifyInstance, { distDir }: { distDir: string }) {
  const built = existsSync(path.join(distDir, 'index.html'));
  if (built) {
    await app.register(fastifyStatic, {
      root: distDir,
      index: false,
      wildcard: false,
      preCompressed: true,
      setHeaders(res, file) {
        const hashed = file.includes(`${path.sep}assets${path.sep}`);
        res.header('Cache-Control', hashed ? `public, max-age=${YEAR}, immutable` : 'no-cache');
      },
    });
  } else {
    app.log.warn({ distDir }, 'the web app is not built; run `npm run build`');
  }

  app.setNotFoundHandler(
    { preHandler: app.rateLimit ? app.rateLimit({ max: 300, timeWindow: '1 minute' }) : undefined },
    (request, reply) => {
      const isApi =
        request.url === API_BASE ||
        request.url.startsWith(`${API_BASE}/`) ||
        request.url.startsWith(`${API_BASE}?`);
      if (isApi || (request.method !== 'GET' && request.method !== 'HEAD')) {
        const body: ErrorReply = {
          error: { code: 'NotFound', message: `No route ${request.method} ${request.url.split('?')[0]}` },
          error_name: 'NotFound',
          requestId: String(request.id),
        };
        return reply.status(404).send(body);
      }
      if (!built) {
        return reply
          .status(503)
          .type('text/plain')
          .send('The web app is not built yet: run `npm run build`.');
      }
      reply.header('Cache-Control', 'no-cache');
      return reply.type('text/html').sendFile('index.html');
    },
  );
}
