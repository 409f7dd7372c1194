// Artist catalogs, the costly part, shared by the whole installation. One step = one call: a page of an
// artist's releases (`GET /artists/{id}/albums`, 10 per page, 50 with extended quota; groups from the
// settings), or a release (`GET /albums/{id}`, its first 50 tracks embedded; with extended quota up to 20
// of the artist's releases in one `GET /albums?ids=`), or a further page of a long release
// (`GET /albums/{id}/tracks`, following `tracks.next`). Artists most frequent in the user's library go
// first; a catalog or release another user's scan already read costs nothing; a read catalog is checked
// for new releases once per `catalogRecheckMs` (one call when nothing changed).
import { ALBUMS_MAX_IDS } from '../spotify/api.ts';
import { TEMPO_PRIORITY } from '../tempo/tempo.jobs.ts';
import { SpotifyApiError, SpotifyCapabilityMissingError } from '../spotify/errors.ts';
import { PAGE, type ScanContext, type StepResult } from './scan-context.ts';
import type { ReleaseRow } from './catalog.repository.ts';
import {
  artistsOf,
  toLibraryRelease,
  toLibraryTrack,
  type LibraryRelease,
  type LibraryTrack,
} from './spotify-items.ts';

/** Releases a listing page asks for: development mode allows at most 10, extended quota 50. */
const LISTING_PAGE = { developmentMode: 10, extendedQuota: 50 };

/**
 * A runner short of their first 50 has their catalogs read at `first_catalogs` while fewer than this many
 * of their catalog tracks wait for a tempo lookup: a first 50 takes a few hundred looked up.
 */
const FIRST_CATALOGS_AHEAD = 300;
/**
 * ... and read in breadth: the listings of their most frequent artists first (this many), then their
 * releases a few of each artist at a time (FIRST_RELEASES_PER_ARTIST of each before any artist's next). One
 * artist's whole catalog first (20 releases in one multi-get) gave a runner 100 fitting songs of which the
 * artist spread could place a few: bench:crowd's runners short of 50 at the end had their songs held so.
 */
const FIRST_LIST_AHEAD = 8;
const FIRST_RELEASES_PER_ARTIST = 2;

/** A release's page of tracks as read (null: Spotify no longer has it), for saving. */
interface ReleaseRead {
  release: ReleaseRow;
  page: { items: unknown[]; pageSize: number; total: number; next: string | null } | null;
}
/** A release of a multi-get: null when Spotify did not return it (gone), as a 404 of `GET /albums/{id}`. */
const albumRead = (release: ReleaseRow, album: { tracks: ReleaseRead['page'] } | null): ReleaseRead => ({
  release,
  page: album?.tracks ?? null,
});

/** Spotify's answers that say "this id is no good" (gone or malformed): skip it rather than retry. */
const gone = (err: unknown) => err instanceof SpotifyApiError && (err.status === 404 || err.status === 400);

/**
 * One catalog call for the user's next artist; `idle` when every catalog is read and checked.
 * `artistsStale`: the user's artist set must be computed again first (membership changed).
 */
