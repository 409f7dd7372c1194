// The world: an immutable catalog plus users, libraries and playlists that change while it runs.
import { Catalog } from './catalog.ts';
import { crowdTastes, type CrowdOptions } from './crowd.ts';
import { IdCodec } from './ids.ts';
import { LibraryFactory, type Playlist, type PlaylistEntry, type User } from './library.ts';
import { Rng, hash32 } from './rng.ts';
import { SIZES, type UserSpec, type WorldSize } from './sizes.ts';
import { isEpisode } from './podcasts.ts';

export interface WorldOptions {
  seed: number;
  size: WorldSize;
  /** Time the generated library dates lead up to (ms). */
  now: number;
}

export const MAX_PLAYLIST_ITEMS = 10_000;

export class World {
  readonly seed: number;
  readonly size: WorldSize;
  readonly catalog: Catalog;
  readonly ids: IdCodec;
  users: User[] = [];
  playlists: Playlist[] = [];
  private usersById = new Map<string, User>();
  private readonly created: number;

  constructor(opts: WorldOptions) {
    if (!SIZES[opts.size])
      throw new Error(`unknown world size ${String(opts.size)}: use ${Object.keys(SIZES).join(', ')}`);
    if (!Number.isSafeInteger(opts.seed)) throw new Error(`the seed must be an integer, got ${opts.seed}`);
    this.seed = opts.seed;
    this.size = opts.size;
    this.created = opts.now;
    this.catalog = new Catalog(opts.seed, { artists: SIZES[opts.size].artists });
    this.ids = new IdCodec(opts.seed);
    this.generateUsers();
  }

  /** Back to the generated catalog, users, libraries and playlists. */
  reset(): void {
    this.catalog.reset();
    this.users = [];
    this.playlists = [];
    this.usersById = new Map();
    this.generateUsers();
  }

  private generateUsers(): void {
    const spec = SIZES[this.size];
    const factory = new LibraryFactory(this.catalog, this.created);
    const editorial = factory.makeUser(0, {
      username: 'spotify',
      displayName: 'Spotify',
      product: 'premium',
      registered: false,
    });
    editorial.loginable = false;
    this.addUser(editorial);
    factory.editorial(this.playlists, 0, spec.editorialPlaylists, spec.editorialSize);
    const specs: UserSpec[] = spec.users;
    for (const s of specs) {
      const user = factory.makeUser(this.users.length, s);
      this.addUser(user);
      factory.fillLibrary(user, s, this.playlists);
    }
    for (const s of specs) {
      const owner = this.usersById.get(s.username) as User;
      const rng = new Rng(this.seed, 'follows', s.username);
      if (s.collaborator) {
        const other = this.usersById.get(s.collaborator);
        if (other) {
          const pl = factory.newPlaylist(this.playlists, owner.index, {
            name: `${owner.displayName.split(' ')[0]} & ${other.displayName.split(' ')[0]} run club`,
            collaborative: true,
          });
          const pool = [...owner.liked, ...other.liked];
          for (let k = 0; k < Math.min(30, pool.length); k++) {
            const who = k % 3 === 0 ? other.index : owner.index;
            pl.entries.push({
              g: rng.pick(pool).g,
              addedAt: this.created - (40 - k) * 86_400_000,
              addedBy: who,
            });
          }
          pl.collaborators.add(other.index);
          owner.playlists.unshift(pl.p);
          other.playlists.unshift(pl.p);
        }
      }
      const followable = this.playlists.filter(
        (p) => p.owner !== owner.index && p.public && !owner.playlists.includes(p.p),
      );
      for (let k = 0; k < s.followedPlaylists && followable.length > 0; k++) {
        const pl = followable.splice(Math.floor(rng.next() * followable.length), 1)[0] as Playlist;
        pl.followers++;
        owner.playlists.splice(Math.min(owner.playlists.length, rng.int(0, 3)), 0, pl.p);
      }
    }
  }

  addUser(user: User): User {
    if (this.usersById.has(user.id)) throw new Error(`user ${user.id} exists`);
    this.users.push(user);
    this.usersById.set(user.id, user);
    return user;
  }

