// Connecting Spotify, without zod: the scopes asked for and the stable error names.

/** The scopes Pacebeat asks Spotify for (read the library, write the target playlists). */
export const SPOTIFY_SCOPES = [
  'user-library-read',
  'playlist-read-private',
  'playlist-read-collaborative',
  'user-follow-read',
  'playlist-modify-public',
  'playlist-modify-private',
] as const;

/** Stable `error_name`s of the Spotify calls. */
export const SPOTIFY_ERRORS = {
  /** The token reply was refused by Spotify's `GET /me` (bad or expired token). */
  badToken: 'SpotifyTokenRejected',
  /** The token lacks scopes Pacebeat needs. */
  missingScopes: 'SpotifyMissingScopes',
  /** The Spotify account is already linked to another Pacebeat user. */
  accountTaken: 'SpotifyAccountTaken',
  /** Spotify refuses the account (not on the app's user list, owner without Premium). */
  accountRefused: 'SpotifyAccountRefused',
  /** The call budget or a cooldown says wait. */
  busy: 'SpotifyBusy',
  /**
   * connect_data: Spotify would refuse to send the runner back to this page's address (`localhost`, or
   * plain http other than 127.0.0.1); the message says what to open instead.
   */
  redirectRefused: 'SpotifyRedirectUriRefused',
} as const;
