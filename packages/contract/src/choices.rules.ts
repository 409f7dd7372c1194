// A runner's tempo fixes, without zod: the tempos a runner may set.

/** The tempos a runner may set: beyond these no song is a running tempo, even halved or doubled. */
export const CORRECTION_MIN_BPM = 30;
export const CORRECTION_MAX_BPM = 300;
