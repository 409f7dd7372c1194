// What the writer reads from Spotify about its playlists, on top of the typed Web API (spotify/api.ts).
import { itemEntry, playlistTotal, type SpotifyApi, type TrackObject } from '../spotify/api.ts';
import { spotifyLink } from '@pacebeat/contract';
import type { OwnPlaylistSeen } from '../db/library.schema.ts';
import {
  SpotifyAccountDisabledError,
  SpotifyApiError,
  SpotifyDeferredError,
  SpotifyNotConnectedError,
} from '../spotify/errors.ts';
import { tempoKey } from '../tempo/tempo.service.ts';

/** Spotify answered 404 for the playlist: it is gone (deleted for good, or never was). */
export class PlaylistGoneError extends Error {
  readonly playlistId: string;
  constructor(playlistId: string) {
    super(`playlist ${playlistId} is gone`);
    this.name = 'PlaylistGoneError';
    this.playlistId = playlistId;
  }
}

/** A playlist of the user's own, as `GET /me/playlists` lists it (the library's discovery keeps them too). */
export type OwnPlaylist = OwnPlaylistSeen;

/** A track in a playlist, by recording (the tempo cache's key) and track id. */
export interface PlacedTrack {
  recordingKey: string;
  trackId: string;
  /** When it was added to the playlist, as Spotify says (null when it does not). */
  addedAt?: Date | null;
}

const PAGE = 50;

/** The most items a Spotify playlist holds ("about 10,000"; Spotify refuses adds past it). */
export const PLAYLIST_MAX_ITEMS = 10_000;

// itemTrack() keeps only tracks with an id.
const recordingOf = ({ track: t, addedAt }: { track: TrackObject; addedAt: string | null }): PlacedTrack => {
  const at = addedAt ? new Date(addedAt) : null;
  return {
    trackId: t.id as string,
    recordingKey: tempoKey({ spotifyId: t.id as string, isrc: t.external_ids?.isrc ?? null }),
    addedAt: at && !Number.isNaN(at.getTime()) ? at : null,
  };
};

async function orGone<T>(playlistId: string, call: Promise<T>): Promise<T> {
  try {
    return await call;
  } catch (err) {
    if (err instanceof SpotifyApiError && err.status === 404) throw new PlaylistGoneError(playlistId);
    throw err;
  }
}

/** The playlists of a `GET /me/playlists` page that `ownerId` owns. */
export function ownOf(
  items: Awaited<ReturnType<SpotifyApi['myPlaylists']>>['items'],
  ownerId: string,
): OwnPlaylist[] {
  return items
    .filter((p) => p.owner?.id === ownerId)
    .map((p) => ({
      id: p.id,
      name: p.name ?? '',
      description: p.description ?? null,
      publicUrl: spotifyLink(p.external_urls?.spotify),
      snapshotId: p.snapshot_id ?? null,
    }));
}

/** Every playlist in the user's library that they own (all pages: `GET /me/playlists`, 50 a call). */
export async function listOwnPlaylists(api: SpotifyApi, ownerId: string): Promise<OwnPlaylist[]> {
  const out: OwnPlaylist[] = [];
  for (let offset = 0; ; offset += PAGE) {
    const page = await api.myPlaylists(offset, PAGE);
    out.push(...ownOf(page.items, ownerId));
    if (!page.next || page.items.length === 0) return out;
  }
}

/** The playlist's snapshot, item count and first page of tracks (`GET /playlists/{id}`: one call). */
export async function playlistHead(api: SpotifyApi, playlistId: string) {
  const p = await orGone(playlistId, api.playlist(playlistId));
  const ref = p.items ?? p.tracks;
  const first = ref?.items ?? null;
  return {
    snapshotId: p.snapshot_id ?? null,
    total: playlistTotal(p),
    /** The first page as returned (all items when it holds `total` of them), tracks only. */
    firstPage: first === null ? null : first.flatMap((i) => itemEntry(i) ?? []),
    firstPageSize: first?.length ?? 0,
  };
}

/** Every track of the playlist (episodes and local files left out); reuses the head's first page. */
export async function readAllTracks(
  api: SpotifyApi,
  playlistId: string,
  head: Awaited<ReturnType<typeof playlistHead>>,
): Promise<PlacedTrack[]> {
  const out: PlacedTrack[] = [];
  let offset = 0;
  if (head.firstPage !== null) {
    out.push(...head.firstPage.map(recordingOf));
    offset = head.firstPageSize;
  }
  while (offset < head.total) {
    const page = await orGone(playlistId, api.playlistTracks(playlistId, offset, PAGE));
    out.push(...page.entries.map(recordingOf));
    if (page.pageSize === 0) break;
    offset += page.pageSize;
  }
  return out;
}

/** The track ids of the last `count` items, or null when one of them is not a track. */
export async function readTail(
  api: SpotifyApi,
  playlistId: string,
  total: number,
  count: number,
): Promise<string[] | null> {
  const ids: string[] = [];
  for (let offset = Math.max(0, total - count); offset < total; offset += PAGE) {
    const page = await orGone(
      playlistId,
      api.playlistTracks(playlistId, offset, Math.min(PAGE, total - offset)),
    );
    if (page.tracks.length !== page.pageSize) return null;
    ids.push(...page.tracks.map((t) => t.id as string));
    if (page.pageSize === 0) break;
  }
  return ids;
}

/**
 * Whether a failed write surely did not happen: Spotify refused it (4xx, 429) or it was never sent
 * (budget, cooldown, no token). A network error, a time-out or a 5xx may follow a write Spotify applied.
 */
export function surelyNotApplied(err: unknown): boolean {
  if (
    err instanceof SpotifyDeferredError ||
    err instanceof SpotifyAccountDisabledError ||
    err instanceof SpotifyNotConnectedError
  )
    return true;
  return err instanceof SpotifyApiError && err.status >= 400 && err.status < 500;
}
