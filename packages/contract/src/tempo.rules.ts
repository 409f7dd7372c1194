// Tempo sources, without zod: what the footer's credits link to.

/** The site GetSongBPM's terms require a visible link to, wherever their data is used. */
export const GETSONGBPM_URL = 'https://getsongbpm.com';
