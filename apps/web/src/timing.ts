// The web app's timings that every page shares (spec §9).

/** Still-loading notices appear after 1 s without data. */
export const STILL_LOADING_AFTER_MS = 1_000;
/** A failed load is retried after 10 s. */
export const RETRY_AFTER_ERROR_MS = 10_000;
