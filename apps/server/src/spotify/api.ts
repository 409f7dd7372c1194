// Typed Spotify Web API calls for one user, on top of client.ts. Types come from the generated OpenAPI
// types; zod checks the fields the product relies on and keeps the rest. Both 2026 shapes are read:
// playlist items as `item ?? track`, playlists' items as `items ?? tracks`. Pages are read leniently:
// an item that is null or malformed is counted in `skipped` and left out, never failing the page.
import { z } from 'zod';
import type { CallContext, SpotifyClient } from './client.ts';
import type { components } from './generated/spotify-web-api.ts';

type S = components['schemas'];
export type TrackObject = S['TrackObject'];
export type SimplifiedTrackObject = S['SimplifiedTrackObject'];

/** A page whose items are checked one by one (see `keep`). */
const LenientPaging = z.looseObject({
  items: z.array(z.unknown()).nullable().optional(),
  total: z.number().int().nullable().optional(),
  next: z.string().nullable().optional(),
});

/** The items that match `schema`, and how many did not (null entries, odd objects). */
function keep<T>(items: unknown[] | null | undefined, schema: z.ZodType<T>) {
  const kept: T[] = [];
  let skipped = 0;
  for (const raw of items ?? []) {
    const r = schema.safeParse(raw);
    if (r.success) kept.push(r.data);
    else skipped++;
  }
  return { items: kept, skipped, pageSize: items?.length ?? 0 };
}

/** A lenient page: kept items, skipped count, the page's raw size, Spotify's total and whether more follow. */
const lenient = <T>(page: z.infer<typeof LenientPaging>, schema: z.ZodType<T>) => ({
  ...keep(page.items, schema),
  total: page.total ?? 0,
  next: page.next ?? null,
});

const Me = z.looseObject({
  id: z.string().min(1),
  account_id: z.string().min(1).optional(),
  display_name: z.string().nullable().optional(),
});
const Track = z.looseObject({
  id: z.string().nullable().optional(),
  type: z.string().optional(),
  uri: z.string(),
});
const PlaylistItem = z.looseObject({
  is_local: z.boolean().optional(),
  added_at: z.string().nullable().optional(),
  item: Track.nullable().optional(),
  track: Track.nullable().optional(),
});
/** A playlist's items reference: the total, and on `GET /playlists/{id}` the first page of items. */
const ItemsRef = z.looseObject({ total: z.number().int(), items: z.array(PlaylistItem).optional() });
const PlaylistBase = z.looseObject({
  id: z.string(),
  snapshot_id: z.string().optional(),
  items: ItemsRef.nullable().optional(),
  tracks: ItemsRef.nullable().optional(),
});
const SavedTrack = z
  .looseObject({ added_at: z.string().nullable().optional(), track: Track.nullable().optional() })
  .transform((s, ctx) => {
    if (!s.track) {
      ctx.addIssue({ code: 'custom', message: 'no track' });
      return z.NEVER;
    }
    return { ...s, track: s.track as z.infer<typeof Track> & Partial<TrackObject> };
  });
const ArtistRef = z.looseObject({ id: z.string().min(1), name: z.string().nullable().optional() });
const AlbumRef = z.looseObject({
  id: z.string().min(1),
  name: z.string().nullable().optional(),
  album_type: z.string().nullable().optional(),
  total_tracks: z.number().int().nullable().optional(),
  release_date: z.string().nullable().optional(),
  artists: z.array(z.unknown()).nullable().optional(),
});
const PlaylistRef = PlaylistBase.extend({
  name: z.string().nullable().optional(),
  description: z.string().nullable().optional(),
  external_urls: z.looseObject({ spotify: z.string().optional() }).nullable().optional(),
  collaborative: z.boolean().nullable().optional(),
  owner: z
    .looseObject({ id: z.string().nullable().optional(), display_name: z.string().nullable().optional() })
    .nullable()
    .optional(),
});
const Snapshot = z.looseObject({ snapshot_id: z.string() });
const AudioFeatures = z.looseObject({
  audio_features: z.array(
    z
      .looseObject({
        id: z.string(),
        tempo: z.number().nullable().optional(),
        time_signature: z.number().nullable().optional(),
      })
      .nullable(),
  ),
});

