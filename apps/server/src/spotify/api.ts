// Typed Spotify Web API calls for one user, on top of client.ts. Types come from the generated OpenAPI
// types; zod checks the fields the product relies on and keeps the rest. Both 2026 shapes are read:
// playlist items as `item ?? track`, playlists' items as `items ?? tracks`.
import { z } from 'zod';
import type { CallContext, SpotifyClient } from './client.ts';
import type { components } from './generated/spotify-web-api.ts';

type S = components['schemas'];
export type TrackObject = S['TrackObject'];
export type SimplifiedTrackObject = S['SimplifiedTrackObject'];

const Paging = <T extends z.ZodType>(item: T) =>
  z.looseObject({
    items: z.array(item),
    total: z.number().int(),
    offset: z.number().int().optional(),
    limit: z.number().int().optional(),
    next: z.string().nullable().optional(),
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
const SavedTrack = z.looseObject({ added_at: z.string().optional(), track: Track });
const Snapshot = z.looseObject({ snapshot_id: z.string() });
const AudioFeatures = z.looseObject({
  audio_features: z.array(
    z.looseObject({ id: z.string(), tempo: z.number().nullable().optional() }).nullable(),
  ),
});

/** Ids per `GET /audio-features?ids=` call. */
export const AUDIO_FEATURES_MAX_IDS = 100;

export type Me = z.infer<typeof Me> & Partial<S['PrivateUserObject']>;

/** Reads a playlist item in either shape; null for local files, episodes and removed tracks. */
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

  const api = {
    /** `GET /me`: id, display name and, since May 2026, `account_id`. */
    me: () => get('/me', 'GET /me', Me) as Promise<Me>,

    savedTracks: (offset = 0, limit = 50) =>
      get('/me/tracks', 'GET /me/tracks', Paging(SavedTrack), { offset, limit }),

    myPlaylists: (offset = 0, limit = 50) =>
      get(
        '/me/playlists',
        'GET /me/playlists',
        Paging(
          PlaylistBase.extend({
            name: z.string(),
            owner: z.looseObject({ id: z.string() }),
            external_urls: z.looseObject({ spotify: z.string().optional() }).optional(),
          }),
        ),
        { offset, limit },
      ),

    playlist: (id: string) => get(`/playlists/${enc(id)}`, 'GET /playlists/{id}', PlaylistBase),

    /** One page of a playlist's tracks (local files and episodes left out), with the page's raw size. */
    async playlistTracks(id: string, offset = 0, limit = 50) {
      const page = await get(
        `/playlists/${enc(id)}/items`,
        'GET /playlists/{id}/items',
        Paging(PlaylistItem),
        {
          offset,
          limit,
        },
      );
      return {
        tracks: page.items.map(itemTrack).filter((t): t is TrackObject => t !== null),
        pageSize: page.items.length,
        total: page.total,
        next: page.next ?? null,
      };
    },

    followedArtists: (after?: string, limit = 50) =>
      get(
        '/me/following',
        'GET /me/following',
        z.looseObject({
          artists: z.looseObject({
            items: z.array(z.looseObject({ id: z.string() })),
            cursors: z.looseObject({ after: z.string().nullable().optional() }).nullable().optional(),
            next: z.string().nullable().optional(),
          }),
        }),
        { type: 'artist', after, limit },
      ),

    /** `limit` at most 10 in development mode. */
    artistAlbums: (id: string, offset = 0, limit = 10) =>
      get(
        `/artists/${enc(id)}/albums`,
        'GET /artists/{id}/albums',
        Paging(z.looseObject({ id: z.string() })),
        { include_groups: 'album,single,appears_on,compilation', offset, limit: Math.min(limit, 10) },
      ),

    album: (id: string) =>
      get(
        `/albums/${enc(id)}`,
        'GET /albums/{id}',
        z.looseObject({ id: z.string(), tracks: Paging(z.looseObject({ id: z.string().nullable() })) }),
      ),

    track: (id: string) => get(`/tracks/${enc(id)}`, 'GET /tracks/{id}', Track) as Promise<TrackObject>,

    /**
     * `GET /audio-features?ids=` (≤ 100 ids, one call): tempo per track, `null` for unknown ids. Only
     * extended-quota apps that used audio-features before 2024-11-27 have it (they keep the multi-get
     * endpoints too); a development-mode app gets 403, which is remembered, so it is asked once.
     */
    async audioFeatures(ids: string[]) {
      if (ids.length === 0 || ids.length > AUDIO_FEATURES_MAX_IDS)
        throw new Error(`audioFeatures takes 1 to ${AUDIO_FEATURES_MAX_IDS} ids`);
      const r = await client.request(
        ctx,
        {
          method: 'GET',
          path: '/audio-features',
          endpoint: 'GET /audio-features',
          query: { ids: ids.join(',') },
          idempotent: true,
          capability: 'audio-features',
        },
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
