// The only SQL on spotify_app: the client id an admin saved on the setup page.
import { eq, sql } from 'drizzle-orm';
import type { Db } from '../db/client.ts';
import { spotifyApp } from '../db/spotify.schema.ts';

/** The one row's key (tests that share a database each use their own). */
export const SPOTIFY_APP_ROW = 'spotify';

export function createSpotifyAppRepository(db: Db, row = SPOTIFY_APP_ROW) {
  return {
    /** The saved client id, or undefined (none saved: demo mode unless SPOTIFY_CLIENT_ID is set). */
    async get(): Promise<{ clientId: string; setAt: Date } | undefined> {
      const rows = await db
        .select({ clientId: spotifyApp.clientId, setAt: spotifyApp.setAt })
        .from(spotifyApp)
        .where(eq(spotifyApp.id, row));
      return rows[0];
    },

    /** Saves the client id (replacing one saved before); `setBy` is the admin's user id. */
    async save(clientId: string, setBy: string): Promise<void> {
      await db
        .insert(spotifyApp)
        .values({ id: row, clientId, setBy })
        .onConflictDoUpdate({ target: spotifyApp.id, set: { clientId, setBy, setAt: sql`now()` } });
    },
  };
}
export type SpotifyAppRepository = ReturnType<typeof createSpotifyAppRepository>;
