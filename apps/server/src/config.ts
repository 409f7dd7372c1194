import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../..');

const port = z.coerce.number().int().min(0).max(65535);
const optionalString = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/**
 * Every setting Pacebeat reads, from the environment (and an optional `.env`).
 * Defaults are the embedded mode's: one process, its own PostgreSQL in `<DATA_DIR>/pg`.
 * The README's settings table mirrors this schema.
 */
const ConfigSchema = z.object({
  /** Address the HTTP server listens on. */
  HOST: z.string().trim().min(1).default('127.0.0.1'),
  /** Port the HTTP server listens on. */
  PORT: port.default(8080),
  /** Folder for the embedded database and key files. */
  DATA_DIR: z.string().trim().min(1).default('./data'),
  /** An external PostgreSQL (≥ 14). Unset: the app starts its own server in `<DATA_DIR>/pg`. */
  DATABASE_URL: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must start with postgres:// or postgresql://')
      .optional(),
  ),
  /** pino log level. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Folder holding the built web app (`vite build`). */
  WEB_DIST_DIR: z.string().trim().min(1).default(path.join(repoRoot, 'apps/web/dist')),
  /** Public origin of the app when it is served behind a proxy, e.g. https://pace.example.org. */
  PUBLIC_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /** Seconds that in-flight requests and jobs get to finish on SIGTERM/SIGINT. */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(30),
});

export type Config = Readonly<z.infer<typeof ConfigSchema> & { dataDir: string }>;

export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid environment variables:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.name = 'ConfigError';
    this.problems = problems;
  }
}

/** Parses and validates the settings once; lists every bad variable at once. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = ConfigSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((issue) => {
      const name = issue.path.join('.');
      const value = env[name];
      return `${name}: ${issue.message}${value === undefined ? '' : ` (got "${value}")`}`;
    });
    throw new ConfigError(problems);
  }
  return Object.freeze({ ...parsed.data, dataDir: path.resolve(parsed.data.DATA_DIR) });
}
