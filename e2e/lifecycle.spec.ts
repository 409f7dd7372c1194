import { randomUUID } from 'node:crypto';
import { expect, test, type APIRequestContext, type Page } from '@playwright/test';
import {
  connectThroughConsent,
  sandboxAdmin,
  sandboxAdminHeaders,
  signUpByApi,
  uniqueEmail,
  WIDTHS,
} from './support.ts';

// No song twice: two runners on one installation, one of them disconnecting and connecting
// again, walked in a real browser, find no duplicate in any playlist. Demo mode: the simulated Spotify
// runs in the server's process, and its admin API tells the truth about every track (its recording's
// ISRC and the song it is, as a runner hears it), so the playlists are checked from outside.

interface AdminUser {
  id: string;
  playlists: Array<{ id: string; name: string; owner?: string; items: number }>;
}
interface TrackTruth {
  id: string;
  name: string;
  artists: string[];
  album: string;
  isrc: string;
  trueTempo: number;
  /** Shared by every version and copy of one song (when the sandbox offers it; else the ISRC is used). */
  songId?: string;
  songRole?: string;
}
interface SongTruth {
  songId: string;
  tracks: Array<{ id: string; name: string; isrc: string; role: string }>;
}
interface PlaylistState {
  id: string;
  name: string;
  trackIds: string[];
}
interface Duplicate {
  playlist: string;
  playlistId: string;
  why: string;
  tracks: string[];
}

const DESKTOP = WIDTHS[0].viewport;
const RANGES = [
  [150, 160],
  [160, 170],
  [170, 180],
  [180, 190],
] as const;

/** The world's truth, read through the sandbox's admin API (track facts never change: cached). */
class World {
  private readonly truths = new Map<string, TrackTruth>();
  private readonly api: APIRequestContext;
  private readonly admin: string;
  constructor(api: APIRequestContext, admin: string) {
    this.api = api;
    this.admin = admin;
  }

  private async get<T>(path: string): Promise<T> {
    const res = await this.api.get(`${this.admin}${path}`, { headers: sandboxAdminHeaders });
    expect(res.ok(), `GET /admin${path}: ${res.status()} ${await res.text()}`).toBe(true);
    return (await res.json()) as T;
  }

  async post<T>(path: string, data: unknown, status = 200): Promise<T> {
    const res = await this.api.post(`${this.admin}${path}`, { headers: sandboxAdminHeaders, data });
    expect(res.status(), `POST /admin${path}: ${await res.text()}`).toBe(status);
    return (await res.json()) as T;
  }

  user = (id: string) => this.get<AdminUser>(`/users/${id}`);
  items = async (playlistId: string) =>
    (await this.get<{ trackIds: string[] }>(`/playlists/${playlistId}/items`)).trackIds;
  song = (trackId: string) => this.get<SongTruth>(`/songs/${trackId}`);

  async track(id: string): Promise<TrackTruth> {
    let t = this.truths.get(id);
    if (!t) {
      t = await this.get<TrackTruth>(`/tracks/${id}`);
      this.truths.set(id, t);
    }
    return t;
  }

  /** The song a track is: the admin's songId when it has one, else its recording (ISRC). */
  async songKey(id: string) {
    const t = await this.track(id);
    return t.songId !== undefined ? `song ${t.songId}` : `isrc ${t.isrc}`;
  }

  /** The runner's own Pacebeat playlists (by name: Pacebeat writes "Pacebeat {min}–{max} BPM") and items. */
  async pacebeatPlaylists(spotifyUser: string): Promise<PlaylistState[]> {
    const user = await this.user(spotifyUser);
    const own = user.playlists.filter((p) => p.owner === spotifyUser && /^Pacebeat\b/.test(p.name));
    return Promise.all(own.map(async (p) => ({ id: p.id, name: p.name, trackIds: await this.items(p.id) })));
  }

