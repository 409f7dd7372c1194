// Artist catalogs, the costly part, shared by the whole installation. One step = one call: a page of an
// artist's releases (`GET /artists/{id}/albums`, 10 per page, groups from the settings), or a release
// (`GET /albums/{id}`, its first 50 tracks embedded), or a further page of a long release
// (`GET /albums/{id}/tracks`, following `tracks.next`). Artists most frequent in the user's library go
// first; a catalog or release another user's scan already read costs nothing; a read catalog is checked
// for new releases once per `catalogRecheckMs` (one call when nothing changed).
import { SpotifyApiError } from '../spotify/errors.ts';
import { PAGE, type ScanContext, type StepResult } from './scan-context.ts';
import {
  artistsOf,
  toLibraryRelease,
  toLibraryTrack,
  type LibraryRelease,
  type LibraryTrack,
} from './spotify-items.ts';

const LISTING_PAGE = 10;

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
  const first = (await c.firstSongs?.(userId)) === true;
  const api = c.api({
    userId,
    purpose: 'scan:catalog',
    priority: first ? 'first_catalogs' : 'catalog_expansion',
  });
  if (artistsStale) await c.repo.refreshUserArtists(userId);
  // Steps that need no call (a catalog whose releases are all read) do not count: look further.
  for (let guard = 0; guard < 20; guard++) {
    const next = await c.repo.nextCatalogArtist(userId, groups, c.settings.catalogRecheckMs);
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
          const page = await api.artistAlbums(artist.id, offset, LISTING_PAGE, groups);
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

    const release = await c.repo.nextUnreadRelease(artist.id);
    if (!release) {
      await c.repo.inScan(userId, (q) => q.markCatalogRead(artist.id));
      continue;
    }
    let items: unknown[] = [];
    let total = release.totalTracks;
    let more = false;
    let pageSize = 0;
    try {
      if (release.tracksRead === 0) {
        const album = await api.album(release.id);
        items = album.tracks.items;
        pageSize = album.tracks.pageSize;
        total = album.tracks.total;
        more = album.tracks.next !== null;
      } else {
        const page = await api.albumTracks(release.id, release.tracksRead, PAGE);
        items = page.items;
        pageSize = page.pageSize;
        total = page.total;
        more = page.next !== null;
      }
    } catch (err) {
      if (!gone(err)) throw err;
    }
    const tracks = items.map((t) => toLibraryTrack(t, release)).filter((t): t is LibraryTrack => t !== null);
    const tracksRead = release.tracksRead + pageSize;
    const done = !more || pageSize === 0 || tracksRead >= total;
    await c.repo.inScan(userId, async (q) => {
      await q.upsertArtists(artistsOf(tracks));
      await q.upsertTracks(tracks);
      await q.saveReleaseProgress(release.id, { tracksRead, totalTracks: total, done });
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
