// Which tracks go to which target: pure functions, no I/O. A track fits a target when its tempo, its
// double or its half lies in [min, max) (a runner at 170 steps/min runs to an 85 BPM song), and only a
// tempo the resolver is confident about is used (see MIN_CONFIDENCE).
import type { Meter, OtherMeter } from '@pacebeat/contract';
import type { TempoAlternative } from '../db/tempo.schema.ts';
import { agreedSpan, type TempoSpan } from '../tempo/span.ts';
import type { CachedTempo } from '../tempo/tempo.repository.ts';
import type { MatchCandidate } from './candidates.ts';
import { excludedBy, NO_CHOICES, type RunnerChoices } from './runner-choices.ts';
import { SongSet, type SongRef } from './song-identity.ts';

/** The targets every user gets on connect: running cadences, 10 BPM apart. */
export const DEFAULT_TARGETS: ReadonlyArray<{ minBpm: number; maxBpm: number }> = [
  { minBpm: 150, maxBpm: 160 },
  { minBpm: 160, maxBpm: 170 },
  { minBpm: 170, maxBpm: 180 },
  { minBpm: 180, maxBpm: 190 },
];

/**
 * A tempo below this confidence is not placed. The resolver's confidence (tempo/decide.ts) means: a
 * *checked* tempo (two independent sources agree, up to a factor of 2, or a source and the audio; or a
 * 3:2 dispute the audio's clear answer settled) 0.8–0.99 (0.75 for a GetSongBPM value that only won a
 * dispute), an unchecked one less: a lone source 0.6–0.75 (its confidence − 0.15), the audio alone
 * ≤ 0.7, anything at 3:2 or against the audio ≤ 0.6. 0.76 places checked tempos only.
 * bench/RESULTS.md "From docs/how-it-works.md: the target playlists, measured" has the figures behind it.
 */
export const MIN_CONFIDENCE = 0.76;

/** True when bpm, its double or its half lies in [min, max). */
export function fitsRange(bpm: number, minBpm: number, maxBpm: number): boolean {
  return [bpm, bpm * 2, bpm / 2].some((b) => b >= minBpm && b < maxBpm);
}

/**
 * The error of a tempo nothing narrows (one value, or values that do not overlap): a source's noise (the
 * simulated ones ±0.4 %; the audio 0.16 % median, 0.37 % at the 95th percentile). Values that agree
 * narrow it (tempo/span.ts). The figures: bench/RESULTS.md, "the target playlists, measured".
 */
export const EDGE_MARGIN = 0.004;

/**
 * Where a tempo's true value lies: the runner's correction exactly as given; a measured tempo within what
 * its agreeing sources allow (tempo/span.ts), or within EDGE_MARGIN either side when nothing narrows it.
 */
export function spanOf(
  bpm: number,
  corrected: boolean,
  alternatives: readonly TempoAlternative[] = [],
): TempoSpan {
  if (corrected) return { bpm, lo: bpm, hi: bpm };
  return agreedSpan(bpm, alternatives) ?? { bpm, lo: bpm * (1 - EDGE_MARGIN), hi: bpm * (1 + EDGE_MARGIN) };
}

/**
 * A measured tempo this close below a round min (relative) goes into its range when its span reaches the
 * min: a song at 160 measured 159.8 belongs to 160–170, and the range below leaves it out (its span
 * reaches that range's max). Narrower than a lone value's margin, so a song truly a little under the min
 * seldom comes in: on 831 fitting songs of the simulated world, 0.2 % placed 26 more rightly and 3 wrongly,
 * 0.3 % 31 and 5, 0.4 % 32 and 9 (bench/playlist-truth/README.md, "Recall: what is left out"). Values that
 * agree on 159.7 closely (a span under 160) say the song is not at 160: no slack then; nor for a runner's
 * own correction, which is exact.
 */
export const ROUND_SLACK = 0.002;

