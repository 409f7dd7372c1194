// The `timestamp_*_str` fields: a time as the user reads it, in their time zone (the browser's, given
// at sign-in), in English. An unknown or missing zone falls back to UTC, and says so.
const formats = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string): Intl.DateTimeFormat | null {
  let f = formats.get(timeZone);
  if (f) return f;
  try {
    f = new Intl.DateTimeFormat('en-GB', {
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
  if (formats.size < 500) formats.set(timeZone, f);
  return f;
}

/** E.g. "23 Nov 2026, 14:05"; "23 Nov 2026, 13:05 UTC" without a usable time zone. */
export function formatLocalTime(at: Date, timeZone: string | null | undefined): string {
  const f = timeZone ? formatter(timeZone) : null;
  return f ? f.format(at) : `${formatter('UTC')!.format(at)} UTC`;
}
