// The meter the audio plays: how the bar's accents repeat, counted in the beats the tempo estimate found.
// A bar's strong beat (the kick, the bass, a chord change) comes back after 3 beats in a waltz, after 2
// and 4 in 4/4, after 5 in 5/4 and after 3½ in 7/8. Its autocorrelation in the low bands, where those
// accents are, peaks at that lag above the lags a beat either side. The beat may be the estimate's double
// or half (it is right for running up to a factor of 2), so each grouping is tried at those octaves too.
// Here a 6/8 is duple like a shuffled 4/4 (the bar's accents are the same); estimate.ts then tells it by
// its beat's thirds.
import type { Meter } from '@pacebeat/contract';
import type { OnsetEnvelopes } from './onset.ts';
import { autocorrelation, peakNear } from './periodicity.ts';

export interface MeterEstimate {
  /** '4/4' for any duple feel (4/4, 2/4, 6/8, a shuffle); null when the bar's accents show nothing. */
  meter: Meter | null;
  /** 0..1: how far the winning grouping stands above the others. */
  strength: number;
  /** The score of each grouping (for the benchmark's failure list and tuning). */
  scores: { duple: number; triple: number; five: number; seven: number };
}

/** Bar lags, in beats of the estimate, for each grouping at the estimate's half, own and double beat. */
const GROUPINGS = {
  duple: [2, 4],
  triple: [1.5, 3, 6],
  five: [2.5, 5],
  seven: [3.5, 7],
} as const;
/** A grouping is heard when its bar lag's autocorrelation stands this far above its neighbours'. */
const MIN_LEAD = 0.06;
/** …and it reaches full strength this far above the best other grouping. */
const FULL_MARGIN = 0.2;
const TOLERANCE = 0.02;

const clamp01 = (x: number) => Math.max(0, Math.min(1, x));

/**
 * The meter of the music in `env` at tempo `bpm` (the estimator's answer). Cheap: one autocorrelation of
 * the low bands up to about eight beats.
 */
export function estimateMeter(env: OnsetEnvelopes, bpm: number): MeterEstimate {
  const beat = (60 * env.rate) / bpm;
  const maxLag = Math.min(Math.ceil(8.5 * beat), Math.floor(env.low.length / 2));
  const acf = autocorrelation([env.low], maxLag);
  const a = (beats: number) => (beats * beat < acf.length - 2 ? peakNear(acf, beats * beat, TOLERANCE) : NaN);
  /**
   * How far bar lag k (g beats of the grouping) stands above the lags one of those beats either side
   * (k·(g−1)/g and k·(g+1)/g).
   */
  const lead = (k: number, g: number) => a(k) - (a((k * (g - 1)) / g) + a((k * (g + 1)) / g)) / 2;
  const best = (ks: readonly number[], g: (k: number) => number) => {
    const v = ks.map((k) => lead(k, g(k))).filter((x) => Number.isFinite(x));
    return v.length > 0 ? Math.max(...v) : -1;
  };
  const scores = {
    // A bar of 2 or 4 beats: against the beat either side (1 and 3, 3 and 5).
    duple: best(GROUPINGS.duple, (k) => k),
    triple: best(GROUPINGS.triple, () => 3),
    five: best(GROUPINGS.five, () => 5),
    seven: best(GROUPINGS.seven, () => 7),
  };
  const odd: Array<[Meter, number]> = [
    ['3/4', scores.triple],
    ['5/4', scores.five],
    ['7/8', scores.seven],
  ];
  odd.sort((x, y) => y[1] - x[1]);
  const [top, second] = odd as [[Meter, number], [Meter, number]];
  const round = (x: number) => Math.round(x * 1000) / 1000;
  const out = (meter: Meter | null, strength: number): MeterEstimate => ({
    meter,
    strength: round(clamp01(strength)),
    scores: {
      duple: round(scores.duple),
      triple: round(scores.triple),
      five: round(scores.five),
      seven: round(scores.seven),
    },
  });
  if (top[1] >= MIN_LEAD && top[1] > scores.duple) {
    const rival = Math.max(second[1], scores.duple, 0);
    return out(top[0], (top[1] - rival) / FULL_MARGIN);
  }
  // Duple: the bar's accents come back after 2 or 4 beats, and nothing odd stands out.
  return out('4/4', (Math.max(scores.duple, 0) - Math.max(top[1], 0) + MIN_LEAD) / FULL_MARGIN);
}
