// Which of a user's tracks wait for a target and which it skips, and how a tempo meets a range: pure, by the
// same rules as the writer (planAdds), so the pages say exactly what the writer will do.
import type { Fold, OtherMeter, SkipReason } from '@pacebeat/contract';
import type { MatchCandidate } from '../playlists/candidates.ts';
import {
  filteredBy,
  meterLeftOut,
  meterOf,
  fitsRange,
  placeable,
  planAdds,
  songOf,
  spanOf,
  trustedBpm,
  type PlannedTrack,
  type TargetRange,
  type TempoFact,
} from '../playlists/matching.ts';
import { excludedBy, type RunnerChoices } from '../playlists/runner-choices.ts';
import { SongSet } from '../playlists/song-identity.ts';

/** The Skipped reason of each meter a target leaves out. */
const METER_REASON: Record<OtherMeter, SkipReason> = {
  '3/4': 'meter_3_4',
  '6/8': 'meter_6_8',
  '5/4': 'meter_5_4',
  '7/8': 'meter_7_8',
};

/** How `bpm` meets [min, max): as it is, doubled (a half-time song) or halved; null when it does not. */
export function foldOf(bpm: number, minBpm: number, maxBpm: number): Fold | null {
  if (bpm >= minBpm && bpm < maxBpm) return 'none';
  if (bpm * 2 >= minBpm && bpm * 2 < maxBpm) return 'double';
  if (bpm / 2 >= minBpm && bpm / 2 < maxBpm) return 'half';
  return null;
}

export interface ListInput {
  target: TargetRange;
  candidates: MatchCandidate[];
  tempos: Map<string, TempoFact>;
  /** The songs the target has in any state (song-identity.ts). */
  placed: SongSet;
  choices: RunnerChoices;
  minConfidence: number;
}

/** Tracks that fit the target and will be added (they wait for the writer's next batch, or the budget). */
export function waitingFor(i: ListInput): PlannedTrack[] {
  const placed = new Map([[i.target.id, i.placed]]);
  return planAdds([i.target], i.candidates, i.tempos, placed, i.minConfidence, i.choices).get(i.target.id)!;
}

export interface Skipped {
  trackId: string;
  recordingKey: string;
  bpm: number | null;
  reason: SkipReason;
}

/**
 * Tracks the target skips, best-ranked first, one per recording: excluded ones that would fit it (or whose
 * tempo is unknown), tempos too uncertain to trust that would fit it, trusted ones that would fit it but that
 * its filters or its meter leave out (explicit, duration, not in Liked Songs; 3/4, 6/8, 5/4, 7/8 unless it takes them), and tempos no source knows (shown
 * for every target: tapping them in is how a runner fixes them). Tracks not looked up yet are not listed.
 */
export function skippedBy(i: ListInput): Skipped[] {
  const { target: t, choices } = i;
  const ordered = [...i.candidates].sort((a, b) => a.rank - b.rank);
  const seen = new SongSet();
  const out: Skipped[] = [];
  for (const c of ordered) {
    const key = c.recordingKey;
    const song = songOf(c);
    if (seen.has(song) || i.placed.has(song)) continue;
    seen.add(song);
    const tempo = i.tempos.get(key);
    const corrected = choices.corrections.get(key);
    const bpm = corrected ?? tempo?.bpm ?? null;
    const excluded = excludedBy(c, choices);
    const skip = (reason: SkipReason) => out.push({ trackId: c.trackId, recordingKey: key, bpm, reason });
    if (excluded) {
      if (bpm === null || fitsRange(bpm, t.minBpm, t.maxBpm)) skip(`excluded_${excluded}`);
    } else if (corrected === undefined && tempo && trustedBpm(tempo, i.minConfidence) === null) {
      if (tempo.bpm === null) skip('unknown_tempo');
      else if (fitsRange(tempo.bpm, t.minBpm, t.maxBpm)) skip('uncertain');
    } else if (bpm !== null) {
      // A tempo the writer would place in this range, left out by the target's own filters or its meter.
      const filtered = filteredBy(t, c);
      const meter = meterLeftOut(t, meterOf(key, tempo, choices));
      if (
        (filtered || meter) &&
        placeable(spanOf(bpm, corrected !== undefined, tempo?.alternatives), t.minBpm, t.maxBpm)
      )
        skip(filtered ?? METER_REASON[meter!]);
    }
  }
  return out;
}
