// The Prometheus endpoint on its own listener (METRICS_LISTEN), apart from the app's port: the reverse
// proxy never forwards it, and `work` processes, which serve no HTTP, have one too. With METRICS_TOKEN
// set, a scrape must send `Authorization: Bearer <token>`.
import { timingSafeEqual } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Logger } from 'pino';
import type { Metrics } from '../metrics/metrics.ts';

export interface MetricsServer {
  port: number;
  close(): Promise<void>;
}

const sameSecret = (given: string, token: string) => {
  const a = Buffer.from(given);
  const b = Buffer.from(token);
  return a.length === b.length && timingSafeEqual(a, b);
};

export async function startMetricsServer(
  metrics: Pick<Metrics, 'render' | 'contentType'>,
  o: { host: string; port: number; token?: string; log: Logger },
): Promise<MetricsServer> {
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0];
    if (path !== '/metrics' || (req.method !== 'GET' && req.method !== 'HEAD')) {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: scrape /metrics\n');
      return;
    }
    if (o.token) {
      const m = /^Bearer (.+)$/.exec(req.headers.authorization ?? '');
      if (!m || !sameSecret(m[1]!, o.token)) {
        res
          .writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' })
          .end('Unauthorized\n');
        return;
      }
    }
    metrics.render().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      (err: unknown) => {
        o.log.error({ err }, 'metrics scrape failed');
        res.writeHead(500, { 'content-type': 'text/plain' }).end('Internal error\n');
      },
    );
  });
  server.requestTimeout = 30_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(o.port, o.host, () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  o.log.info({ host: o.host, port }, 'metrics listening on /metrics');
  return {
    port,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeIdleConnections();
      }),
  };
}