const AlbumWithTracks = AlbumRef.extend({ tracks: LenientPaging.nullable().optional() });
/** A release as `album` gives it: its embedded first page of tracks read leniently. */
const withTracks = (r: z.infer<typeof AlbumWithTracks>) => {
  const tracks = r.tracks ?? { items: [], total: 0, next: null };
  return {
    ...r,
    tracks: { ...keep(tracks.items, Track), total: tracks.total ?? 0, next: tracks.next ?? null },
  };
};

/** Ids per `GET /albums?ids=` call. */
export const ALBUMS_MAX_IDS = 20;
const SEVERAL_ALBUMS = 'several-albums';

/** Ids per `GET /audio-features?ids=` call. */
export const AUDIO_FEATURES_MAX_IDS = 100;

export type Me = z.infer<typeof Me> & Partial<S['PrivateUserObject']>;

/** Reads a playlist item in either shape; null for local files, episodes and removed tracks. */
/** A playlist item's track with the time it was added (ISO), or nothing when it is not a track. */
export function itemEntry(
  item: z.infer<typeof PlaylistItem>,
): { track: TrackObject; addedAt: string | null } | null {
  const track = itemTrack(item);
  return track ? { track, addedAt: item.added_at ?? null } : null;
}

export function itemTrack(item: z.infer<typeof PlaylistItem>): TrackObject | null {
  if (item.is_local) return null;
  const t = item.item ?? item.track ?? null;
  if (!t || (t.type !== undefined && t.type !== 'track') || !t.id) return null;
  return t as unknown as TrackObject;
}

/** A playlist's item count in either shape. */
export const playlistTotal = (p: z.infer<typeof PlaylistBase>): number => (p.items ?? p.tracks)?.total ?? 0;

