// What a user or an artist does in the world while the product runs, for tests of library scans and
// playlist upkeep: unfollow ("delete") a playlist, edit one, remove items by position or URI, like
// songs at a given time, and a new release by an artist.
import type { Ctx } from '../context.ts';
import type { Playlist, PlaylistEntry, User } from '../world/library.ts';
import { AdminError } from './errors.ts';

export interface NewRelease {
  /** Album title (an album) or, for a single, its track's name by default. */
  name?: string;
  albumType?: 'album' | 'single';
  /** Number of tracks when `tracks` is not given (default 10 for an album, 1 for a single). */
  trackCount?: number;
  /** Per track, any of: name, length, true tempo (BPM). */
  tracks?: Array<{ name?: string; durationMs?: number; bpm?: number }>;
  /** ISO date; default: the sandbox clock's now. */
  releaseDate?: string;
}

export interface PlaylistEdit {
  name?: string;
  description?: string;
  public?: boolean;
  collaborative?: boolean;
  /** Replace every item with these tracks. */
  trackIds?: string[];
}

export function createChanges(
  ctx: Ctx,
  h: {
    userOf: (id: string) => User;
    playlistOf: (id: string) => Playlist;
    tracks: (ids: string[]) => number[];
    artists: (ids: string[]) => number[];
  },
) {
  const w = () => ctx.world;
  const snapshot = (pl: Playlist) => ({ snapshotId: w().snapshotId(pl) });
  return {
    /** The user unfollows a playlist; for its owner this is deleting it (follow it again to restore). */
    unfollowPlaylist: (userId: string, playlistId: string) =>
      w().unfollowPlaylist(h.userOf(userId), h.playlistOf(playlistId)),

    /** The owner edits a playlist in their Spotify app: details, and optionally all its items. */
    editPlaylist: (playlistId: string, edit: PlaylistEdit) => {
      const pl = h.playlistOf(playlistId);
      const { trackIds, ...details } = edit;
      if (details.collaborative && (details.public ?? pl.public))
        throw new AdminError(400, 'Collaborative playlists can only be private.');
      if (Object.keys(details).length > 0) w().updateDetails(pl, details);
      if (trackIds) {
        const at = ctx.clock.now();
        w().replaceItems(
          pl,
          h.tracks(trackIds).map((g): PlaylistEntry => ({ g, addedAt: at, addedBy: pl.owner })),
        );
      }
      return snapshot(pl);
    },

    /** Removes items: every occurrence of the given URIs (tracks, episodes), and/or the given positions. */
    removeItems: (playlistId: string, what: { uris?: string[]; positions?: number[] }) => {
      const pl = h.playlistOf(playlistId);
      const drop = new Set(what.positions ?? []);
      for (const p of drop)
        if (!Number.isInteger(p) || p < 0 || p >= pl.entries.length)
          throw new AdminError(400, `no item at position ${p}`);
      const uris = new Set(what.uris ?? []);
      w().replaceItems(
        pl,
        pl.entries.filter((e, i) => !drop.has(i) && !uris.has(w().entryUri(e) ?? '')),
      );
      return snapshot(pl);
    },

    /** The user likes songs, at `addedAt` (ISO date or ms; default the sandbox clock's now). */
    likeAt: (userId: string, trackIds: string[], addedAt?: string | number) => {
      const at = addedAt === undefined ? ctx.clock.now() : new Date(addedAt).getTime();
      if (!Number.isFinite(at)) throw new AdminError(400, `bad addedAt ${String(addedAt)}`);
      w().like(h.userOf(userId), h.tracks(trackIds), at);
    },

    /** A new release by an artist; it comes first in their albums (the newest). */
    addRelease: (artistId: string, r: NewRelease = {}) => {
      const [artist] = h.artists([artistId]);
      const albumType = r.albumType ?? 'album';
      const count = r.tracks?.length ?? r.trackCount ?? (albumType === 'album' ? 10 : 1);
      if (!Number.isInteger(count) || count < 1 || count > 300)
        throw new AdminError(400, 'a release has 1 to 300 tracks');
      const at = r.releaseDate === undefined ? ctx.clock.now() : Date.parse(r.releaseDate);
      if (!Number.isFinite(at)) throw new AdminError(400, `bad releaseDate ${String(r.releaseDate)}`);
      const tracks: NonNullable<NewRelease['tracks']> = r.tracks ?? Array.from({ length: count }, () => ({}));
      if (albumType === 'single' && r.name && tracks[0] && !tracks[0].name)
        tracks[0] = { ...tracks[0], name: r.name };
      const rel = w().catalog.addNewRelease(artist as number, {
        ...(albumType === 'album' && r.name ? { title: r.name } : {}),
        albumType,
        tracks,
        at,
      });
      return {
        albumId: w().ids.encode('album', rel.r),
        trackIds: Array.from({ length: rel.trackCount }, (_, t) => w().trackId(rel.firstG + t)),
      };
    },
  };
}
