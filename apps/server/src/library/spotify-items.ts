// Spotify objects as the library keeps them. Every read is defensive: an object that is not a playable
// Spotify track (local file, podcast episode, null, a field of the wrong type) gives null, so one odd
// item never fails a page. Both shapes are read (`item ?? track` is done by the API layer).
import { tempoKey } from '../tempo/tempo.service.ts';

export interface ArtistRef {
  id: string;
  name: string;
}

export interface LibraryTrack {
  id: string;
  /** Upper-cased ISRC when Spotify gave one (full track objects only; album tracks have none). */
  isrc: string | null;
  /** The tempo key: `isrc:<ISRC>` when known, else `spotify:<id>` (tempo.service.ts `tempoKey`). */
  recordingKey: string;
  title: string;
  artists: ArtistRef[];
  durationMs: number;
  explicit: boolean;
  releaseId: string | null;
  trackNumber: number | null;
}

export interface LibraryRelease {
  id: string;
  albumType: string;
  name: string;
  releaseDate: string;
  totalTracks: number;
}

/** Spotify ids are base-62; anything else (local files, garbage) is not a track we can use. */
const SPOTIFY_ID = /^[A-Za-z0-9]{1,64}$/;
const ISRC = /^[A-Z0-9]{5,32}$/;

type Obj = Record<string, unknown>;
const isObj = (v: unknown): v is Obj => typeof v === 'object' && v !== null && !Array.isArray(v);
const str = (v: unknown): string | undefined => (typeof v === 'string' ? v : undefined);

/** A simplified or full artist with an id; null for local-file artists (no id) and odd values. */
export function toArtistRef(raw: unknown): ArtistRef | null {
  if (!isObj(raw)) return null;
  const id = str(raw['id']);
  if (!id || !SPOTIFY_ID.test(id)) return null;
  return { id, name: str(raw['name']) ?? '' };
}

/** A track object (full or simplified) as the library keeps it; null when it is not a usable track. */
export function toLibraryTrack(raw: unknown, release?: { id: string }): LibraryTrack | null {
  if (!isObj(raw)) return null;
  if (raw['is_local'] === true) return null;
  const type = raw['type'];
  if (type !== undefined && type !== 'track') return null;
  const id = str(raw['id']);
  if (!id || !SPOTIFY_ID.test(id)) return null;
  const duration = raw['duration_ms'];
  const durationMs = typeof duration === 'number' && Number.isFinite(duration) ? Math.max(0, duration) : 0;
  const ext = raw['external_ids'];
  const isrcRaw = isObj(ext) ? str(ext['isrc'])?.trim().toUpperCase() : undefined;
  const isrc = isrcRaw && ISRC.test(isrcRaw) ? isrcRaw : null;
  const album = raw['album'];
  const albumId = isObj(album) ? str(album['id']) : undefined;
  const releaseId = release?.id ?? (albumId && SPOTIFY_ID.test(albumId) ? albumId : null);
  const artists = Array.isArray(raw['artists'])
    ? raw['artists'].map(toArtistRef).filter((a): a is ArtistRef => a !== null)
    : [];
  const no = raw['track_number'];
  return {
    id,
    isrc,
    recordingKey: tempoKey({ spotifyId: id, isrc }),
    title: (str(raw['name']) ?? '').slice(0, 1000),
    artists: artists.slice(0, 50),
    durationMs: Math.round(durationMs),
    explicit: raw['explicit'] === true,
    releaseId,
    trackNumber: typeof no === 'number' && Number.isInteger(no) && no >= 0 && no < 32768 ? no : null,
  };
}

/** A release from an artist's albums listing or `GET /albums/{id}`; null when it has no usable id. */
export function toLibraryRelease(raw: unknown): LibraryRelease | null {
  if (!isObj(raw)) return null;
  const id = str(raw['id']);
  if (!id || !SPOTIFY_ID.test(id)) return null;
  const total = raw['total_tracks'];
  return {
    id,
    albumType: str(raw['album_type']) ?? 'album',
    name: (str(raw['name']) ?? '').slice(0, 1000),
    releaseDate: str(raw['release_date']) ?? '',
    totalTracks: typeof total === 'number' && Number.isInteger(total) && total >= 0 ? total : 0,
  };
}

/** Every artist of some tracks, once each. */
export function artistsOf(tracks: LibraryTrack[]): ArtistRef[] {
  const seen = new Map<string, ArtistRef>();
  for (const t of tracks) for (const a of t.artists) if (!seen.has(a.id)) seen.set(a.id, a);
  return [...seen.values()];
}
