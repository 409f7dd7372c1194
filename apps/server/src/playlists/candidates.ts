// The one thing the playlist writer needs from the library module: a port (a function it is given), typed
// by the library's own row type, so the writer imports no library code.

export type { MatchCandidate } from '../library/library.repository.ts';
import type { MatchCandidate } from '../library/library.repository.ts';

/** Tracks of the user's enabled sources: one row per (user, track), best-ranked first. */
export type ListMatchCandidates = (userId: string) => Promise<MatchCandidate[]>;
