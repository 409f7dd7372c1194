/**
 * Every query key of the app. Each one carries the sudo value, so an admin's own data and the data of
 * the user they are viewing never share a cache entry.
 */
export const queryKeys = {
  session: {
    all: ['session'] as const,
    whoami: (sudo: string | null) => ['session', 'whoami', { sudo }] as const,
  },
  ping: (sudo: string | null) => ['ping', { sudo }] as const,
  loginData: ['login_data'] as const,
  /** Server-wide, not per user: no sudo in the key. */
  tempoCredits: ['tempo_credits'] as const,
  logout: ['logout'] as const,
  /** The status page's data (spec §7): GET targets and sources, POST source_change. */
  spotify: {
    targets: (sudo: string | null) => ['spotify', 'targets', { sudo }] as const,
    sources: (sudo: string | null) => ['spotify', 'sources', { sudo }] as const,
    sourceChange: (sudo: string | null) => ['spotify', 'source_change', { sudo }] as const,
    connectData: (sudo: string | null) => ['spotify', 'connect_data', { sudo }] as const,
    /** The paces page: the tempo chart's data. */
    tempoHistogram: (sudo: string | null) => ['spotify', 'tempo_histogram', { sudo }] as const,
  },
  /** The admin's setup page: server-wide, and never read in sudo mode. */
  setup: {
    spotifyApp: ['setup', 'spotify_app'] as const,
  },
  /** The admin page: server-wide, and never read in sudo mode. */
  admin: {
    signup: ['admin', 'signup'] as const,
  },
  /** A runner's runs (workouts): the list and each run with its last build. */
  runs: {
    all: (sudo: string | null) => ['runs', { sudo }] as const,
    list: (sudo: string | null) => ['runs', { sudo }, 'list'] as const,
    one: (sudo: string | null, runId: string) => ['runs', { sudo }, 'run', runId] as const,
  },
  /** A runner's tracks and choices: a target's lists and the Excluded list (all invalidated by a choice). */
  choices: {
    all: (sudo: string | null) => ['choices', { sudo }] as const,
    targetTracks: (sudo: string | null, targetId: string, list: string, offset: number) =>
      ['choices', { sudo }, 'target_tracks', targetId, list, offset] as const,
    exclusions: (sudo: string | null, offset: number) => ['choices', { sudo }, 'exclusions', offset] as const,
  },
};
