// The web app's timings that every page shares (spec §9).

/** Still-loading notices appear after 1 s without data. */
export const STILL_LOADING_AFTER_MS = 1_000;
/** A failed load is retried after 10 s. */
export const RETRY_AFTER_ERROR_MS = 10_000;

/** After this long processing a connect, the page says the server may be waiting for a free Spotify call. */
export const SLOW_CONNECT_MS = 3_000;
