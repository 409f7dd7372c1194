// The one thing the playlist writer needs from the library module (a port, so it does not import it).

/** One track of a user's enabled sources, as the library lists it for matching. */
export interface MatchCandidate {
  trackId: string;
  /** The tempo cache's key: `isrc:<ISRC>` or `spotify:<trackId>` (one song however many tracks carry it). */
  recordingKey: string;
  artistIds: string[];
  durationMs: number;
  explicit: boolean;
  fromLikedSongs: boolean;
  /** Lower is better: Liked Songs newest first, then owned/collaborative playlists, then catalog tracks. */
  rank: number;
}

/** Tracks of the user's enabled sources: one row per (user, track), best-ranked first. */
export type ListMatchCandidates = (userId: string) => Promise<MatchCandidate[]>;
