// The call budget's rules, as data and pure functions; budget.repository.ts applies them in PostgreSQL.

/** Who is waiting for a call, highest first (spent in this order when the budget is short). */
export const PRIORITIES = ['interactive', 'playlist_write', 'library_scan', 'catalog_expansion'] as const;
export type Priority = (typeof PRIORITIES)[number];
export const priorityRank = (p: Priority): number => PRIORITIES.indexOf(p);

/**
 * Share of each window a priority may fill. Lower priorities stop earlier, so what is left of a window
 * (and of the day) stays free for what a user is waiting for.
 */
export const CEILINGS: Record<Priority, { rate: number; daily: number }> = {
  interactive: { rate: 1, daily: 1 },
  playlist_write: { rate: 1, daily: 0.95 },
  library_scan: { rate: 0.9, daily: 0.8 },
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
