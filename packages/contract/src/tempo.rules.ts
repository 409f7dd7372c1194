// Tempo sources, without zod: what the footer's credits link to.

/** The site GetSongBPM's terms require a visible link to, wherever their data is used. */
export const GETSONGBPM_URL = 'https://getsongbpm.com';

/** Every meter Pacebeat tells apart, 4/4 first (and every duple feel with it). */
export const METERS = ['4/4', '3/4', '6/8', '5/4', '7/8'] as const;
/** The meters left out of pace playlists unless a target takes them. */
export const OTHER_METERS = ['3/4', '6/8', '5/4', '7/8'] as const;
