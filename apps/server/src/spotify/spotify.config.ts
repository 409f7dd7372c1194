import { z } from 'zod';
import { optionalString } from '../config.fields.ts';

/** A positive whole number, or `unlimited` (extended-quota apps); `unlimited` becomes `null`. */
const limit = (fallback: number) =>
  z
    .union([z.literal('unlimited'), z.coerce.number().int().min(1)])
    .default(fallback)
    .transform((v) => (v === 'unlimited' ? null : v));

/**
 * The Spotify settings, spread into the one config schema (config.ts).
 * With no SPOTIFY_CLIENT_ID the app runs in demo mode against the built-in simulated world.
 */
export const SpotifySettings = {
  /** The app's client id from the Spotify dashboard. Unset: demo mode (simulated Spotify in-process). */
  SPOTIFY_CLIENT_ID: optionalString.pipe(
    z
      .string()
      .regex(/^[A-Za-z0-9]{8,64}$/, 'must be the client id from the Spotify dashboard (letters and digits)')
      .optional(),
  ),
  /** Spotify's accounts service (authorize and token endpoints). */
  SPOTIFY_ACCOUNTS_URL: z.url({ protocol: /^https?$/ }).default('https://accounts.spotify.com'),
  /** Spotify's Web API base. */
  SPOTIFY_API_URL: z.url({ protocol: /^https?$/ }).default('https://api.spotify.com/v1'),
  /** Calls the app may make in any rolling 30 s (all processes together); `unlimited` for none. */
  SPOTIFY_RATE_PER_30S: limit(100),
  /** Calls the app may make in any rolling 24 h (the developer account's daily quota); `unlimited` for none. */
  SPOTIFY_DAILY_QUOTA: limit(1000),
  /** Time limit of one call to Spotify. */
  SPOTIFY_TIMEOUT_SECONDS: z.coerce.number().min(1).max(120).default(10),
  /**
   * Demo mode only: the share of calls to the simulated world that fail transiently (5xx, resets, slow
   * answers, writes failing after they landed), as real services do. 0 = none.
   */
  DEMO_TRANSIENT_FAILURES: z.coerce.number().min(0).max(0.2).default(0.005),
  /**
   * Demo mode only: the base URL of a simulated world already running on its own (`npm run sandbox`),
   * which every `serve` and `work` process then shares. Unset: each process starts one in-process.
   */
  DEMO_SANDBOX_URL: optionalString.pipe(z.url({ protocol: /^https?$/ }).optional()),
  /**
   * The admin token of the world at DEMO_SANDBOX_URL (what `npm run sandbox` prints, or its --admin-token).
   * Without DEMO_SANDBOX_URL: set, the in-process world's admin API requires it; unset, that API is open
   * to whoever reaches its port (the browser tests and benchmarks drive it).
   */
  DEMO_SANDBOX_ADMIN_TOKEN: optionalString,
  /**
   * Demo mode without DEMO_SANDBOX_URL: the port of the in-process world on 127.0.0.1, so that the browser
   * tests and benchmarks find its admin API (runners reach its consent page through the app). 0: any free port.
   */
  DEMO_SANDBOX_PORT: z.coerce.number().int().min(0).max(65535).default(0),
  /**
   * Key that encrypts Spotify tokens at rest: 32 bytes as base64 or 64 hex digits.
   * Unset: `<DATA_DIR>/secret.key`, created with mode 0600 on first start.
   */
  TOKEN_ENCRYPTION_KEY: optionalString.pipe(
    z
      .string()
      .refine(
        (v) => /^[0-9a-fA-F]{64}$/.test(v) || Buffer.from(v, 'base64').length === 32,
        'must be 32 bytes as base64 or 64 hex digits',
      )
      .optional(),
  ),
};

export const SpotifyConfigSchema = z.object(SpotifySettings);
export type SpotifyConfig = z.infer<typeof SpotifyConfigSchema>;
