import { isIP } from 'node:net';
import { z } from 'zod';
import { optionalString } from '../config.fields.ts';

/** `host:port` or `[v6]:port`; the host must be an IP address or `localhost`. */
const listenAddress = z
  .string()
  .transform((v, ctx) => {
    const m = /^(?:\[([0-9a-fA-F:.]+)\]|([^:[\]]+)):(\d{1,5})$/.exec(v);
    const host = m?.[1] ?? m?.[2];
    const port = Number(m?.[3]);
    if (!m || !host || (host !== 'localhost' && !isIP(host)) || port < 1 || port > 65535) {
      ctx.addIssue({ code: 'custom', message: 'must be host:port, e.g. 127.0.0.1:9464 or [::1]:9464' });
      return z.NEVER;
    }
    return { host, port };
  })
  .optional();

/**
 * The metrics settings, spread into the one config schema (config.ts). Metrics have their own listener,
 * never the app's port: the reverse proxy cannot expose them, `work` processes (which serve no HTTP)
 * have them too, and a token is needed only when the listener is reachable from other machines.
 */
export const MetricsSettings = {
  /** Where `/metrics` (Prometheus) listens, e.g. `127.0.0.1:9464`. Unset: no metrics listener. */
  METRICS_LISTEN: optionalString.pipe(listenAddress),
  /** Bearer token a scraper must send; required when METRICS_LISTEN is not a loopback address. */
  METRICS_TOKEN: optionalString.pipe(z.string().min(16, 'must be at least 16 characters').optional()),
};

const isLoopback = (host: string) =>
  host === 'localhost' || host === '::1' || /^127\.\d+\.\d+\.\d+$/.test(host);

/** The rule across both settings, or null: a listener other machines can reach needs a token. */
export function metricsSettingsProblem(c: {
  METRICS_LISTEN?: { host: string; port: number };
  METRICS_TOKEN?: string;
}): string | null {
  if (c.METRICS_LISTEN && !isLoopback(c.METRICS_LISTEN.host) && !c.METRICS_TOKEN) {
    return `METRICS_TOKEN: required when METRICS_LISTEN (${c.METRICS_LISTEN.host}) is not a loopback address`;
  }
  return null;
}