/**
 * Whether a tempo goes into [min, max): at or above the min (or just under a round min its span reaches,
 * ROUND_SLACK), and all its span under the max. Songs are often at a round tempo (half of them in the
 * simulated world): a song at 160 measured 159.5 belongs to 160–170, so a tempo whose span reaches a max is
 * not placed under it; three sources that agree on 159.5 say it is not 160. Just above a min there is no
 * such mass below it, so the tempo itself decides there (taking a whole lone span across a round min, 0.4 %,
 * placed songs at 149.6 in 150–160 as often as songs at 150: bench/playlist-truth/README.md).
 */
function spanWithin(bpm: number, hi: number, minBpm: number, maxBpm: number): boolean {
  const fromMin = bpm >= minBpm || (bpm >= minBpm * (1 - ROUND_SLACK) && hi >= minBpm);
  return fromMin && hi < maxBpm;
}

/** The factor a tempo goes into [min, max) at (1, 2: half time, 0.5: double time), or null. */
export function spanFactor(
  t: Pick<TempoSpan, 'bpm' | 'hi'>,
  minBpm: number,
  maxBpm: number,
): 1 | 2 | 0.5 | null {
  for (const f of [1, 2, 0.5] as const) if (spanWithin(t.bpm * f, t.hi * f, minBpm, maxBpm)) return f;
  return null;
}

/** Whether a (trusted) tempo goes into a target, as it is, doubled or halved. */
export function placeable(t: Pick<TempoSpan, 'bpm' | 'hi'>, minBpm: number, maxBpm: number): boolean {
  return spanFactor(t, minBpm, maxBpm) !== null;
}

export type TempoFact = Pick<CachedTempo, 'bpm' | 'confidence'> &
  Partial<Pick<CachedTempo, 'resolvedAt' | 'meter' | 'alternatives'>>;

/** The tempo to match with, or null when it is unknown or too uncertain to trust. */
export function trustedBpm(t: TempoFact | undefined, minConfidence = MIN_CONFIDENCE): number | null {
  if (!t || t.bpm === null || !(t.bpm > 0)) return null;
  return t.confidence >= minConfidence ? t.bpm : null;
}

const bpmText = (n: number) => (Number.isInteger(n) ? String(n) : n.toFixed(1));

/** The target's (and its playlist's) name. */
export const targetName = (minBpm: number, maxBpm: number) =>
  `Pacebeat ${bpmText(minBpm)}–${bpmText(maxBpm)} BPM`;

/** The playlist's description in Spotify: what it is and how it behaves. */
export const targetDescription = (minBpm: number, maxBpm: number) =>
  `Songs from your library at ${bpmText(minBpm)}–${bpmText(maxBpm)} BPM, or half or double that, for running ` +
  `at that cadence. Pacebeat adds new ones as it finds their tempo; a song you remove is not added again.`;

const BPM_TEXT = String.raw`(\d{1,3}(?:\.\d)?)`;
const BY_DESCRIPTION = new RegExp(
  String.raw`^Songs from your library at ${BPM_TEXT}[–-]${BPM_TEXT} BPM\b[\s\S]*\bPacebeat\b`,
);
const BY_NAME = new RegExp(String.raw`^Pacebeat ${BPM_TEXT}[–-]${BPM_TEXT} BPM$`);

/**
 * The range of a playlist Pacebeat made (this connection's or an earlier one's), read from the description
 * it writes (`targetDescription`, kept up to date on every rename or new range, so a playlist the runner
 * renamed is still known) or, failing that, its default name; null for any other playlist.
 */
export function pacebeatRange(p: {
  name: string | null;
  description: string | null;
}): { minBpm: number; maxBpm: number } | null {
  const m = BY_DESCRIPTION.exec(p.description?.trim() ?? '') ?? BY_NAME.exec(p.name?.trim() ?? '');
  if (!m) return null;
  const [minBpm, maxBpm] = [Number(m[1]), Number(m[2])];
  return minBpm < maxBpm ? { minBpm, maxBpm } : null;
}

