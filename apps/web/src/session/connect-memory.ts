// What the connect page remembers across a reload or a visit to another page: a connect in flight (this
// tab), and Spotify's refusal of an account (this browser, per user), which the server does not keep
// for an account it never linked.

const CONNECTING = 'pacebeat.spotify.connecting';
const REFUSED = 'pacebeat.spotify.refused';

/** How long after a reload the page waits for a connect it had started to show in whoami. */
export const CONNECT_SETTLES_MS = 30_000;

/** The code is being exchanged and handed to the server (a reload now must not say "Welcome!"). */
export function markConnecting(storage: Storage = sessionStorage, now = Date.now()): void {
  storage.setItem(CONNECTING, String(now));
}

/** A connect this tab started less than `CONNECT_SETTLES_MS` ago: when it started, else null. */
export function connectingSince(storage: Storage = sessionStorage, now = Date.now()): number | null {
  const at = Number(storage.getItem(CONNECTING));
  return at > 0 && now - at < CONNECT_SETTLES_MS ? at : null;
}

export function clearConnecting(storage: Storage = sessionStorage): void {
  storage.removeItem(CONNECTING);
}

/** Spotify refused this user's account (e.g. not on the app's list of users): why, until a connect works. */
export function rememberRefusal(userId: string, reason: string, storage: Storage = localStorage): void {
  storage.setItem(REFUSED, JSON.stringify({ userId, reason }));
}

export function readRefusal(userId: string | undefined, storage: Storage = localStorage): string | null {
  try {
    const r = JSON.parse(storage.getItem(REFUSED) ?? 'null') as { userId?: string; reason?: string } | null;
    return r && userId && r.userId === userId && typeof r.reason === 'string' ? r.reason : null;
  } catch {
    return null;
  }
}

export function forgetRefusal(storage: Storage = localStorage): void {
  storage.removeItem(REFUSED);
}
