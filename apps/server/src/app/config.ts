import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';
import { commaList, optionalString } from '../config.fields.ts';
import { ConfigError } from '../errors.ts';
import { AccountsSettingsSchema } from '../accounts/accounts.config.ts';
import { appOrigins, OriginSettingsError } from '../http/origins.ts';
import { MetricsSettings, metricsSettingsProblem } from '../metrics/metrics.config.ts';
import { LibrarySettingsSchema } from '../library/library.config.ts';
import { SpotifySettings } from '../spotify/spotify.config.ts';
import { TempoSettings } from '../tempo/tempo.config.ts';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');

const port = z.coerce.number().int().min(0).max(65535);

/**
 * Every setting Pacebeat reads, from the environment (and an optional `.env`).
 * Defaults are the embedded mode's: one process, its own PostgreSQL in `<DATA_DIR>/pg`.
 * The settings table in docs/settings.md mirrors this schema (config.test.ts checks it).
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
  /**
   * Connections of this process's pool. Queries beyond them wait; a connection is held until the process's
   * event loop takes the answer, so a busy `serve` needs more than its queries' database time suggests.
   */
  DATABASE_POOL_SIZE: z.coerce.number().int().min(2).max(100).default(10),
  /** pino log level. */
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  /** Folder holding the built web app (`vite build`). */
  WEB_DIST_DIR: z
    .string()
    .trim()
    .min(1)
    .default(path.join(repoRoot, 'apps/web/dist'))
    .transform((dir) => path.resolve(dir)), // a relative folder is the working folder's
  /** Public origin of the app when it is served behind a proxy, e.g. https://pace.example.org. */
  PUBLIC_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /** More origins the app answers at (comma-separated), e.g. a second name or the Vite dev server. */
  ALLOWED_ORIGINS: commaList(z.url({ protocol: /^https?$/ })),
  /**
   * Behind a reverse proxy: whom to believe about the client's address and scheme (X-Forwarded-For,
   * X-Forwarded-Proto): `true` (the nearest proxy, whatever it is), a number of proxy hops, or
   * comma-separated proxy addresses/CIDRs (e.g. `127.0.0.1,::1`). Default: no one.
   */
  TRUST_PROXY: z
    .string()
    .trim()
    .default('false')
    .transform((v): boolean | string[] | ((address: string, hop: number) => boolean) => {
      if (v === '' || v === 'false') return false;
      if (v === 'true') return true;
      if (/^\d+$/.test(v)) {
        const hops = Number(v);
        return (_address, hop) => hop < hops;
      }
      return v
        .split(',')
        .map((a) => a.trim())
        .filter(Boolean);
    }),
  /** Seconds that in-flight requests and jobs get to finish on SIGTERM/SIGINT. */
  SHUTDOWN_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(600).default(30),

  // Accounts (src/accounts/accounts.config.ts)
  ...AccountsSettingsSchema,

  // Spotify (src/spotify/spotify.config.ts)
  ...SpotifySettings,

  // Tempo services (src/tempo/tempo.config.ts)
  ...TempoSettings,

  // Prometheus metrics (src/metrics/metrics.config.ts)
  ...MetricsSettings,
  // Library scans (src/library/library.config.ts)
  ...LibrarySettingsSchema,

  // Target playlists' writer (docs/operating.md "Scale-out")
  /** Matches short of a full add of 100 wait at most this long for others to share their call. */
  PLAYLIST_ADD_WAIT_SECONDS: z.coerce.number().int().min(0).max(86_400).default(120),
  /**
   * How long a writer's lease on a user lasts without renewal (a live run renews it before every write and
   * every third of this): a writer whose process died blocks that user's playlists at most this long.
   */
  PLAYLIST_WRITER_LEASE_SECONDS: z.coerce.number().int().min(30).max(3600).default(60),
});

/** Every setting's name (docs/settings.md has a row for each). */
export const SETTING_NAMES: readonly string[] = Object.keys(ConfigSchema.shape);

export type Config = Readonly<
  z.infer<typeof ConfigSchema> & { dataDir: string; authProvider: 'local' | 'firebase' }
>;

// In errors.ts, as the database and the token key throw it too; here for loadConfig's callers.
export { ConfigError };

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
  const d = parsed.data;
  const firebaseParts = [d.FIREBASE_PROJECT_ID, d.FIREBASE_WEB_CONFIG].filter((v) => v !== undefined).length;
  if (firebaseParts === 1) {
    throw new ConfigError([
      'FIREBASE_PROJECT_ID and FIREBASE_WEB_CONFIG: set both (Firebase sign-in) or neither',
    ]);
  }
  if (d.SESSION_IDLE_HOURS > d.SESSION_ABSOLUTE_HOURS) {
    throw new ConfigError(['SESSION_IDLE_HOURS: must not exceed SESSION_ABSOLUTE_HOURS']);
  }
  const metricsProblem = metricsSettingsProblem(d);
  if (metricsProblem) throw new ConfigError([metricsProblem]);
  try {
    appOrigins(d);
  } catch (err) {
    if (err instanceof OriginSettingsError) throw new ConfigError([`PUBLIC_URL: ${err.message}`]);
    throw err;
  }
  return Object.freeze({
    ...d,
    dataDir: path.resolve(d.DATA_DIR),
    authProvider: firebaseParts === 2 ? ('firebase' as const) : ('local' as const),
  });
}
