// A run's playlist in the runner's Spotify account: created on the first build, its items replaced on each
// build. A build of ≤ 100 songs costs 2 calls the first time (`POST /me/playlists`, `PUT …/items`) and 1
// after (the replacement), plus 1 when the run's name or plan changed (`PUT /playlists/{id}`). Replacing
// is idempotent, so a build that ended unclearly is simply written again; a creation is not, so its intent
// is recorded first and an unclear one is looked for by name before another is made.
import { describeRun, spotifyLink, type RunBlock } from '@pacebeat/contract';
import type { SpotifyApi } from '../spotify/api.ts';
import {
  SpotifyAccountDisabledError,
  SpotifyApiError,
  SpotifyDeferredError,
  SpotifyNotConnectedError,
} from '../spotify/errors.ts';
import { listOwnPlaylists, PlaylistGoneError, surelyNotApplied } from '../playlists/spotify-playlists.ts';
import type { RunRow, RunsRepository } from './runs.repository.ts';

/** Another build of the run is creating its playlist right now. */
export class RunBusyError extends Error {
  constructor() {
    super('Another build of this run is making its playlist in Spotify now: try again in a minute.');
    this.name = 'RunBusyError';
  }
}

/** Spotify's longest playlist description. */
const DESCRIPTION_MAX = 300;
const URIS_PER_CALL = 100;

/** The run's playlist name in Spotify. */
export const runPlaylistName = (name: string) => `Pacebeat run: ${name}`;

/** The playlist's description: the plan, cut to what Spotify keeps. */
export function runPlaylistDescription(blocks: readonly RunBlock[]): string {
  const text = `Built by Pacebeat from your songs, each at the tempo of its part of the run: ${describeRun(blocks)}.`;
  return text.length <= DESCRIPTION_MAX ? text : `${text.slice(0, DESCRIPTION_MAX - 1)}…`;
}

export interface WriteOutcome {
  state: 'written' | 'waiting' | 'failed';
  message: string | null;
  calls: number;
}

const inAbout = (at: Date, now: number) => {
  const minutes = Math.max(1, Math.ceil((at.getTime() - now) / 60_000));
  return minutes < 90
    ? `in about ${minutes} minute${minutes === 1 ? '' : 's'}`
    : `in about ${Math.round(minutes / 60)} hours`;
};

/** Why the build is not (all) in Spotify, in words; and whether sending again later may work. */
export function outcomeOf(err: unknown, calls: number, now = Date.now()): WriteOutcome {
  if (err instanceof RunBusyError) return { state: 'failed', calls, message: err.message };
  if (err instanceof SpotifyDeferredError) {
    const when = inAbout(err.retryAt, now);
    const why =
      err.reason === 'share'
        ? 'Your share of the Spotify calls the runners here share for today is spent'
        : err.reason === 'quota'
          ? "Pacebeat's Spotify calls for today are spent"
          : err.reason === 'rate'
            ? 'Spotify is busy with the runners here right now'
            : 'Spotify cannot be reached right now';
    return {
      state: 'waiting',
      calls,
      message: `${why}: the run is saved here, and "Send to Spotify" writes it to its playlist ${when}.`,
    };
  }
  if (err instanceof SpotifyNotConnectedError)
    return { state: 'failed', calls, message: 'Connect Spotify first: the run is saved here until then.' };
  if (err instanceof SpotifyAccountDisabledError)
    return {
      state: 'failed',
      calls,
      message: 'Spotify refuses your account to Pacebeat: connect again on the status page to send the run.',
    };
  if (err instanceof SpotifyApiError && err.status < 500)
    return {
      state: 'failed',
      calls,
      message: `Spotify refused the playlist (${err.status}): the run is saved here; "Send to Spotify" tries again.`,
    };
  return {
    state: 'failed',
    calls,
    message: 'Spotify did not answer clearly: the run is saved here; "Send to Spotify" tries again.',
  };
}

/**
 * Writes the songs (track ids, in order) to the run's playlist, creating it when the run has none. Returns
 * how it went; a Spotify failure is an outcome, not an error (the build is kept either way).
 */
export async function writeRunPlaylist(d: {
  api: SpotifyApi;
  repo: Pick<RunsRepository, 'markCreating' | 'setPlaylist'>;
  run: RunRow;
  trackIds: string[];
  /** The runner's Spotify user id (their own playlists are looked through after an unclear creation). */
  ownerId: string;
  now?: () => number;
}): Promise<WriteOutcome> {
  const { api, repo, run } = d;
  const name = runPlaylistName(run.name);
  const description = runPlaylistDescription(run.blocks);
  const uris = d.trackIds.map((id) => `spotify:track:${id}`);
  let calls = 0;
  const call = async <T>(p: Promise<T>) => {
    calls++;
    return p;
  };
  let playlist = {
    id: run.playlistId,
    url: run.publicUrl,
    sentName: run.sentName,
    sentDescription: run.sentDescription,
  };

  const create = async () => {
    if (!(await repo.markCreating(run.id, name))) throw new RunBusyError();
    try {
      const p = await call(api.createPlaylist({ name, description, public: false }));
      const url = spotifyLink(p.external_urls?.spotify);
      await repo.setPlaylist(run.id, {
        playlistId: p.id,
        publicUrl: url,
        sentName: name,
        sentDescription: description,
      });
      playlist = { id: p.id, url, sentName: name, sentDescription: description };
    } catch (err) {
      // Refused or never sent: no playlist was made. Otherwise it may exist: looked for by name next time.
      if (surelyNotApplied(err))
        await repo.setPlaylist(run.id, {
          playlistId: null,
          publicUrl: null,
          sentName: null,
          sentDescription: null,
        });
      throw err;
    }
  };

  try {
    if (!playlist.id && run.creatingSince) {
      // An earlier creation ended unclearly: it is taken if Spotify made it, never made twice.
      const found = (await call(listOwnPlaylists(api, d.ownerId))).find(
        (p) => p.name === (run.sentName ?? name),
      );
      if (found) {
        await repo.setPlaylist(run.id, {
          playlistId: found.id,
          publicUrl: found.publicUrl,
          sentName: found.name,
          sentDescription: found.description,
        });
        playlist = {
          id: found.id,
          url: found.publicUrl,
          sentName: found.name,
          sentDescription: found.description,
        };
      }
    }
    if (!playlist.id) await create();
    try {
      await call(api.replaceTracks(playlist.id!, uris.slice(0, URIS_PER_CALL)));
    } catch (err) {
      const gone = err instanceof PlaylistGoneError || (err instanceof SpotifyApiError && err.status === 404);
      if (!gone) throw err;
      // The runner deleted the playlist in Spotify: a new one.
      await create();
      await call(api.replaceTracks(playlist.id!, uris.slice(0, URIS_PER_CALL)));
    }
    for (let i = URIS_PER_CALL; i < uris.length; i += URIS_PER_CALL)
      await call(api.addTracks(playlist.id!, uris.slice(i, i + URIS_PER_CALL)));
    if (playlist.sentName !== name || playlist.sentDescription !== description) {
      await call(api.changePlaylistDetails(playlist.id!, { name, description }));
      await repo.setPlaylist(run.id, {
        playlistId: playlist.id,
        publicUrl: playlist.url,
        sentName: name,
        sentDescription: description,
      });
    }
    return { state: 'written', message: null, calls };
  } catch (err) {
    return outcomeOf(err, calls, (d.now ?? Date.now)());
  }
}