export interface TargetRange extends Partial<TargetFilters> {
  id: string;
  minBpm: number;
  maxBpm: number;
}

/** A target's filters; absent ones let every track through. */
export interface TargetFilters {
  /** Leave out tracks Spotify marks explicit. */
  noExplicit: boolean;
  /** Duration limits, inclusive; null: none. */
  minDurationMs: number | null;
  maxDurationMs: number | null;
  /** Only tracks of the user's Liked Songs (not their playlists or the catalogs). */
  likedOnly: boolean;
  /** Meters other than 4/4 the target takes; absent or empty: none. */
  metersIncluded: OtherMeter[];
}

/**
 * The meter that keeps a track out of a target, or null. A stride is two steps: in a bar of 3 (or 5)
 * beats the strong beat falls on the left foot in one bar and on the right in the next, in 7/8 the bar
 * is uneven, and in 6/8 each beat splits in three against the two steps (docs/how-it-works.md, "Meter").
 * So only 4/4 (and a song nobody gave a meter: most likely 4/4) goes in, unless the target takes it.
 */
export function meterLeftOut(f: Partial<TargetFilters>, meter: Meter | null | undefined): OtherMeter | null {
  if (!meter || meter === '4/4') return null;
  return f.metersIncluded?.includes(meter) ? null : meter;
}

type FilteredTrack = Pick<MatchCandidate, 'explicit' | 'durationMs' | 'fromLikedSongs'>;

/** Which of the target's filters leaves the track out (the first that does), or null when it passes them all. */
export function filteredBy(
  f: Partial<TargetFilters>,
  c: FilteredTrack,
): 'explicit' | 'not_liked' | 'duration' | null {
  if (f.noExplicit && c.explicit) return 'explicit';
  if (f.likedOnly && !c.fromLikedSongs) return 'not_liked';
  if (f.minDurationMs != null && c.durationMs < f.minDurationMs) return 'duration';
  if (f.maxDurationMs != null && c.durationMs > f.maxDurationMs) return 'duration';
  return null;
}

/** True when the track passes the target's filters. */
export const passesFilters = (f: Partial<TargetFilters>, c: FilteredTrack): boolean =>
  filteredBy(f, c) === null;

/**
 * The one rule for "this track belongs in this target": its tempo is placeable in the range and it passes
 * the filters. A measured tempo's span (spanOf) decides at the range's edges; the runner's own correction
 * is taken as they gave it.
 */
export const acceptsTrack = (
  t: TargetRange,
  c: FilteredTrack,
  tempo: Pick<TempoSpan, 'bpm' | 'hi'>,
  meter: Meter | null = null,
): boolean => placeable(tempo, t.minBpm, t.maxBpm) && passesFilters(t, c) && !meterLeftOut(t, meter);

/**
 * The tracks that belong in each target now (whatever is placed already): what a requested removal is
 * checked against (`SongSet.hasTrack`: by track id or recording key, not by version), so Pacebeat removes
 * only what no longer fits and never re-adds it while it does not. `bpmOf` is the tempo a candidate is
 * matched with (null: none), the same one planAdds uses.
 */
export function fittingTracks(
  targets: TargetRange[],
  candidates: MatchCandidate[],
  bpmOf: (c: MatchCandidate) => MatchTempo | null,
): Map<string, SongSet> {
  const out = new Map<string, SongSet>(targets.map((t) => [t.id, new SongSet()]));
  for (const c of candidates) {
    const chosen = bpmOf(c);
    if (chosen === null) continue;
    for (const t of targets) if (acceptsTrack(t, c, chosen, chosen.meter)) out.get(t.id)!.add(songOf(c));
  }
  return out;
}