  /** Creates a crowd of users whose favourite artists follow Zipf's law (crowd.ts; admin API). */
  createCrowd(o: CrowdOptions): User[] {
    return crowdTastes(this.catalog, this.seed, o).map(({ username, favourites }) =>
      this.createUser({
        username,
        liked: o.liked ?? 30,
        followedArtists: Math.min(o.followedArtists ?? 3, favourites.length),
        favouriteArtists: favourites.length,
        favourites,
      }),
    );
  }

  /** Creates a user with a generated library (admin API). */
  createUser(spec: Partial<UserSpec> & { username: string }): User {
    const factory = new LibraryFactory(this.catalog, Date.now());
    const full: UserSpec = {
      displayName: spec.username,
      liked: 0,
      owned: 0,
      ownedSize: [10, 30],
      followedPlaylists: 0,
      followedArtists: 0,
      favouriteArtists: Math.max(
        spec.followedArtists ?? 0,
        spec.liked ? Math.ceil(Math.sqrt(spec.liked) * 4) : 0,
      ),
      registered: true,
      product: 'premium',
      ...spec,
    };
    const user = this.addUser(factory.makeUser(this.users.length, full));
    factory.fillLibrary(user, full, this.playlists);
    return user;
  }

  // ---- lookups --------------------------------------------------------------------------------

  user(id: string): User | undefined {
    return this.usersById.get(id);
  }

  playlist(id: string): Playlist | undefined {
    const p = this.ids.decode('playlist', id);
    return p === undefined ? undefined : this.playlists[p];
  }

  trackG(id: string): number | undefined {
    const g = this.ids.decode('track', id);
    return g !== undefined && this.catalog.hasTrack(g) ? g : undefined;
  }

  albumR(id: string): number | undefined {
    const r = this.ids.decode('album', id);
    return r !== undefined && r < this.catalog.releases.length ? r : undefined;
  }

  artistI(id: string): number | undefined {
    const i = this.ids.decode('artist', id);
    return i !== undefined && i < this.catalog.artists.length ? i : undefined;
  }

  trackId(g: number): string {
    return this.ids.encode('track', g);
  }

  episodeE(id: string): number | undefined {
    const e = this.ids.decode('episode', id);
    return e !== undefined && isEpisode(e) ? e : undefined;
  }

  episodeId(e: number): string {
    return this.ids.encode('episode', e);
  }

  /** The Spotify URI of a playlist entry: a track, an episode, a local file; null when unavailable. */
  entryUri(e: PlaylistEntry): string | null {
    if (e.g !== undefined) return `spotify:track:${this.trackId(e.g)}`;
    if (e.episode !== undefined) return `spotify:episode:${this.episodeId(e.episode)}`;
    if (e.local) {
      const enc = (x: string) => encodeURIComponent(x).replace(/%20/g, '+');
      const l = e.local;
      return `spotify:local:${enc(l.artist)}:${enc(l.album)}:${enc(l.name)}:${Math.round(l.durationMs / 1000)}`;
    }
    return null;
  }

  /**
   * What a client knows of a track (its Spotify id, ISRC, artist names, title, length) and the true
   * tempo it should find: the ground truth tests and benchmarks of tempo lookups compare with (tests
   * hand it to the product as a track, so it has nothing else: its song is songOf).
   */
  trackFacts(g: number) {
    const t = this.catalog.track(g);
    return {
      spotifyId: this.trackId(g),
      isrc: t.isrc,
      artists: t.artists.map((i) => this.catalog.artists[i]?.name ?? ''),
      title: t.name,
      durationMs: t.durationMs,
      bpm: this.catalog.tempoOf(g).bpm,
    };
  }

  /**
   * The song a track is as a runner hears it (so no song comes twice in a playlist): a stable id
   * shared by every version and copy of one song (the single and the album version, a radio edit, a
   * remaster, a mono version, compilation and box-set copies), and by no other track. It is the track
   * id of the song's reference recording (the album's track; a remaster's original). A live take is its
   * own song. Undefined for an id that is no track of this world.
   */
  songOf(trackId: string): string | undefined {
    const g = this.trackG(trackId.replace(/^spotify:track:/, ''));
    return g === undefined ? undefined : this.trackId(this.catalog.heardSongOf(g));
  }

