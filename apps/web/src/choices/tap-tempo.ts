// Tap tempo: the runner taps along with the beat and the page computes the BPM. Pure, so it is tested
// apart from the dialog. Robust to a stray tap: the typical interval is the median; a tap that comes far
// too soon after the last (a double tap) is dropped, a gap of whole beats (a missed tap) counts as that
// many beats, and anything else far from the median is left out before averaging.

/** Taps needed before a tempo is shown (three intervals). */
export const MIN_TAPS = 4;
/** A pause longer than this starts a new count (the runner stopped and started again). */
export const RESTART_AFTER_MS = 2000;
/** Intervals further than this share from the median are strays. */
const STRAY = 0.25;

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? s[m]! : (s[m - 1]! + s[m]!) / 2;
};

/** The taps to keep when a tap comes at `at` (ms): a long pause starts over; at most the last 16 count. */
export function addTap(taps: readonly number[], at: number): number[] {
  const last = taps[taps.length - 1];
  if (last !== undefined && (at - last > RESTART_AFTER_MS || at < last)) return [at];
  return [...taps, at].slice(-16);
}

/** The tempo of the taps (ms timestamps, in order) in BPM to 0.1, or null with fewer than MIN_TAPS. */
export function bpmFromTaps(taps: readonly number[]): number | null {
  if (taps.length < MIN_TAPS) return null;
  const intervals = taps.slice(1).map((t, i) => t - taps[i]!);
  const typical = median(intervals);
  if (!(typical > 0)) return null;
  const kept = [taps[0]!];
  for (const t of taps.slice(1)) if (t - kept[kept.length - 1]! >= (1 - STRAY) * typical) kept.push(t);
  const beats: number[] = [];
  for (let i = 1; i < kept.length; i++) {
    const d = kept[i]! - kept[i - 1]!;
    const n = Math.max(1, Math.round(d / typical));
    if (Math.abs(d / n - typical) <= STRAY * typical) beats.push(d / n);
  }
  if (beats.length < MIN_TAPS - 1) return null;
  const mean = beats.reduce((a, b) => a + b, 0) / beats.length;
  return Math.round((60_000 / mean) * 10) / 10;
}
