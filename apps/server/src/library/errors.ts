// What the library's scans throw besides the Spotify client's errors.

/** The user's library rows are gone (disconnected during a scan): the scan stops and writes nothing. */
export class LibraryGoneError extends Error {
  constructor(userId: string) {
    super(`The library of user ${userId} is gone (disconnected).`);
    this.name = 'LibraryGoneError';
  }
}
