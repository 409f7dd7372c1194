// The admin's setup page, without zod: the client id's pattern and the page's texts.

/** A client id as Spotify's dashboard shows it: 32 hexadecimal characters today; letters and digits, 8 to 64. */
export const SPOTIFY_CLIENT_ID_PATTERN = /^[A-Za-z0-9]{8,64}$/;

export const SETUP_TEXTS = {
  badClientId:
    'That is not a client id: copy the "Client ID" from your app’s page in the Spotify dashboard (letters and digits only, e.g. 32 characters).',
  confirmLeaveDemo:
    'Leaving demo mode must be confirmed: every runner’s simulated Spotify connection ends, and their demo playlists, sources and tempo fixes are deleted.',
} as const;
