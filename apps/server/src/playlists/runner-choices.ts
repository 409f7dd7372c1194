// The runner's own choices as matching sees them: tempo corrections and exclusions, made in src/choices/.
// Data only (a port), so matching stays pure and the playlists module imports no choices code; the
// writer is given a function that loads them for a user.
import type { Meter } from '@pacebeat/contract';
import type { MatchCandidate } from './candidates.ts';

export interface RunnerChoices {
  /** Recording key → the BPM the runner set: used over the resolver's tempo, whatever its confidence. */
  corrections: ReadonlyMap<string, number>;
  /** Recording key → the meter the runner set ("this one is in 4/4"): used over the resolver's. */
  meterCorrections: ReadonlyMap<string, Meter>;
  /** Recording keys kept out of every target. */
  excludedRecordings: ReadonlySet<string>;
  /** Spotify artist ids whose every track is kept out of every target. */
  excludedArtists: ReadonlySet<string>;
}

export const NO_CHOICES: RunnerChoices = {
  corrections: new Map(),
  meterCorrections: new Map(),
  excludedRecordings: new Set(),
  excludedArtists: new Set(),
};

/** Loads a user's choices (choices module). */
export type LoadRunnerChoices = (userId: string) => Promise<RunnerChoices>;

/** Whether the runner keeps this candidate out: by its recording, by one of its artists, or not at all. */
export function excludedBy(
  c: Pick<MatchCandidate, 'recordingKey' | 'artistIds'>,
  choices: RunnerChoices,
): 'track' | 'artist' | null {
  if (choices.excludedRecordings.has(c.recordingKey)) return 'track';
  return c.artistIds.some((a) => choices.excludedArtists.has(a)) ? 'artist' : null;
}
