/** The texts of the connect and disconnect screens (spec §2), word for word where the spec quotes them. */
export const SPOTIFY_TEXTS = {
  welcome: 'Welcome!',
  explanation:
    'Pacebeat reads your Spotify library (liked songs, your playlists and the artists you follow), finds the tempo of every track, and keeps running playlists in your Spotify account, one per pace. Connect your Spotify account to start.',
  connectButton: 'Connect to Spotify',
  sudoNote: '(disabled in sudo mode; go to main page)',
  processing: 'Processing authorization result from Spotify...',
  /** Beyond the spec: shown after a few seconds of processing. */
  waitingForSlot:
    'Still working on it: when Spotify is busy, Pacebeat waits a few seconds for a free call. Keep this page open.',
  connected: 'Spotify connected successfully.',
  connectError:
    'There was an error connecting to Spotify. Most probably you did not accepted the permissions.',
  unknownState: 'Internal error: unknown state for this page.',
  proceed: 'Proceed',
  disconnectExplanation:
    'Disconnecting erases all data this service keeps about your Spotify account and stops all its activities. Nothing in Spotify itself is touched: the playlists it created remain in your account.',
  /** Beyond the spec's text: what connecting again costs (docs/spotify.md, the runner's share). */
  reconnectCost:
    'Connecting again later reads your library anew: your Liked Songs, playlists and followed artists at once; your artists’ catalogs within your share of the day’s Spotify calls, which a disconnect does not reset, so on the same day they may wait until tomorrow. Your Pacebeat playlists are taken back as they are.',
  disconnectButton: 'Disconnect from Spotify',
  cancelDisconnect: 'Cancel disconnect',
  disconnecting: 'Processing disconnect request...',
  disconnected: 'You disconnected our service from Spotify. Feel free to come back and connect again :-)',
  demoBanner: 'Demo mode: Spotify is simulated here, so no real account is used.',
  alreadyConnected:
    'Your Spotify account is connected: Pacebeat is reading your library and filling your playlists.',
  notConnected: 'Spotify is not connected, so there is nothing to disconnect.',
} as const;

/** Proceed and Cancel go to /?refresh (spec §2). */
export const AFTER_PAGE = '/?refresh';
