// Users, their libraries and playlists: the mutable part of the world.
import { Rng, hash32 } from './rng.ts';
import type { Catalog, Release } from './catalog.ts';
import type { UserSpec } from './sizes.ts';
import { toBase62 } from './ids.ts';
import { EPISODES_PER_SHOW, SHOWS } from './podcasts.ts';

export interface LocalFile {
  name: string;
  artist: string;
  album: string;
  durationMs: number;
}

export interface PlaylistEntry {
  /** The track; absent for episodes, local files and tracks no longer available (answered as `item: null`). */
  g?: number;
  /** A podcast episode (podcasts.ts). */
  episode?: number;
  local?: LocalFile;
  addedAt: number;
  addedBy: number;
}

export interface Playlist {
  p: number;
  owner: number;
  name: string;
  description: string;
  public: boolean;
  collaborative: boolean;
  collaborators: Set<number>;
  entries: PlaylistEntry[];
  version: number;
  followers: number;
  hasImage: boolean;
}

export interface User {
  index: number;
  id: string;
  accountId: string;
  displayName: string;
  email: string;
  country: string;
  product: 'premium' | 'free';
  /** Oldest first; /me/tracks answers newest first. */
  liked: Array<{ g: number; addedAt: number }>;
  /** Playlists in the user's library (owned and followed), newest first. */
  playlists: number[];
  followedArtists: number[];
  /** Client ids whose development-mode user list contains this user. */
  registeredFor: Set<string> | 'all';
  /** Offered on the consent page (the editorial account is not). */
  loginable: boolean;
  /** Albums, shows, episodes, audiobooks and users saved through /me/library (URIs). */
  savedOther?: Set<string>;
}

const PLAYLIST_NAMES = [
  'Morning Run',
  'Long Run Sunday',
  'Gym',
  'Chill',
  'Road Trip',
  'Focus',
  'Party',
  'Tempo Run',
  'Intervals',
  'Cooldown',
  'Summer 2024',
  'Favourites',
  'Throwbacks',
  'Rainy Day',
  'Dinner',
  'Workout Mix',
];
const EDITORIAL_NAMES = [
  'Running 170 BPM',
  'Today\u2019s Top Hits',
  'Power Workout',
  'Beast Mode',
  'Happy Hits!',
  'Chill Vibes',
];
const DAY = 86_400_000;

export function accountIdFor(seed: number, username: string): string {
  return toBase62(
    BigInt(hash32(seed, 'account', username)) * 4294967296n + BigInt(hash32(seed, 'account2', username)),
    12,
  ).slice(-10);
}

export class LibraryFactory {
  private readonly catalog: Catalog;
  private readonly seed: number;
  private readonly now: number;

  constructor(catalog: Catalog, now: number) {
    this.catalog = catalog;
    this.seed = catalog.seed;
    this.now = now;
  }

  makeUser(index: number, spec: Pick<UserSpec, 'username' | 'displayName' | 'product' | 'registered'>): User {
    return {
      index,
      id: spec.username,
      accountId: accountIdFor(this.seed, spec.username),
      displayName: spec.displayName,
      email: `${spec.username}@example.com`,
      country: 'SE',
      product: spec.product,
      liked: [],
      playlists: [],
      followedArtists: [],
      registeredFor: spec.registered ? 'all' : new Set(),
      loginable: true,
    };
  }

  /** Artists the user likes, most liked first (weighted by popularity). */
  favourites(rng: Rng, count: number): number[] {
    const artists = this.catalog.artists;
    const out = new Set<number>();
    for (let k = 0; k < count * 20 && out.size < count; k++) {
      const i = 1 + Math.floor(rng.next() * (artists.length - 1));
      const a = artists[i];
      if (a && a.releases.length > 0 && rng.next() < 0.15 + a.popularity / 100) out.add(i);
    }
    return [...out];
  }

