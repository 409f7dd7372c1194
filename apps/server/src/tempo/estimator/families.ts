// Metrical families: a tempo together with its halves and doubles. Choosing the family first keeps
// 3:2 and 3:1 errors rare (a family's evidence is pooled over octaves, so a dotted or triplet level
// wins only when the music really repeats at it); the octave is a separate, lesser question.
import { MAX_BPM, MIN_BPM, type SalienceCurve } from './salience.ts';

export interface Family {
  /** Representative tempo in [62.5, 125). */
  c: number;
  /** The best member's salience under the family prior. */
  score: number;
  /** The member with the best score. */
  best: number;
}

export interface FamilyChoice {
  /** The family with the most support. */
  top: Family;
  /** The family chosen: `top`, or a faster triple-related one (see below). */
  pick: Family;
  /** Set when `pick` is not `top`. */
  overridden: Family | null;
  /** The best family related to neither `pick` nor `overridden` by a power of two. */
  rival: Family | undefined;
}

/** Log-normal prior around the most common tapping rate, one octave wide. */
const PRIOR_CENTRE = 120;
const PRIOR_OCTAVES = 1;
/** A faster triple-related family wins with this share of the top family's support… */
const FASTER_SUPPORT = 0.5;
/** …this share of the slow pulse's own periodicity… */
const FASTER_OWN = 0.25;
/** …and this share of its continuity (it sounds on consecutive beats), up to this tempo. */
const FASTER_CONTINUITY = 0.2;
const FASTER_MAX_BPM = 220;
const STEP = 0.005;

export const logPrior = (bpm: number, centre: number, octaves: number) =>
  Math.exp(-0.5 * (Math.log2(bpm / centre) / octaves) ** 2);

/** True when a and b are the same tempo up to a power of two (within 4 %). */
export function octaveRelated(a: number, b: number): boolean {
  const r = Math.log2(a / b);
  return Math.abs(r - Math.round(r)) < Math.log2(1.04);
}

/** The members {c/2, c, 2c, 4c} of the family with representative c, within the tempo range. */
export const members = (c: number) => [c / 2, c, 2 * c, 4 * c].filter((m) => m >= MIN_BPM && m <= MAX_BPM);

export function familyOf(curve: SalienceCurve, bpm: number): Family {
  const c = 62.5 * 2 ** (((Math.log2(bpm / 62.5) % 1) + 1) % 1);
  let score = 0;
  let best = c;
  for (const m of members(c)) {
    const s = curve.at(m) * logPrior(m, PRIOR_CENTRE, PRIOR_OCTAVES);
    if (s > score) {
      score = s;
      best = m;
    }
  }
  return { c, score, best };
}

/** Rank the families on a salience curve and pick the beat's family; null if nothing repeats. */
export function chooseFamily(curve: SalienceCurve): FamilyChoice | null {
  const all: Family[] = [];
  for (let c = 62.5; c < 125; c *= 1 + STEP) all.push(familyOf(curve, c));
  // Local maxima around the octave circle (the family after the last is the first).
  const peaks = all.filter((f, i) => {
    const prev = all[(i + all.length - 1) % all.length] as Family;
    const next = all[(i + 1) % all.length] as Family;
    return f.score > 0 && f.score >= prev.score && f.score > next.score;
  });
  peaks.sort((x, y) => y.score - x.score);
  const top = peaks[0];
  if (!top) return null;

  // Pooling favours a slow family when the music has a triple level: the bar of a 3/4 or a dotted
  // pulse collects the bar's evidence, and the octave above the bar (2/3 of the beat) borrows it
  // although nothing sounds at its own period. A pulse three (or one and a half) times faster is the
  // beat when it has real periodicity of its own and sounds on consecutive beats nearly as reliably
  // as the slow pulse does: the beats of a waltz all sound, while a swing's triplet grid has an
  // empty middle slot, and a slow piano's dotted figures come and go. Both compare with the top
  // family's real pulse (its member that repeats most), not with a member that only borrows.
  let pick = top;
  let overridden: Family | null = null;
  const slow = members(top.c).reduce((a, b) => (curve.own(b) > curve.own(a) ? b : a));
  search: for (const ratio of [3, 1.5]) {
    for (const m of members(top.c)) {
      const near = m * ratio;
      if (near > FASTER_MAX_BPM) continue;
      let fast = near;
      for (let x = near * 0.98; x <= near * 1.02; x *= 1.002) if (curve.at(x) > curve.at(fast)) fast = x;
      const alt = familyOf(curve, fast);
      if (alt.score < FASTER_SUPPORT * top.score || curve.own(fast) < FASTER_OWN * curve.own(slow)) continue;
      // Above chance in any case: a slow pulse with no continuity either (solo piano) proves nothing.
      const continuity = curve.continuity(fast);
      if (continuity > 0 && continuity >= FASTER_CONTINUITY * curve.continuity(slow)) {
        pick = alt;
        overridden = top;
        break search;
      }
    }
  }
  const rival = peaks.find(
    (p) => !octaveRelated(p.c, pick.c) && !(overridden && octaveRelated(p.c, overridden.c)),
  );
  return { top, pick, overridden, rival };
}