/** The Web API for one user and one purpose/priority (see client.ts for what every call does). */
export function spotifyApi(client: SpotifyClient, ctx: CallContext) {
  const get = <T>(path: string, endpoint: string, schema: z.ZodType<T>, query?: SpotifyQuery) =>
    client.request(ctx, { method: 'GET', path, endpoint, query, idempotent: true }, schema);
  const enc = encodeURIComponent;
  /**
   * `GET /{name}?ids=` (1 to `max` ids, one call), a multi-get only some apps have: a 403 is remembered
   * under `capability` (client.ts), so it is asked once.
   */
  const severalById = <T>(
    name: string,
    ids: string[],
    max: number,
    capability: string,
    schema: z.ZodType<T>,
  ) => {
    if (ids.length === 0 || ids.length > max) throw new Error(`GET /${name} takes 1 to ${max} ids`);
    return client.request(
      ctx,
      {
        method: 'GET',
        path: `/${name}`,
        endpoint: `GET /${name}`,
        query: { ids: ids.join(',') },
        idempotent: true,
        capability,
      },
      schema,
    );
  };

  const api = {
    /** `GET /me`: id, display name and, since May 2026, `account_id`. */
    me: () => get('/me', 'GET /me', Me) as Promise<Me>,

    /** One page of Liked Songs, newest first; items without a track are skipped. */
    savedTracks: async (offset = 0, limit = 50) =>
      lenient(await get('/me/tracks', 'GET /me/tracks', LenientPaging, { offset, limit }), SavedTrack),

    /** One page of the playlists in the user's library (owned, collaborative and followed). */
    myPlaylists: async (offset = 0, limit = 50) =>
      lenient(await get('/me/playlists', 'GET /me/playlists', LenientPaging, { offset, limit }), PlaylistRef),

    playlist: (id: string) => get(`/playlists/${enc(id)}`, 'GET /playlists/{id}', PlaylistBase),

    /**
     * `GET /me/library/contains`: whether each URI (at most 40) is in the user's library. A playlist its
     * owner deleted (unfollowed) answers false, though it still exists and still takes writes.
     */
    libraryContains: (uris: string[]) =>
      client.request(
        ctx,
        {
          method: 'GET',
          path: '/me/library/contains',
          endpoint: 'GET /me/library/contains',
          query: { uris: uris.join(',') },
          idempotent: true,
          // Not in the list of what a development-mode app is known to keep: a 403 is remembered, and
          // the writer goes on without the check (reconcile.ts checkFollowed).
          capability: 'library-contains',
        },
        z.array(z.boolean()),
      ),

    /**
     * One page of a playlist's tracks, with the page's raw size. Local files, podcast episodes, null and
     * malformed items are left out (`skipped` counts the malformed ones).
     */
    async playlistTracks(id: string, offset = 0, limit = 50) {
      const page = lenient(
        await get(`/playlists/${enc(id)}/items`, 'GET /playlists/{id}/items', LenientPaging, {
          offset,
          limit,
        }),
        PlaylistItem,
      );
      const entries = page.items.flatMap((i) => itemEntry(i) ?? []);
      return {
        tracks: entries.map((e) => e.track),
        /** The same tracks with the time each was added to the playlist. */
        entries,
        pageSize: page.pageSize,
        skipped: page.skipped,
        total: page.total,
        next: page.next,
      };
    },

    /** One page of followed artists, by cursor (`after`: the last artist id of the previous page). */
    async followedArtists(after?: string, limit = 50) {
      const r = await get(
        '/me/following',
        'GET /me/following',
        z.looseObject({
          artists: LenientPaging.extend({
            cursors: z.looseObject({ after: z.string().nullable().optional() }).nullable().optional(),
          }),
        }),
        { type: 'artist', after, limit },
      );
      return { ...lenient(r.artists, ArtistRef), after: r.artists.cursors?.after ?? null };
    },

    /**
     * One page of an artist's releases, `groups` of album,single,appears_on,compilation, newest first
     * within each group; `limit` at most 10 in development mode (more answers 400), 50 with extended quota.
     */
    artistAlbums: async (
      id: string,
      offset = 0,
      limit = 10,
      groups = 'album,single,appears_on,compilation',
    ) =>
      lenient(
        await get(`/artists/${enc(id)}/albums`, 'GET /artists/{id}/albums', LenientPaging, {
          include_groups: groups,
          offset,
          limit: Math.min(limit, 50),
        }),
        AlbumRef,
      ),

    /** A release with its first page of (simplified) tracks embedded; follow `tracks.next` with `albumTracks`. */
    album: async (id: string) =>
      withTracks(await get(`/albums/${enc(id)}`, 'GET /albums/{id}', AlbumWithTracks)),

    /**
     * `GET /albums?ids=` (≤ 20 ids, one call): the releases as `album` gives each, in the order asked, null
     * for an id Spotify does not know (or an answer that cannot be read). Extended quota only: development
     * mode lost the multi-gets in February 2026 and answers 403, which is remembered (`several-albums`).
     */
    async albums(ids: string[]) {
      const r = await severalById(
        'albums',
        ids,
        ALBUMS_MAX_IDS,
        SEVERAL_ALBUMS,
        z.looseObject({ albums: z.array(z.unknown()) }),
      );
      return ids.map((_, i) => {
        const album = AlbumWithTracks.safeParse(r.albums[i]);
        return album.success ? withTracks(album.data) : null;
      });
    },

    /**
     * Whether the app has `GET /albums?ids=` (an extended-quota app), known without a call: false with a
     * daily quota (development mode), undefined until the first multi-get on an installation without one.
     */
    severalAlbums: () => client.capability(SEVERAL_ALBUMS, { extendedQuotaOnly: true }),

    /** One page (≤ 50) of a release's simplified tracks: no `external_ids`, so no ISRC. */
    albumTracks: async (id: string, offset = 0, limit = 50) =>
      lenient(
        await get(`/albums/${enc(id)}/tracks`, 'GET /albums/{id}/tracks', LenientPaging, { offset, limit }),
        Track,
      ),

    track: (id: string) => get(`/tracks/${enc(id)}`, 'GET /tracks/{id}', Track) as Promise<TrackObject>,

    /**
     * `GET /audio-features?ids=` (≤ 100 ids, one call): tempo per track, `null` for unknown ids. Only
     * extended-quota apps that used audio-features before 2024-11-27 have it (they keep the multi-get
     * endpoints too); a development-mode app gets 403, which is remembered, so it is asked once.
     */
    async audioFeatures(ids: string[]) {
      const r = await severalById(
        'audio-features',
        ids,
        AUDIO_FEATURES_MAX_IDS,
        'audio-features',
        AudioFeatures,
      );
      return r.audio_features.filter((f) => f !== null);
    },

    /** `POST /me/playlists`. Not retried: a repeat would create a second playlist. */
    createPlaylist: (p: { name: string; description: string; public: boolean }) =>
      client.request(
        ctx,
        {
          method: 'POST',
          path: '/me/playlists',
          endpoint: 'POST /me/playlists',
          body: { ...p, collaborative: false },
          idempotent: false,
        },
        z.looseObject({
          id: z.string(),
          snapshot_id: z.string().optional(),
          external_urls: z.looseObject({ spotify: z.string().optional() }).optional(),
        }),
      ),

    /**
     * Appends ≤ 100 tracks, one attempt. An add is not idempotent, so the client never repeats it: after a
     * failure whose outcome is unknown (network error, time-out, 5xx) the caller reads the playlist back
     * before adding again (the playlist writer, src/playlists/, records each batch before the call).
     */
    addTracks: (playlistId: string, uris: string[]) => {
      if (uris.length === 0 || uris.length > 100) throw new Error('addTracks takes 1 to 100 URIs');
      return client.request(
        ctx,
        {
          method: 'POST',
          path: `/playlists/${enc(playlistId)}/items`,
          endpoint: 'POST /playlists/{id}/items',
          body: { uris },
          idempotent: false,
        },
        Snapshot,
      );
    },

    /**
     * `PUT /playlists/{id}/items` with `uris`: the playlist holds exactly these tracks (≤ 100; none clears
     * it). The same replacement twice leaves the same playlist, so it is retried like a read.
     */
    replaceTracks: (playlistId: string, uris: string[]) => {
      if (uris.length > 100) throw new Error('replaceTracks takes at most 100 URIs');
      return client.request(
        ctx,
        {
          method: 'PUT',
          path: `/playlists/${enc(playlistId)}/items`,
          endpoint: 'PUT /playlists/{id}/items',
          body: { uris },
          idempotent: true,
        },
        Snapshot,
      );
    },

    /** `PUT /playlists/{id}`: a new name or description. Setting the same details twice is harmless. */
    changePlaylistDetails: (playlistId: string, d: { name?: string; description?: string }) =>
      client.request(ctx, {
        method: 'PUT',
        path: `/playlists/${enc(playlistId)}`,
        endpoint: 'PUT /playlists/{id}',
        body: d,
        idempotent: true,
      }),

    /** Removes tracks (≤ 100); repeating a removal is harmless, so it is retried like a read. */
    removeTracks: (playlistId: string, uris: string[], snapshotId?: string) =>
      client.request(
        ctx,
        {
          method: 'DELETE',
          path: `/playlists/${enc(playlistId)}/items`,
          endpoint: 'DELETE /playlists/{id}/items',
          body: { items: uris.map((uri) => ({ uri })), ...(snapshotId ? { snapshot_id: snapshotId } : {}) },
          idempotent: true,
        },
        Snapshot,
      ),
  };
  return api;
}
export type SpotifyApi = ReturnType<typeof spotifyApi>;
type SpotifyQuery = Record<string, string | number | undefined>;
