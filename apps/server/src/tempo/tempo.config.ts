// Tempo settings, spread into the one config schema (config.ts): every outside service's base URL,
// its pace, and how long negative results are kept.
import { z } from 'zod';
import { commaList, optionalString } from '../config.fields.ts';

const baseUrl = (fallback: string) =>
  z
    .url({ protocol: /^https?$/ })
    .default(fallback)
    .transform((v) => v.replace(/\/+$/, ''));
const rate = (fallback: number) => z.coerce.number().positive().max(10_000).default(fallback);

export const TempoSettings = {
  /** Deezer's public API (tempo by ISRC or search, and 30 s previews). */
  DEEZER_API_URL: baseUrl('https://api.deezer.com'),
  /** Deezer calls per second, all processes together (Deezer allows about 50 per 5 s). */
  DEEZER_RATE_PER_SECOND: rate(8),
  /**
   * Hosts (and their subdomains) previews may be downloaded from, comma-separated; the host of
   * DEEZER_API_URL is always allowed too. Deezer serves previews from *.dzcdn.net.
   */
  DEEZER_PREVIEW_HOSTS: commaList(
    z.string().regex(/^[a-z0-9.-]+$/, 'a host name such as dzcdn.net'),
    'dzcdn.net',
  ),
  /** Preview downloads per second, all processes together. */
  PREVIEW_RATE_PER_SECOND: rate(8),
  /** ReccoBeats' API (Spotify id → tempo, batched). */
  RECCOBEATS_API_URL: baseUrl('https://api.reccobeats.com/v1'),
  /** ReccoBeats calls per minute, all processes together (its limits are unpublished). */
  RECCOBEATS_RATE_PER_MINUTE: rate(100),
  /** GetSongBPM's API; used only with GETSONGBPM_API_KEY. */
  GETSONGBPM_API_URL: baseUrl('https://api.getsong.co'),
  /** Free key from getsongbpm.com/api. With it the web app shows the required link to getsongbpm.com. */
  GETSONGBPM_API_KEY: optionalString,
  /** GetSongBPM calls per hour, all processes together (the free key allows 3000). */
  GETSONGBPM_RATE_PER_HOUR: rate(2800),
  /** Time limit of one call to a tempo service or one preview download. */
  TEMPO_TIMEOUT_SECONDS: z.coerce.number().min(1).max(120).default(10),
  /** Days before a track no source knows is looked up again. */
  TEMPO_RETRY_UNKNOWN_DAYS: z.coerce.number().min(1).max(365).default(30),
};

export const TempoConfigSchema = z.object(TempoSettings);
export type TempoConfig = z.infer<typeof TempoConfigSchema>;
