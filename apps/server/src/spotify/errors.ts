// What the Spotify client throws. Callers (jobs) re-queue on `SpotifyDeferredError` with
// `startAfter: retryAt`; the client itself never waits out a rate limit or a quota.

/** The call was not made (or was refused by Spotify) because the shared budget or a cooldown says wait. */
export class SpotifyDeferredError extends Error {
  readonly retryAt: Date;
  /** `share`: the runner's own fair share of the day is spent; the others' work goes on. */
  readonly reason: 'rate' | 'quota' | 'share' | 'unavailable';
  constructor(reason: 'rate' | 'quota' | 'share' | 'unavailable', retryAt: Date, message?: string) {
    super(message ?? `Spotify work is paused (${reason}) until ${retryAt.toISOString()}`);
    this.name = 'SpotifyDeferredError';
    this.reason = reason;
    this.retryAt = retryAt;
  }
}

/** Spotify refuses this user's account for good until they connect again; the account is marked disabled. */
export class SpotifyAccountDisabledError extends Error {
  readonly userId: string;
  constructor(userId: string, reason: string) {
    super(reason);
    this.name = 'SpotifyAccountDisabledError';
    this.userId = userId;
  }
}

/** The user has no connected Spotify account. */
export class SpotifyNotConnectedError extends Error {
  constructor() {
    super('Spotify is not connected.');
    this.name = 'SpotifyNotConnectedError';
  }
}

/** Any other answer that is not a success: 400, 403 (not an account problem), 404, or a final 5xx. */
export class SpotifyApiError extends Error {
  readonly status: number;
  readonly endpoint: string;
  readonly spotifyMessage: string;
  constructor(endpoint: string, status: number, spotifyMessage: string) {
    super(`Spotify ${endpoint} answered ${status}: ${spotifyMessage}`);
    this.name = 'SpotifyApiError';
    this.status = status;
    this.endpoint = endpoint;
    this.spotifyMessage = spotifyMessage;
  }
}

/** An extended-quota endpoint this app may not use (a remembered 403). */
export class SpotifyCapabilityMissingError extends Error {
  readonly capability: string;
  constructor(capability: string, detail: string) {
    super(`Spotify does not offer "${capability}" to this app: ${detail}`);
    this.name = 'SpotifyCapabilityMissingError';
    this.capability = capability;
  }
}

/** Plain-language reasons shown in the disabled-service alert. */
export const DISABLED_REASONS = {
  revoked:
    'Spotify no longer accepts Pacebeat’s access to your account: it was revoked, or it is more than 6 months old. Connect again to continue.',
  notRegistered:
    'Your Spotify account is not on this app’s user list in the Spotify Developer Dashboard. Ask whoever runs this Pacebeat to add it, then connect again.',
  premiumLapsed:
    'The owner of this Spotify app no longer has Spotify Premium, which Spotify requires for apps in development mode. Connect again once Premium is back.',
  refused:
    'Spotify refuses every request for your account: it may not be on this app’s user list in the Spotify Developer Dashboard, or the app owner’s Premium may have lapsed. Ask whoever runs this Pacebeat to check both, then connect again.',
} as const;

/**
 * Why Spotify refuses an account, from its 403 text. The texts vary over the years ("User not
 * registered in the Developer Dashboard", "Check settings on developer.spotify.com/dashboard, the user
 * may not be registered.", "User not approved for app", …), so only loose hints are read, and an
 * unknown text gets the reason that names both causes.
 */
export function refusalReason(message: string): string {
  if (/premium|subscription/i.test(message)) return DISABLED_REASONS.premiumLapsed;
  if (/regist|approved|dashboard|user management|allow.?list/i.test(message))
    return DISABLED_REASONS.notRegistered;
  return DISABLED_REASONS.refused;
}
