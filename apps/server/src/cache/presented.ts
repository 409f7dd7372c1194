// Presentations of cached values, made once per value and reader's time zone. The status page polls the same
// cached rows many times; presenting them (times in the reader's zone, escaped tooltips) was most of such a
// request's work. Keyed by the values' identity in WeakMaps: when a cache drops a value (a change, its age),
// the next read is a new object and is presented anew, and the old presentations go with the old value.
// The values must not be changed in place.

/** How many time zones one value keeps presentations for (a handful of readers per user at most). */
const MAX_ZONES = 20;

export function createPresentedMemo<K extends readonly object[], P>(
  present: (keys: K, timeZone: string | null) => P,
) {
  // Nested WeakMaps, one level per key object; the last level maps the time zone to the presentation.
  const root = new WeakMap<object, unknown>();
  return (keys: K, timeZone: string | null): P => {
    let level = root;
    for (const k of keys.slice(0, -1)) {
      let next = level.get(k) as WeakMap<object, unknown> | undefined;
      if (!next) level.set(k, (next = new WeakMap()));
      level = next;
    }
    const last = keys[keys.length - 1]!;
    let byZone = level.get(last) as Map<string | null, P> | undefined;
    if (!byZone) level.set(last, (byZone = new Map()));
    if (byZone.has(timeZone)) return byZone.get(timeZone)!;
    const made = present(keys, timeZone);
    if (byZone.size < MAX_ZONES) byZone.set(timeZone, made);
    return made;
  };
}
