// Accuracy measures for tempo estimates, all with a 4 % tolerance.
export const TOLERANCE = 0.04;

const within = (est: number, truth: number) => Math.abs(est - truth) <= TOLERANCE * truth;
const anyFactor = (est: number, truth: number, factors: number[]) =>
  factors.some((f) => within(est, truth * f));

/** Right tempo. */
export const acc1 = (est: number | null, truth: number) => est !== null && within(est, truth);
/** Right up to ×2, ×3, ×½, ×⅓ (the MIREX "Accuracy 2"). */
export const acc2 = (est: number | null, truth: number) =>
  est !== null && anyFactor(est, truth, [1, 2, 3, 1 / 2, 1 / 3]);
/** Right for running: ×1, ×2 or ×½ only (a 3:2 or 3:1 error puts the runner off the beat). */
export const accRun = (est: number | null, truth: number) =>
  est !== null && anyFactor(est, truth, [1, 2, 1 / 2]);

/** Relative error after the best of ×1, ×2, ×½. */
export function foldedError(est: number, truth: number): number {
  return Math.min(...[1, 2, 0.5].map((f) => Math.abs(est - truth * f) / (truth * f)));
}

export function median(xs: number[]): number {
  if (xs.length === 0) return NaN;
  const s = [...xs].sort((a, b) => a - b);
  const m = Math.floor(s.length / 2);
  return s.length % 2 ? (s[m] as number) : ((s[m - 1] as number) + (s[m] as number)) / 2;
}

export interface Row {
  n: number;
  acc1: number;
  acc2: number;
  accRun: number;
  medianErr: number;
  noAnswer: number;
  msPerClip: number;
}

export function summarise(items: { truth: number; bpm: number | null; ms: number }[]): Row {
  const n = items.length;
  const frac = (f: (x: { truth: number; bpm: number | null }) => boolean) =>
    items.filter(f).length / Math.max(1, n);
  const answered = items.filter((x) => x.bpm !== null);
  return {
    n,
    acc1: frac((x) => acc1(x.bpm, x.truth)),
    acc2: frac((x) => acc2(x.bpm, x.truth)),
    accRun: frac((x) => accRun(x.bpm, x.truth)),
    medianErr: median(answered.map((x) => foldedError(x.bpm as number, x.truth))),
    noAnswer: frac((x) => x.bpm === null),
    msPerClip: items.reduce((s, x) => s + x.ms, 0) / Math.max(1, n),
  };
}
