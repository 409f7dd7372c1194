// Presets for a target's BPM range. Runners think in steps per minute (cadence) or in pace (min/km,
// min/mile); a song fits a stride when its beat matches the cadence, so both become a BPM range around
// a cadence.
//
// Pace → cadence: a runner speeds up mostly by lengthening the stride, and the cadence rises only a
// little. Pacebeat assumes cadence ∝ speed^0.2 (about +3 steps/min per km/h around easy paces), scaled
// from the runner's own cadence at their usual pace, which they enter once (kept in this browser).
import { TARGET_BPM_MAX, TARGET_BPM_MIN } from '@pacebeat/contract/rules';

/** Half the width of a preset's range: a cadence of 170 gives 165–175 BPM. */
export const CADENCE_HALF_WIDTH = 5;
/** How strongly cadence follows speed (cadence ∝ speed^exponent). */
export const CADENCE_SPEED_EXPONENT = 0.2;
export const KM_PER_MILE = 1.609344;

export type PaceUnit = 'km' | 'mile';

export interface RunnerReference {
  /** The runner's usual pace, in seconds per `unit`. */
  paceS: number;
  unit: PaceUnit;
  /** Their cadence (steps per minute) at that pace. */
  cadence: number;
}

export const DEFAULT_REFERENCE: RunnerReference = { paceS: 6 * 60, unit: 'km', cadence: 165 };

const clamp = (n: number) => Math.min(TARGET_BPM_MAX, Math.max(TARGET_BPM_MIN, n));

/** The range a cadence preset gives: [cadence − 5, cadence + 5), kept within 60–220. */
export function rangeForCadence(cadence: number): { min: number; max: number } {
  const c = Math.round(cadence);
  return { min: clamp(c - CADENCE_HALF_WIDTH), max: clamp(c + CADENCE_HALF_WIDTH) };
}

/** Seconds per km of a pace in either unit. */
export const secondsPerKm = (paceS: number, unit: PaceUnit) => (unit === 'km' ? paceS : paceS / KM_PER_MILE);

/** The cadence expected at a pace, from the runner's cadence at their usual pace. */
export function cadenceAtPace(paceS: number, unit: PaceUnit, ref: RunnerReference): number {
  const speedRatio = secondsPerKm(ref.paceS, ref.unit) / secondsPerKm(paceS, unit);
  return ref.cadence * speedRatio ** CADENCE_SPEED_EXPONENT;
}

/** "5:30" or "5.5"-free input: minutes and seconds → seconds; null when it is not a pace. */
export function parsePace(text: string): number | null {
  const m = /^\s*(\d{1,2}):([0-5]\d)\s*$/.exec(text);
  if (!m) return null;
  const s = Number(m[1]) * 60 + Number(m[2]);
  return s >= 120 && s <= 20 * 60 ? s : null;
}

export const formatPace = (s: number) =>
  `${Math.floor(s / 60)}:${String(Math.round(s % 60)).padStart(2, '0')}`;

/** A pace preset: its range and a name that says the pace. */
export function paceTarget(paceS: number, unit: PaceUnit, ref: RunnerReference) {
  const cadence = cadenceAtPace(paceS, unit, ref);
  const { min, max } = rangeForCadence(cadence);
  return {
    min,
    max,
    cadence: Math.round(cadence),
    name: `Pace ${formatPace(paceS)}/${unit} (${min}–${max} BPM)`,
  };
}

const STORAGE_KEY = 'pacebeat.runnerReference';

/** The runner's reference, as last entered in this browser. */
export function loadReference(
  storage: Pick<Storage, 'getItem'> | undefined = globalThis.localStorage,
): RunnerReference {
  try {
    const v = JSON.parse(storage?.getItem(STORAGE_KEY) ?? 'null') as Partial<RunnerReference> | null;
    if (
      v &&
      typeof v.paceS === 'number' &&
      typeof v.cadence === 'number' &&
      (v.unit === 'km' || v.unit === 'mile')
    )
      return { paceS: v.paceS, unit: v.unit, cadence: v.cadence };
  } catch {
    // A broken value: the default.
  }
  return DEFAULT_REFERENCE;
}

export function saveReference(
  ref: RunnerReference,
  storage: Pick<Storage, 'setItem'> | undefined = globalThis.localStorage,
) {
  try {
    storage?.setItem(STORAGE_KEY, JSON.stringify(ref));
  } catch {
    // Storage refused (private mode): the reference lasts for this page only.
  }
}