export async function catalogStep(
  c: ScanContext,
  userId: string,
  artistsStale: boolean,
): Promise<StepResult> {
  const { catalogGroups: groups, maxReleasesPerArtist: cap } = c.settings;
  // A runner still waiting for their first songs has their catalogs read before anyone's background work
  // (and looked up before the catalogs of runners past their first 50).
  // ... while the lookups keep up: read far ahead of them (a whole catalog is a few multi-gets with extended
  // quota), the catalogs took the shared window from other runners' first writes, and their lookups, all
  // at the first-50 priority, put a runner's whole catalog before the next runner's first tracks. What is
  // read beyond goes as other runners' catalogs do, reads and lookups (bench:crowd: 79 → 98 of 100 at 50).
  const first =
    (await c.firstSongs?.(userId)) === true &&
    (await c.repo.catalogTracksAwaitingTempo(userId, FIRST_CATALOGS_AHEAD, TEMPO_PRIORITY.firstCatalog)) <
      FIRST_CATALOGS_AHEAD;
  const api = c.api({
    userId,
    purpose: 'scan:catalog',
    priority: first ? 'first_catalogs' : 'catalog_expansion',
  });
  if (artistsStale) await c.repo.refreshUserArtists(userId);
  // Not while the app's kind is unknown: a listing then asks for 10 releases a page (development mode's
  // most), where an extended-quota app's first multi-get makes it 50.
  const listAhead = first && (await api.severalAlbums()) !== undefined;
  // Steps that need no call (a catalog whose releases are all read) do not count: look further.
  for (let guard = 0; guard < 20; guard++) {
    const next = await c.repo.nextCatalogArtist(
      userId,
      groups,
      c.settings.catalogRecheckMs,
      listAhead ? FIRST_LIST_AHEAD : 0,
    );
    if (!next) return { calls: 0, tracks: 0, idle: true };
    const artist = await c.repo.getArtist(next.artistId);
    if (!artist) return { calls: 0, tracks: 0, idle: true };

    if (next.step === 'list' || next.step === 'recheck') {
      const recheck = next.step === 'recheck';
      const restart = !recheck && artist.catalogGroups !== groups;
      const offset = recheck || restart ? 0 : artist.catalogOffset;
      let releases: LibraryRelease[] = [];
      let total = 0;
      let pageSize = 0;
      let more = false;
      if (offset < cap) {
        try {
          // An app known to have the multi-gets is an extended-quota app: 50 releases a page.
          const limit =
            (await api.severalAlbums()) === true ? LISTING_PAGE.extendedQuota : LISTING_PAGE.developmentMode;
          const page = await api.artistAlbums(artist.id, offset, limit, groups);
          releases = page.items.map(toLibraryRelease).filter((r): r is LibraryRelease => r !== null);
          pageSize = page.pageSize;
          more = page.next !== null && pageSize > 0;
          total = Math.min(page.total, cap);
        } catch (err) {
          if (!gone(err)) throw err;
        }
      }
      const listed = more ? total : offset + pageSize;
      await c.repo.inScan(userId, async (q) => {
        if (recheck) {
          const known = await q.knownReleases(
            artist.id,
            releases.map((r) => r.id),
          );
          // Nothing new at the head and the same count: the catalog did not change.
          if (releases.every((r) => known.has(r.id)) && listed === artist.catalogTotal) {
            await q.markCatalogChecked(artist.id);
            return;
          }
        }
        await q.saveListingPage(artist.id, { groups, offset, total: listed, releases, restart });
      });
      return { calls: offset < cap ? 1 : 0, tracks: 0 };
    }

    const releases = first
      ? await c.repo.nextUnreadReleasesAcross(userId, ALBUMS_MAX_IDS, FIRST_RELEASES_PER_ARTIST)
      : await c.repo.nextUnreadReleases(artist.id, ALBUMS_MAX_IDS);
    const release = releases[0];
    if (!release) {
      await c.repo.inScan(userId, (q) => q.markCatalogRead(artist.id));
      continue;
    }
    // An extended-quota app reads up to 20 releases in one call (of this artist, or in a new runner's
    // breadth, of several); development mode (a 403
    // remembered, no call after the first) and a release whose later pages are due read one at a time.
    const fresh = releases.filter((r) => r.tracksRead === 0);
    const read: ReleaseRead[] = [];
    if (release.tracksRead === 0 && (await api.severalAlbums()) !== false) {
      try {
        const albums = await api.albums(fresh.map((r) => r.id));
        fresh.forEach((r, i) => read.push(albumRead(r, albums[i] ?? null)));
      } catch (err) {
        if (!(err instanceof SpotifyCapabilityMissingError)) throw err;
      }
    }
    if (read.length === 0) {
      let page: ReleaseRead['page'] = null;
      try {
        if (release.tracksRead === 0) page = (await api.album(release.id)).tracks;
        else page = await api.albumTracks(release.id, release.tracksRead, PAGE);
      } catch (err) {
        if (!gone(err)) throw err;
      }
      read.push({ release, page });
    }
    const saved = read.map(({ release: r, page }) => {
      const tracks = (page?.items ?? [])
        .map((t) => toLibraryTrack(t, r))
        .filter((t): t is LibraryTrack => t !== null);
      const tracksRead = r.tracksRead + (page?.pageSize ?? 0);
      const total = page ? page.total : r.totalTracks;
      const done = !page || page.next === null || page.pageSize === 0 || tracksRead >= total;
      return { release: r, tracks, progress: { tracksRead, totalTracks: total, done } };
    });
    const tracks = saved.flatMap((x) => x.tracks);
    await c.repo.inScan(userId, async (q) => {
      await q.upsertArtists(artistsOf(tracks));
      await q.upsertTracks(tracks);
      for (const x of saved) await q.saveReleaseProgress(x.release.id, x.progress);
    });
    // Their lookups likewise before the catalogs of the runners past their first 50 (TEMPO_PRIORITY).
    await c.queueTempo(
      userId,
      tracks.map((t) => t.id),
      first ? { firstSongs: true } : {},
    );
    return { calls: 1, tracks: tracks.length };
  }
  return { calls: 0, tracks: 0 };
}