  /** Every track id twice, and every song (or ISRC) held by two track ids, in one playlist. */
  async duplicates(playlists: PlaylistState[]): Promise<Duplicate[]> {
    const found: Duplicate[] = [];
    for (const p of playlists) {
      const byId = new Map<string, number>();
      for (const id of p.trackIds) byId.set(id, (byId.get(id) ?? 0) + 1);
      for (const [id, n] of byId)
        if (n > 1)
          found.push({ playlist: p.name, playlistId: p.id, why: `track id ${n} times`, tracks: [id] });
      const bySong = new Map<string, string[]>();
      const byIsrc = new Map<string, string[]>();
      for (const id of byId.keys()) {
        const t = await this.track(id);
        const key = await this.songKey(id);
        bySong.set(key, [...(bySong.get(key) ?? []), id]);
        byIsrc.set(t.isrc, [...(byIsrc.get(t.isrc) ?? []), id]);
      }
      for (const [key, ids] of [...bySong, ...[...byIsrc].map(([k, v]) => [`isrc ${k}`, v] as const)])
        if (ids.length > 1)
          found.push({ playlist: p.name, playlistId: p.id, why: `one ${key}`, tracks: ids });
    }
    return found;
  }

  /** A duplicate as a report line: which playlist, which track ids, their names, albums and roles. */
  async describe(d: Duplicate) {
    const tracks = await Promise.all(
      d.tracks.map(async (id) => {
        const t = await this.track(id);
        return `${id} "${t.name}" (${t.artists.join(', ')}; ${t.album}; ISRC ${t.isrc}${t.songRole ? `; ${t.songRole}` : ''})`;
      }),
    );
    return `${d.playlist} [${d.playlistId}]: ${d.why}: ${tracks.join(' / ')}`;
  }
}

const fits = (bpm: number) =>
  [bpm, bpm * 2, bpm / 2].some((b) => RANGES.some(([min, max]) => b >= min + 1 && b < max - 1));

const trackCount = (ps: PlaylistState[]) => ps.reduce((n, p) => n + p.trackIds.length, 0);

async function proceedToStatusPage(page: Page, spotifyUser: string) {
  await connectThroughConsent(page, spotifyUser);
  await expect(page.getByRole('alert').filter({ hasText: 'Spotify connected successfully.' })).toBeVisible({
    timeout: 30_000,
  });
  await page.getByRole('button', { name: 'Proceed' }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByRole('table', { name: 'Target playlists' })).toBeVisible({ timeout: 30_000 });
}

/** The playlist sources the status page lists (GET /api/spotify/sources as the runner). */
async function playlistSources(page: Page) {
  const res = await page.request.get('/api/spotify/sources');
  expect(res.ok(), await res.text()).toBe(true);
  const { data } = (await res.json()) as {
    data: { sources: Array<{ kind: string; source_id: string; name: string }> };
  };
  return data.sources.filter((s) => s.kind === 'playlist');
}

/** Playlists and sources as a runner's Spotify account and status page hold them: no song twice. */
async function expectClean(world: World, page: Page, who: string, playlists: PlaylistState[]) {
  const dups = await world.duplicates(playlists);
  const lines = await Promise.all(dups.map((d) => world.describe(d)));
  expect(lines, `${who}: the same song twice in a Pacebeat playlist`).toEqual([]);
  const ours = new Set(playlists.map((p) => p.id));
  const names = new Set(playlists.map((p) => p.name));
  const sources = (await playlistSources(page)).filter((s) => ours.has(s.source_id) || names.has(s.name));
  expect(sources, `${who}: a Pacebeat playlist listed as a source`).toEqual([]);
}