  /** A track of one of the favourite artists, favouring the first ones and studio releases. */
  sampleTrack(rng: Rng, favourites: number[]): number {
    const idx = Math.min(favourites.length - 1, Math.floor(favourites.length * Math.pow(rng.next(), 1.6)));
    const artist = this.catalog.artists[favourites[idx] as number];
    if (!artist) throw new Error('no favourite artists');
    const rels = artist.releases.map((r) => this.catalog.releases[r] as Release);
    // Box sets are never drawn from (their tracks are other releases' recordings).
    const weights = rels.map((r) =>
      r.box ? 0 : r.kind === 'studio' ? 4 : r.kind === 'single' || r.kind === 'ep' ? 2 : 0.6,
    );
    const rel = rels[rng.weighted(weights)] as Release;
    return rel.firstG + rng.int(0, rel.trackCount - 1);
  }

  fillLibrary(user: User, spec: UserSpec, playlists: Playlist[]): number[] {
    const rng = new Rng(this.seed, 'library', spec.username);
    const fav = spec.favourites ? [...spec.favourites] : this.favourites(rng, spec.favouriteArtists);
    if (fav.length === 0) return fav;
    if (spec.boxSetFan) this.followBoxSetArtist(fav, spec.followedArtists);
    const seen = new Set<number>();
    let t = this.now - 4 * 365 * DAY;
    const step = (4 * 365 * DAY) / Math.max(1, spec.liked);
    for (let k = 0; k < spec.liked * 5 && user.liked.length < spec.liked; k++) {
      const g = this.sampleTrack(rng, fav);
      if (seen.has(g)) continue;
      seen.add(g);
      t += step * (0.5 + rng.next());
      user.liked.push({ g, addedAt: Math.min(t, this.now - 60_000) });
    }
    user.followedArtists = fav.slice(0, spec.followedArtists);
    for (let k = 0; k < spec.owned; k++) {
      const pl = this.newPlaylist(playlists, user.index, {
        name: `${PLAYLIST_NAMES[(k + user.index) % PLAYLIST_NAMES.length]}${k >= PLAYLIST_NAMES.length ? ` ${k}` : ''}`,
        public: rng.chance(0.6),
      });
      const size = rng.int(spec.ownedSize[0], spec.ownedSize[1]);
      let at = this.now - rng.int(30, 900) * DAY;
      for (let n = 0; n < size; n++) {
        const g =
          user.liked.length > 0 && rng.chance(0.7) ? rng.pick(user.liked).g : this.sampleTrack(rng, fav);
        at += rng.int(60, (3 * DAY) / 1000) * 1000;
        pl.entries.push({ g, addedAt: Math.min(at, this.now - 60_000), addedBy: user.index });
      }
      if (k === 0 && pl.entries.length > 3) {
        const dup = pl.entries[1] as PlaylistEntry;
        pl.entries.push({ ...dup, addedAt: Math.min(at + 1000, this.now - 60_000) });
      }
      if (k === 0 && spec.localFiles) {
        pl.entries.splice(1, 0, {
          local: { name: 'Demo Take 3', artist: 'My Garage Band', album: 'Rehearsals', durationMs: 187_000 },
          addedAt: this.now - 40 * DAY,
          addedBy: user.index,
        });
        pl.entries.push({
          local: { name: 'Voice Memo 12', artist: '', album: '', durationMs: 64_000 },
          addedAt: this.now - 20 * DAY,
          addedBy: user.index,
        });
        // A track that was taken down: Spotify answers its item as null.
        pl.entries.splice(3, 0, { addedAt: this.now - 30 * DAY, addedBy: user.index });
      }
      if (k === 1 && spec.podcastEpisodes) this.addEpisodes(pl, user.index, spec.podcastEpisodes);
      user.playlists.unshift(pl.p);
    }
    if (spec.sameSongTwice) this.addOtherVersion(user, playlists);
    return fav;
  }

