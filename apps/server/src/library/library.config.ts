// Library settings, spread into the one config schema (config.ts): how often libraries are rescanned,
// and what an artist catalog includes.
import { z } from 'zod';
import { commaList } from '../config.fields.ts';

const GROUPS = ['album', 'single', 'appears_on', 'compilation'] as const;

export const LibrarySettingsSchema = {
  /** Every connected library is rescanned (incrementally) this often. */
  LIBRARY_RESCAN_HOURS: z.coerce.number().min(0.25).max(720).default(6),
  /**
   * `include_groups` of the artist catalogs: `album`, `single`, `appears_on`, `compilation`. The default
   * leaves out compilations and "appears on", which mostly repeat recordings already found (docs/architecture.md).
   */
  LIBRARY_CATALOG_GROUPS: commaList(z.enum(GROUPS), 'album,single')
    .refine((l) => l.length > 0, 'name at least one of album, single, appears_on, compilation')
    // Spotify's own order, so the same setting always gives the same listing.
    .transform((l) => GROUPS.filter((g) => l.includes(g)).join(',')),
  /** A read artist catalog is checked for new releases after this many days. */
  LIBRARY_CATALOG_RECHECK_DAYS: z.coerce.number().min(1).max(365).default(30),
};

export const LibraryConfigSchema = z.object(LibrarySettingsSchema);
export type LibraryConfig = z.infer<typeof LibraryConfigSchema>;