  playlistId(p: number): string {
    return this.ids.encode('playlist', p);
  }

  snapshotId(pl: Playlist): string {
    const h = hash32(this.seed, 'snapshot', pl.p, pl.version).toString(16).padStart(8, '0');
    return Buffer.from(`${pl.version},${h}${pl.p.toString(16)}`)
      .toString('base64')
      .replace(/=+$/, '');
  }

  /** Whether the user owns the playlist or collaborates on it. */
  canEdit(user: User, pl: Playlist): boolean {
    return pl.owner === user.index || (pl.collaborative && pl.collaborators.has(user.index));
  }

  // ---- mutations ------------------------------------------------------------------------------

  like(user: User, gs: number[], at = Date.now()): void {
    const have = new Set(user.liked.map((x) => x.g));
    for (const g of gs) if (!have.has(g)) user.liked.push({ g, addedAt: at });
  }

  unlike(user: User, gs: number[]): void {
    const drop = new Set(gs);
    user.liked = user.liked.filter((x) => !drop.has(x.g));
  }

  followArtists(user: User, is: number[]): void {
    for (const i of is) if (!user.followedArtists.includes(i)) user.followedArtists.unshift(i);
  }

  unfollowArtists(user: User, is: number[]): void {
    user.followedArtists = user.followedArtists.filter((i) => !is.includes(i));
  }

  createPlaylist(
    owner: User,
    opts: { name: string; public?: boolean; collaborative?: boolean; description?: string },
  ): Playlist {
    const factory = new LibraryFactory(this.catalog, Date.now());
    const pl = factory.newPlaylist(this.playlists, owner.index, opts);
    owner.playlists.unshift(pl.p);
    return pl;
  }

  followPlaylist(user: User, pl: Playlist): void {
    if (!user.playlists.includes(pl.p)) {
      user.playlists.unshift(pl.p);
      if (pl.owner !== user.index) pl.followers++;
    }
  }

  /**
   * The user unfollows the playlist: it leaves their library (for its owner this is "deleting" it).
   * The playlist lives on: others keep following it, its owner can still read and change it by id,
   * and following it again restores it.
   */
  unfollowPlaylist(user: User, pl: Playlist): void {
    const at = user.playlists.indexOf(pl.p);
    if (at < 0) return;
    user.playlists.splice(at, 1);
    if (pl.owner !== user.index) pl.followers = Math.max(0, pl.followers - 1);
  }

  addItems(pl: Playlist, entries: PlaylistEntry[], position?: number): void {
    const at =
      position === undefined ? pl.entries.length : Math.max(0, Math.min(position, pl.entries.length));
    pl.entries.splice(at, 0, ...entries);
    pl.version++;
  }

  /** Removes every occurrence of the given tracks. */
  removeTracks(pl: Playlist, gs: number[]): void {
    this.removeItems(pl, gs, []);
  }

  /** Removes every occurrence of the given tracks and episodes. */
  removeItems(pl: Playlist, gs: number[], episodes: number[]): void {
    const dropG = new Set(gs);
    const dropE = new Set(episodes);
    pl.entries = pl.entries.filter(
      (e) => !(e.g !== undefined && dropG.has(e.g)) && !(e.episode !== undefined && dropE.has(e.episode)),
    );
    pl.version++;
  }

  replaceItems(pl: Playlist, entries: PlaylistEntry[]): void {
    pl.entries = entries;
    pl.version++;
  }

  reorder(pl: Playlist, rangeStart: number, insertBefore: number, rangeLength: number): void {
    const moved = pl.entries.splice(rangeStart, rangeLength);
    const target = insertBefore > rangeStart ? insertBefore - moved.length : insertBefore;
    pl.entries.splice(target, 0, ...moved);
    pl.version++;
  }

  updateDetails(
    pl: Playlist,
    changes: { name?: string; public?: boolean; collaborative?: boolean; description?: string },
  ): void {
    if (changes.name !== undefined) pl.name = changes.name;
    if (changes.description !== undefined) pl.description = changes.description;
    if (changes.public !== undefined) pl.public = changes.public;
    if (changes.collaborative !== undefined) pl.collaborative = changes.collaborative;
    pl.version++;
  }
}

export type { User, Playlist, PlaylistEntry };
