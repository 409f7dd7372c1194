// Library tracks as matching sees them, for the pure tests of matching, filters, choices and track lists.
import type { MatchCandidate } from './candidates.ts';

/** Candidate n: track `track<n>`, recording `isrc:REC<n>`, liked, 200 s, ranked n; `over` changes any field. */
export const candidate = (n: number, over: Partial<MatchCandidate> = {}): MatchCandidate => ({
  trackId: `track${n}`,
  recordingKey: `isrc:REC${n}`,
  title: `Song ${n}`,
  artistIds: ['a1'],
  durationMs: 200_000,
  explicit: false,
  fromLikedSongs: true,
  rank: n,
  ...over,
});
