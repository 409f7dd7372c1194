// The call budget's rules, as data and pure functions; budget.repository.ts applies them in PostgreSQL.

/**
 * Who is waiting for a call, highest first (spent in this order when the budget is short). `interactive`
 * is a person waiting on a request (a connect's `GET /me`, a run's build, a token refresh); `first_pages`
 * the first pages of a new runner's library (Liked Songs', their playlists', their followed artists'), what
 * their first playlists are made of: below the connects, so a storm of new runners' first pages cannot fill the window that the
 * next runner's connect waits for (bench:crowd at 1,000 runners: 19 connects refused in the first minute).
 * `first_catalogs` is a runner's artist catalogs until they have their first 50 songs placed: with few
 * liked songs most of those 50 come from the catalogs, which at `catalog_expansion` waited behind every
 * other runner's writes and scans (bench:crowd at the preview rate of 8 a second: the window sat at the
 * catalogs' 80 % for the whole storm while runners short of 50 waited).
 */
export const PRIORITIES = [
  'interactive',
  'first_pages',
  'first_catalogs',
  'playlist_write',
  'library_scan',
  'catalog_expansion',
] as const;
export type Priority = (typeof PRIORITIES)[number];
/** The number stored for a priority (`spotify_call_slots`, the ledger): fixed, so rows keep their meaning. */
const PRIORITY_CODES: Record<Priority, number> = {
  interactive: 0,
  playlist_write: 1,
  library_scan: 2,
  catalog_expansion: 3,
  first_pages: 4,
  first_catalogs: 5,
};
export const priorityCode = (p: Priority): number => PRIORITY_CODES[p];

/**
 * Share of each window a priority may fill. Lower priorities stop earlier, so what is left of a window
 * (and of the day) stays free for what a user is waiting for. The last tenth of every 30 s is theirs
 * alone: with writes allowed the whole window, a storm of runners' playlist writes left no call for a
 * newcomer's connect (5 of 100 connects answered 503 in the crowd benchmark).
 */
export const CEILINGS: Record<Priority, { rate: number; daily: number }> = {
  interactive: { rate: 1, daily: 1 },
  first_pages: { rate: 0.95, daily: 1 },
  // Ordered with the writes in the window, but within the catalogs' part of the day: a day's quota spent
  // on one runner's catalogs is the same whether or not they have their first 50 yet.
  first_catalogs: { rate: 0.9, daily: 0.6 },
  playlist_write: { rate: 0.9, daily: 0.95 },
  library_scan: { rate: 0.85, daily: 0.8 },
  catalog_expansion: { rate: 0.8, daily: 0.6 },
};

export interface BudgetLimits {
  /** Which budget: the Spotify app (its client id). Processes using the same key share the windows. */
  key: string;
  /** Calls per rolling 30 s; null: unlimited. */
  ratePer30s: number | null;
  /** Calls per rolling 24 h; null: unlimited. */
  dailyQuota: number | null;
}

export const RATE_WINDOW_MS = 30_000;
/**
 * Our window is this much longer than Spotify's, so a call that reaches Spotify a little later than its
 * slot was taken (network, scheduling) cannot land in a window Spotify still counts as full.
 */
export const RATE_SAFETY_MS = 250;
export const DAILY_WINDOW_MS = 24 * 3600_000;

/** How many calls of the window a priority may have in flight: at least 1 when the limit is ≥ 1. */
export function allowance(limit: number, share: number): number {
  return Math.max(1, Math.floor(limit * share));
}

/**
 * Every priority below `interactive` is also paced: in any PACE_WINDOW_MS it may take at most its
 * ceiling's part of that stretch (a third of the 30 s window; `paceAllowance`). Work that waited spreads
 * over the window instead of filling it in seconds: in bench:crowd's first minute the catalogs, scans and
 * first pages took all 100 calls of the window in 14 s, and the connects after them found it full for 16 s
 * more, past their wait. Paced, the window's calls leave it a few at a time, so a connect waits a moment.
 * The sustained rate is unchanged (a third of the ceiling every third of the window).
 */
export const PACE_WINDOW_MS = 10_000;
export function paceAllowance(limit: number, share: number): number {
  return Math.max(1, Math.ceil((allowance(limit, share) * PACE_WINDOW_MS) / RATE_WINDOW_MS));
}

/** Runners a development-mode Spotify app may have: Spotify's user list holds at most 5. */
export const DEV_MODE_MAX_RUNNERS = 5;

/**
 * Part of the day kept free, while fewer than 5 runners are connected, for whoever connects next: enough
 * for a newcomer's first playlists (their library's first pages, four playlists and their first adds take
 * a few dozen calls) even when the others have used their shares. The rest of the newcomer's share frees
 * up as the others' calls leave the rolling 24 h.
 */
export const KEPT_FOR_NEXT_RUNNER = 0.1;

/**
 * A runner's fair share of the daily quota: what no other runner can spend. The day, less the
 * part kept for the next runner, is split evenly between the connected runners. Each runner's own
 * priorities apply within their share (`CEILINGS`: what they wait for first, then their writes, scans and
 * catalogs), and the installation's ceilings still apply to all calls together.
 */
export function runnerShare(dailyQuota: number, connectedRunners: number): number {
  const n = Math.max(1, connectedRunners);
  const kept = n < DEV_MODE_MAX_RUNNERS ? dailyQuota * KEPT_FOR_NEXT_RUNNER : 0;
  return Math.max(1, Math.floor((dailyQuota - kept) / n));
}