/** A planned add: the song (song-identity.ts) and the tempo it is placed with. */
export interface PlannedTrack extends SongRef {
  bpm: number;
  /** Every credited artist (spread.ts keeps them apart in the playlist); absent: `artistId` alone. */
  artistIds?: string[];
  /**
   * When its tempo became known (epoch ms): how long it has been waiting to be placed. Infinity: it is not
   * waiting for an add call (it goes with others, or in a full batch).
   */
  since: number;
}

/**
 * The tempo a candidate is matched with and its span, whether it is the runner's, and its meter (null:
 * nobody said).
 */
export interface MatchTempo extends TempoSpan {
  corrected: boolean;
  meter: Meter | null;
}

/** The meter a recording is matched with: the runner's correction, else the resolver's. */
export const meterOf = (recordingKey: string, tempo: TempoFact | undefined, choices: RunnerChoices) =>
  choices.meterCorrections.get(recordingKey) ?? tempo?.meter ?? null;

/**
 * The tempo a candidate is matched with under the runner's choices: none when they excluded it (or one of
 * its artists), their correction over the resolver's tempo, else the resolver's tempo when trusted.
 */
export function matchBpm(
  c: Pick<MatchCandidate, 'recordingKey' | 'artistIds'>,
  tempo: TempoFact | undefined,
  choices: RunnerChoices,
  minConfidence = MIN_CONFIDENCE,
): MatchTempo | null {
  if (excludedBy(c, choices)) return null;
  const meter = meterOf(c.recordingKey, tempo, choices);
  const corrected = choices.corrections.get(c.recordingKey);
  if (corrected !== undefined) return { ...spanOf(corrected, true), corrected: true, meter };
  const bpm = trustedBpm(tempo, minConfidence);
  return bpm === null ? null : { ...spanOf(bpm, false, tempo?.alternatives), corrected: false, meter };
}

/** A candidate as song-identity.ts compares it. */
export const songOf = (
  c: Pick<MatchCandidate, 'trackId' | 'recordingKey' | 'title' | 'artistIds' | 'durationMs'>,
): SongRef => ({
  trackId: c.trackId,
  recordingKey: c.recordingKey,
  title: c.title,
  artistId: c.artistIds[0] ?? null,
  durationMs: c.durationMs,
});

/**
 * The new matches of each target, in the candidates' order (best-ranked first; the caller's list order
 * breaks ties), one per song (song-identity.ts: a track id, a recording, or an obvious version of one),
 * leaving out songs the target already has in any state. The
 * runner's choices (runner-choices.ts) come first: an excluded track or artist is never planned, and a
 * corrected tempo is used over the resolver's.
 */
export function planAdds(
  targets: TargetRange[],
  candidates: MatchCandidate[],
  tempos: Map<string, TempoFact>,
  placed: Map<string, SongSet>,
  minConfidence = MIN_CONFIDENCE,
  choices: RunnerChoices = NO_CHOICES,
): Map<string, PlannedTrack[]> {
  const ordered = candidates.map((c, i) => ({ c, i })).sort((a, b) => a.c.rank - b.c.rank || a.i - b.i);
  const seen = new SongSet();
  const plan = new Map<string, PlannedTrack[]>(targets.map((t) => [t.id, []]));
  for (const { c } of ordered) {
    const song = songOf(c);
    if (seen.has(song)) continue;
    seen.add(song);
    const tempo = tempos.get(c.recordingKey);
    const chosen = matchBpm(c, tempo, choices, minConfidence);
    if (chosen === null) continue;
    const { bpm } = chosen;
    // A correction is the runner's own act, made to see it placed: it does not wait for a batch to fill.
    const since = chosen.corrected ? 0 : (tempo?.resolvedAt?.getTime() ?? 0);
    for (const t of targets) {
      if (!acceptsTrack(t, c, chosen, chosen.meter) || placed.get(t.id)?.has(song)) continue;
      plan.get(t.id)!.push({ ...song, artistIds: c.artistIds, bpm, since });
    }
  }
  return plan;
}