test('two runners, one disconnects and connects again: no song twice in any playlist, one set of playlists', async ({
  browser,
}) => {
  test.setTimeout(15 * 60_000);
  const t0 = Date.now();
  const log = (what: string) => console.log(`[lifecycle ${Math.round((Date.now() - t0) / 1000)} s] ${what}`);
  const contextA = await browser.newContext({ viewport: DESKTOP });
  const contextB = await browser.newContext({ viewport: DESKTOP });
  const a = await contextA.newPage();
  const b = await contextB.newPage();
  await signUpByApi(a, uniqueEmail('lifecycle-a'), 'Ann Along');
  await signUpByApi(b, uniqueEmail('lifecycle-b'), 'Bo Beside');
  const world = new World(a.request, await sandboxAdmin(a));

  // Two libraries that overlap: each likes songs of the other's own playlist (and so the same artists,
  // whose catalogs are read too). A's first playlist also holds the album track of a single she likes
  // (the same song twice in her library), where the sandbox generates that.
  const name = () => `e2e${randomUUID().slice(0, 8)}`;
  const spotA = (
    await world.post<AdminUser>(
      '/users',
      { username: name(), liked: 150, owned: 1, ownedSize: [25, 40], sameSongTwice: true },
      201,
    )
  ).id;
  const spotB = (
    await world.post<AdminUser>(
      '/users',
      { username: name(), liked: 150, owned: 1, ownedSize: [25, 40] },
      201,
    )
  ).id;
  const ownPlaylist = async (id: string) => {
    const p = (await world.user(id)).playlists.find((x) => x.owner === id);
    expect(p, `${id} owns a playlist`).toBeDefined();
    return [...new Set(await world.items(p!.id))];
  };
  const [listA, listB] = [await ownPlaylist(spotA), await ownPlaylist(spotB)];
  await world.post(`/users/${spotB}/liked`, { trackIds: listA.slice(0, 25) });
  await world.post(`/users/${spotA}/liked`, { trackIds: listB.slice(0, 25) });

  // A connects; B connects while A's library is being read.
  await proceedToStatusPage(a, spotA);
  await proceedToStatusPage(b, spotB);

  // Both get playlists with tracks (the first after about 40-100 s on a busy 2-core machine).
  let beforeA: PlaylistState[] = [];
  let beforeB: PlaylistState[] = [];
  await expect
    .poll(
      async () => {
        beforeA = await world.pacebeatPlaylists(spotA);
        beforeB = await world.pacebeatPlaylists(spotB);
        const filled = (ps: PlaylistState[]) => ps.filter((p) => p.trackIds.length > 0).length;
        if (Math.min(filled(beforeA), filled(beforeB)) < 1 || trackCount(beforeA) < 8) return false;
        // B has placed fitting songs A has not (yet): A likes some of them while she is away. Counted as
        // the choice after the disconnect counts them (a fitting true tempo), with a margin: A's writer may
        // still place some of them before she disconnects.
        const placedA = new Set(
          await Promise.all(beforeA.flatMap((p) => p.trackIds).map((id) => world.songKey(id))),
        );
        let onlyB = 0;
        for (const id of beforeB.flatMap((p) => p.trackIds)) {
          if (placedA.has(await world.songKey(id))) continue;
          if (fits((await world.track(id)).trueTempo)) onlyB++;
          if (onlyB >= 6) return true;
        }
        return false;
      },
      { timeout: 480_000, intervals: [5_000] },
    )
    .toBe(true);
  log(
    `before: A ${beforeA.map((p) => `${p.name}: ${p.trackIds.length}`).join(', ')}; B ${beforeB.map((p) => `${p.name}: ${p.trackIds.length}`).join(', ')}`,
  );
  await expectClean(world, a, 'A before disconnecting', beforeA);
  await expectClean(world, b, 'B before A disconnects', beforeB);

  // A disconnects on the page, as a runner would.
  await a.goto('/disconnect/spotify');
  await a.getByRole('button', { name: 'Disconnect from Spotify' }).click();
  await expect(
    a.getByText('You disconnected our service from Spotify. Feel free to come back and connect again :-)'),
  ).toBeVisible({ timeout: 30_000 });

  // Meanwhile A likes more songs: some that fit a pace and sit in B's playlists (so their tempo is known)
  // but not in hers, and other recordings (compilation copies, a single's version, a remaster) of songs
  // already in her playlists: the first must come after she connects again, the second never.
  const atDisconnect = await world.pacebeatPlaylists(spotA);
  const placedA = new Set(
    await Promise.all(atDisconnect.flatMap((p) => p.trackIds).map((id) => world.songKey(id))),
  );
  const newSongs: string[] = [];
  for (const id of (await world.pacebeatPlaylists(spotB)).flatMap((p) => p.trackIds)) {
    if (newSongs.length >= 8) break;
    const t = await world.track(id);
    if (fits(t.trueTempo) && !placedA.has(await world.songKey(id))) newSongs.push(id);
  }
  const otherVersions: string[] = [];
  const inA = new Set(atDisconnect.flatMap((p) => p.trackIds));
  for (const id of inA) {
    if (otherVersions.length >= 4 || (await world.track(id)).songId === undefined) break;
    const other = (await world.song(id)).tracks.find((t) => !inA.has(t.id) && !otherVersions.includes(t.id));
    if (other) otherVersions.push(other.id);
  }
  expect(newSongs.length, 'fitting songs in B’s playlists that A has not').toBeGreaterThan(0);
  await world.post(`/users/${spotA}/liked`, { trackIds: [...newSongs, ...otherVersions] });
  // Nothing should be written for a runner who disconnected (a write in flight may still land: noted).
  const away = await world.pacebeatPlaylists(spotA);
  if (trackCount(away) !== trackCount(atDisconnect))
    log(
      `A's playlists changed after she disconnected: ${trackCount(atDisconnect)} → ${trackCount(away)} tracks`,
    );
  log(
    `disconnected; A likes ${newSongs.length} new songs and ${otherVersions.length} other recordings of hers`,
  );

  // A connects again through the consent page and Proceeds to the status page.
  await a.getByRole('button', { name: 'Proceed' }).click();
  await expect(a).toHaveURL(/\/(connect\/spotify)?$/);
  await proceedToStatusPage(a, spotA);

  // A writer pass after the reconnect: the new songs arrive in her playlists (taken back, not made again),
  // and the status page shows the targets with their playlists' links again.
  let afterA: PlaylistState[] = [];
  await expect
    .poll(
      async () => {
        afterA = await world.pacebeatPlaylists(spotA);
        const placed = new Set(afterA.flatMap((p) => p.trackIds));
        return newSongs.some((id) => placed.has(id));
      },
      { timeout: 360_000, intervals: [5_000] },
    )
    .toBe(true);
  log('a new song arrived after the reconnect');
  const links = a.getByRole('table', { name: 'Target playlists' }).getByRole('link', { name: /^Spotify/ });
  const linked = away.filter((p) => p.trackIds.length > 0).length;
  await expect.poll(() => links.count(), { timeout: 60_000 }).toBeGreaterThanOrEqual(linked);

  // Give the writers a while longer (another add batch of both runners), then look from outside.
  await a.waitForTimeout(30_000);
  afterA = await world.pacebeatPlaylists(spotA);
  const afterB = await world.pacebeatPlaylists(spotB);
  expect(trackCount(afterA)).toBeGreaterThan(trackCount(away));
  log(
    `after: A ${afterA.map((p) => `${p.name}: ${p.trackIds.length}`).join(', ')}; B ${afterB.map((p) => `${p.name}: ${p.trackIds.length}`).join(', ')}`,
  );
  await expectClean(world, a, 'A after connecting again', afterA);
  await expectClean(world, b, 'B after A connected again', afterB);

  // One set: the playlists made before are the ones filled now, one per name and per target range.
  const perName = new Map<string, number>();
  for (const p of afterA) perName.set(p.name, (perName.get(p.name) ?? 0) + 1);
  expect(
    [...perName].filter(([, n]) => n > 1),
    'A: a second playlist of one name',
  ).toEqual([]);
  expect(afterA.map((p) => p.id)).toEqual(expect.arrayContaining(away.map((p) => p.id)));
  for (const [min, max] of RANGES)
    expect(
      afterA.filter((p) => p.name === `Pacebeat ${min}–${max} BPM`).length,
      `A's playlists of ${min}–${max}`,
    ).toBeLessThanOrEqual(1);
  const res = await a.request.get('/api/spotify/targets');
  const { data } = (await res.json()) as {
    data: { targets: Array<{ target: string; public_url: string | null }> };
  };
  const targetNames = data.targets.map((t) => t.target);
  expect(targetNames.length, `A's targets: ${targetNames.join(', ')}`).toBe(new Set(targetNames).size);
  for (const t of data.targets.filter((x) => x.public_url !== null)) {
    const named = afterA.filter((p) => p.name === t.target);
    expect(named.length, `A's playlists named ${t.target}`).toBe(1);
    expect(t.public_url).toMatch(new RegExp(`/playlist/${named[0]!.id}$`));
  }

  await a.screenshot({ path: '/tmp/lifecycle-status.png', fullPage: true });
  await contextA.close();
  await contextB.close();
});
