// The setup page's account check: Spotify's authorize page opens in a window of its own; Spotify
// sends it back to the connect page (the redirect URI the admin registered), which sees by `state` that it
// is the check's answer, hands the code to the server (POST check_account) and tells the setup page the
// outcome through a BroadcastChannel (same origin; works whatever Spotify's page does to `window.opener`).
import type { SetupAccountCheckReply } from '@pacebeat/contract';
import { SPOTIFY_SCOPES } from '@pacebeat/contract/rules';
import { authorizeUrl, challengeOf, randomVerifier } from '../spotify/pkce.ts';

/** A check's `state` starts with this; a runner's connect never does (its state is letters and digits). */
export const CHECK_STATE_PREFIX = 'setup-check-';
export const CHECK_CHANNEL = 'pacebeat-setup-check';
const KEY = 'pacebeat.setup.check';

export interface PendingCheck {
  state: string;
  verifier: string;
  redirect_uri: string;
}

export type CheckResult = SetupAccountCheckReply['data'];

export const isCheckState = (state: string | null): state is string =>
  state !== null && state.startsWith(CHECK_STATE_PREFIX);

/** Kept in localStorage: the check window is another browsing context (sessionStorage is per tab). */
export function readPendingCheck(state: string, storage: Storage = localStorage): PendingCheck | null {
  try {
    const p = JSON.parse(storage.getItem(KEY) ?? 'null') as Partial<PendingCheck> | null;
    return p && p.state === state && p.verifier && p.redirect_uri ? (p as PendingCheck) : null;
  } catch {
    return null;
  }
}

export function clearPendingCheck(storage: Storage = localStorage): void {
  storage.removeItem(KEY);
}

/**
 * The authorize URL of a new check, its verifier kept for the window Spotify sends back; the setup page
 * opens the window itself (within the click, or browsers block it).
 */
export async function prepareCheck(
  o: { accountsUrl: string; clientId: string; redirectUri: string },
  storage: Storage = localStorage,
): Promise<string> {
  const verifier = randomVerifier();
  const state = `${CHECK_STATE_PREFIX}${randomVerifier(24)}`;
  storage.setItem(KEY, JSON.stringify({ state, verifier, redirect_uri: o.redirectUri }));
  return authorizeUrl(`${o.accountsUrl}/authorize`, {
    client_id: o.clientId,
    scopes: [...SPOTIFY_SCOPES],
    challenge: await challengeOf(verifier),
    redirect_uri: o.redirectUri,
    state,
  });
}

/** Tells the setup page (any tab of this browser) the outcome. */
export function announceResult(result: CheckResult): void {
  if (typeof BroadcastChannel === 'undefined') return;
  const channel = new BroadcastChannel(CHECK_CHANNEL);
  channel.postMessage(result);
  channel.close();
}

/** Calls `onResult` with each outcome the check window announces; returns the unsubscribe. */
export function listenForResults(onResult: (r: CheckResult) => void): () => void {
  if (typeof BroadcastChannel === 'undefined') return () => undefined;
  const channel = new BroadcastChannel(CHECK_CHANNEL);
  channel.onmessage = (e: MessageEvent<CheckResult>) => onResult(e.data);
  return () => channel.close();
}