/** When to write: a user's first placements all at once, then full batches, and what waited long enough. */
export interface AddPolicy {
  /** URIs per add call. */
  batch: number;
  /**
   * A user with no playlist yet gets a first fill once this many matches are known (or one waited
   * firstFillWaitMs); until this many are placed, small adds go at once (`filling`).
   */
  firstFill: number;
  /** A match that is not part of a full batch waits at most this long for others to share its call. */
  maxWaitMs: number;
  /**
   * A first fill short of `firstFill` matches waits at most this long after its first match (the
   * runner watches the page; a few add calls more are worth playlists within seconds). Default: maxWaitMs.
   */
  firstFillWaitMs?: number;
  /** While `filling`, a playlist's add goes once this many are ready (or its oldest waited long enough). */
  fillMin?: number;
  /**
   * While `filling`, fewer than `fillMin` wait this long (at least firstFillWaitMs) for company in a playlist
   * that already has songs; an empty one waits firstFillWaitMs. Default: firstFillWaitMs.
   */
  fillWaitMs?: number;
  /** Songs placed per target: while `filling`, the add that brings the runner to `firstFill` goes at once. */
  placed?: Map<string, number>;
}

/**
 * Where a runner is: `first`, no playlist yet; `filling`, fewer than `firstFill` songs placed in all (the
 * runner is still watching their playlists grow); `steady`, after that. `true`/`false`: first/steady.
 */
export type AddPhase = 'first' | 'filling' | 'steady' | boolean;

/**
 * How many of each target's planned tracks (in plan order) to add now, and when the rest is due. Adds are
 * what the daily budget pays for, so small ones wait a little for the matches that keep arriving while a
 * library's tempos are found: a first fill (e.g. 50 tracks across the targets, one call each), then adds
 * of a few songs at once until the runner has 50 placed (they watch the page: a two-minute plateau there
 * looked stuck), then calls of a full 100, and whatever waited `maxWaitMs`.
 */
export function dueNow(
  plan: Map<string, PlannedTrack[]>,
  phase: AddPhase,
  policy: AddPolicy,
  now: number,
): { due: Map<string, number>; nextAt: number | null } {
  const stage = phase === true ? 'first' : phase === false ? 'steady' : phase;
  const all = [...plan.values()].flat();
  const oldest = (list: PlannedTrack[]) => Math.min(...list.map((p) => p.since));
  const due = new Map<string, number>();
  let nextAt: number | null = null;
  const later = (at: number) => {
    if (Number.isFinite(at)) nextAt = nextAt === null ? at : Math.min(nextAt, at);
  };
  const firstWait = policy.firstFillWaitMs ?? policy.maxWaitMs;
  const placedOf = (id: string) => policy.placed?.get(id) ?? 0;
  // The songs ready now would bring the runner to their first `firstFill`: nothing waits for company.
  const reaching =
    [...(policy.placed?.values() ?? [])].reduce((a, b) => a + b, 0) +
      all.filter((p) => Number.isFinite(p.since)).length >=
    policy.firstFill;
  for (const [id, list] of plan) {
    if (list.length === 0) continue;
    let n: number;
    if (stage === 'first') {
      n = all.length >= policy.firstFill || now - oldest(all) >= firstWait ? list.length : 0;
      if (n < list.length) later(oldest(all) + firstWait);
    } else if (stage === 'filling') {
      const wait = placedOf(id) === 0 ? firstWait : Math.max(firstWait, policy.fillWaitMs ?? firstWait);
      n = reaching || list.length >= (policy.fillMin ?? 5) || now - oldest(list) >= wait ? list.length : 0;
      if (n < list.length) later(oldest(list) + wait);
    } else {
      n =
        now - oldest(list) >= policy.maxWaitMs
          ? list.length
          : Math.floor(list.length / policy.batch) * policy.batch;
      if (n < list.length) later(oldest(list.slice(n)) + policy.maxWaitMs);
    }
    due.set(id, n);
  }
  return { due, nextAt };
}