  /**
   * One song twice in the user's own library, under two recordings: a liked single's (or
   * EP's) version of an album song, and the album's track in the user's first playlist (or the other
   * way round). Its own generator: the rest of the library is as before.
   */
  private addOtherVersion(user: User, playlists: Playlist[]): void {
    const cat = this.catalog;
    const first = playlists[user.playlists[user.playlists.length - 1] as number];
    if (!first || first.owner !== user.index) return;
    const have = new Set(user.liked.map((l) => l.g));
    for (const e of first.entries) if (e.g !== undefined) have.add(e.g);
    const pairs: Array<[number, number]> = [];
    for (const { g } of user.liked) {
      // A single's (or EP's) version and its album's track, either way round (from the skeleton).
      const other = cat.versionOf(g)?.of ?? cat.versionedBy.get(g);
      if (other !== undefined && !have.has(other)) pairs.push([g, other]);
    }
    if (pairs.length === 0) return;
    const rng = new Rng(this.seed, 'same-song-twice', user.id);
    // A liked single's version first (the album's track then goes to the playlist).
    const singles = pairs.filter(([g]) => cat.versionOf(g) !== undefined);
    const [, other] = rng.pick(singles.length > 0 ? singles : pairs);
    // Not among the first five (tests take songs from the top of a playlist), nor the last two.
    const at = rng.int(Math.min(5, first.entries.length), Math.max(0, first.entries.length - 2));
    const near = first.entries[Math.min(at, first.entries.length - 1)];
    first.entries.splice(at, 0, {
      g: other,
      addedAt: near?.addedAt ?? this.now - 10 * DAY,
      addedBy: user.index,
    });
  }

  /** Podcast episodes among a playlist's songs, from their own generator (the songs do not change). */
  private addEpisodes(pl: Playlist, by: number, n: number): void {
    const rng = new Rng(this.seed, 'playlist-episodes', pl.p);
    for (let k = 0; k < n; k++) {
      const e = rng.int(0, SHOWS * EPISODES_PER_SHOW - 1);
      // Not among the first five (tests take songs from the top of a playlist).
      const at = rng.int(Math.min(5, pl.entries.length), pl.entries.length);
      pl.entries.splice(at, 0, { episode: e, addedAt: this.now - rng.int(1, 200) * DAY, addedBy: by });
    }
  }

  /**
   * Makes sure one of the followed artists (the last of them) has a box set, so a library scan must
   * follow `tracks.next` of `GET /albums/{id}`: the most popular such artist takes that place.
   */
  private followBoxSetArtist(fav: number[], followed: number): void {
    const hasBox = (i: number) =>
      (this.catalog.artists[i]?.releases ?? []).some((r) => this.catalog.releases[r]?.box);
    const slot = Math.min(Math.max(0, followed - 1), fav.length - 1);
    if (fav.slice(0, slot + 1).some(hasBox)) return;
    const boxed = this.catalog.artists
      .filter((a) => a.i > 0 && hasBox(a.i))
      .sort((a, b) => b.popularity - a.popularity || a.i - b.i)[0];
    if (!boxed) return;
    const at = fav.indexOf(boxed.i);
    if (at >= 0) fav.splice(at, 1);
    fav.splice(slot, 0, boxed.i);
  }

  newPlaylist(
    playlists: Playlist[],
    owner: number,
    opts: { name: string; public?: boolean; collaborative?: boolean; description?: string },
  ): Playlist {
    const pl: Playlist = {
      p: playlists.length,
      owner,
      name: opts.name,
      description: opts.description ?? '',
      public: opts.collaborative ? false : (opts.public ?? true),
      collaborative: opts.collaborative ?? false,
      collaborators: new Set(),
      entries: [],
      version: 1,
      followers: 0,
      hasImage: false,
    };
    playlists.push(pl);
    return pl;
  }

  editorial(playlists: Playlist[], owner: number, count: number, size: [number, number]): void {
    const rng = new Rng(this.seed, 'editorial');
    const popular = this.catalog.artists
      .filter((a) => a.i > 0 && a.releases.length > 0)
      .sort((a, b) => b.popularity - a.popularity)
      .slice(0, 60)
      .map((a) => a.i);
    for (let k = 0; k < count; k++) {
      const pl = this.newPlaylist(playlists, owner, {
        name: EDITORIAL_NAMES[k % EDITORIAL_NAMES.length] as string,
        public: true,
        description: 'The sandbox&#x27;s editors picked these.',
      });
      pl.followers = rng.int(10_000, 5_000_000);
      pl.hasImage = true;
      const n = rng.int(size[0], size[1]);
      for (let j = 0; j < n; j++)
        pl.entries.push({
          g: this.sampleTrack(rng, popular),
          addedAt: this.now - rng.int(1, 30) * DAY,
          addedBy: owner,
        });
    }
  }
}
