// The `timestamp_*_str` fields: a time as the user reads it, in their time zone (the browser's, given
// at sign-in) and in the reader's locale (the request's Accept-Language: the web app formats its own times
// with the same options in the browser's locale, so every time on screen has one style); English
// (en-GB) without one. An unknown or missing zone falls back to UTC, and says so.
const formats = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string, locale = 'en-GB'): Intl.DateTimeFormat | null {
  const key = `${locale}|${timeZone}`;
  let f = formats.get(key);
  if (f) return f;
  try {
    f = new Intl.DateTimeFormat(locale, {
      timeZone,
      year: 'numeric',
      month: 'short',
      day: 'numeric',
      hour: '2-digit',
      minute: '2-digit',
    });
  } catch {
    return null; // not an IANA zone this runtime knows
  }
  if (formats.size < 500) formats.set(key, f);
  return f;
}

/**
 * E.g. "23 Nov 2026, 14:05" ("Nov 23, 2026, 02:05 PM" for en-US); "23 Nov 2026, 13:05 UTC" without a usable
 * time zone. `timeZone` may be a reader key (see readerKey): the zone and the locale in one string.
 */
export function formatLocalTime(at: Date, timeZone: string | null | undefined): string {
  const [zone, locale] = timeZone?.includes('\n') ? timeZone.split('\n') : [timeZone, undefined];
  const f = zone ? formatter(zone, locale) : null;
  return f ? f.format(at) : `${formatter('UTC', locale)!.format(at)} UTC`;
}

/**
 * The reader of a reply's times as one string (the presentation caches are keyed by it): their time zone
 * and, when the request names a locale this runtime knows (Accept-Language's first tag), that locale.
 */
export function readerKey(timeZone: string | null, acceptLanguage: string | undefined): string | null {
  const tag = acceptLanguage?.split(',')[0]?.split(';')[0]?.trim().slice(0, 35);
  if (!tag || tag === '*') return timeZone;
  let locale: string | undefined;
  try {
    locale = Intl.DateTimeFormat.supportedLocalesOf([tag])[0];
  } catch {
    locale = undefined; // not a well-formed language tag
  }
  return locale ? `${timeZone ?? ''}\n${locale}` : timeZone;
}
