// Field types shared by the setting groups that config.ts joins into one schema (config.ts and the
// modules' *.config.ts), so every setting of a kind is read the same way.
import { z } from 'zod';

/** A trimmed string; empty counts as unset. */
export const optionalString = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v === '' ? undefined : v));

/** A comma-separated list, trimmed and lower-cased, empty entries dropped; each entry checked by `item`. */
export const commaList = <T extends z.ZodType<unknown, string>>(item: T, fallback = '') =>
  z
    .string()
    .default(fallback)
    .transform((v) =>
      v
        .split(',')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(item));
