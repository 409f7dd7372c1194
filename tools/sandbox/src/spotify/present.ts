// Presenters: world objects as Spotify Web API JSON. Development mode (dm) drops the fields the
// OpenAPI document marks deprecated and uses the new names (`items`, `item`); extended quota (eq)
// keeps the old fields and only the old names (`tracks`, `track`), as Spotify left those apps unchanged.
import type { Mode } from './openapi.ts';
import type { World } from '../world/world.ts';
import type { Artist, Release, Track } from '../world/catalog.ts';
import type { Playlist, PlaylistEntry, User } from '../world/library.ts';
import { hash32 } from '../world/rng.ts';
import { episodeOf, showOf } from '../world/podcasts.ts';

const MARKETS = [
  'AR',
  'AU',
  'BR',
  'CA',
  'DE',
  'ES',
  'FR',
  'GB',
  'IT',
  'JP',
  'KR',
  'MX',
  'NL',
  'NO',
  'SE',
  'US',
];
const OPEN = 'https://open.spotify.com';

export interface Paging<T> {
  href: string;
  limit: number;
  next: string | null;
  offset: number;
  previous: string | null;
  total: number;
  items: T[];
}

export function paging<T>(
  base: string,
  path: string,
  items: T[],
  total: number,
  limit: number,
  offset: number,
  extra = '',
): Paging<T> {
  const url = (o: number) => `${base}${path}?offset=${o}&limit=${limit}${extra}`;
  return {
    href: url(offset),
    limit,
    next: offset + limit < total ? url(offset + limit) : null,
    offset,
    previous: offset > 0 ? url(Math.max(0, offset - limit)) : null,
    total,
    items,
  };
}

const image = (seed: number, kind: string, n: number, size: number) => ({
  url: `https://i.scdn.co/image/ab67616d0000${size === 640 ? 'b273' : size === 300 ? '1e02' : '4851'}${hash32(seed, kind, n).toString(16).padStart(8, '0')}${n.toString(16).padStart(8, '0')}${hash32(seed, kind, n, 'x').toString(16).padStart(8, '0')}`,
  height: size,
  width: size,
});
const images = (seed: number, kind: string, n: number) => [640, 300, 64].map((s) => image(seed, kind, n, s));

export class Presenter {
  readonly world: World;
  readonly mode: Mode;
  readonly base: string;

  constructor(world: World, mode: Mode, base: string) {
    this.world = world;
    this.mode = mode;
    this.base = base;
  }

  private get eq(): boolean {
    return this.mode === 'eq';
  }

  artistSimplified(i: number) {
    const a = this.world.catalog.artists[i] as Artist;
    const id = this.world.ids.encode('artist', i);
    return {
      external_urls: { spotify: `${OPEN}/artist/${id}` },
      href: `${this.base}/artists/${id}`,
      id,
      name: a.name,
      type: 'artist' as const,
      uri: `spotify:artist:${id}`,
    };
  }

  artist(i: number) {
    const a = this.world.catalog.artists[i] as Artist;
    const out: Record<string, unknown> = {
      ...this.artistSimplified(i),
      images: images(this.world.seed, 'artist', i),
    };
    if (this.eq)
      Object.assign(out, {
        followers: { href: null, total: a.followers },
        genres: a.genres,
        popularity: a.popularity,
      });
    return out;
  }

  albumSimplified(r: number, group?: string) {
    const rel = this.world.catalog.releases[r] as Release;
    const id = this.world.ids.encode('album', r);
    const date =
      rel.precision === 'year'
        ? String(rel.year)
        : `${rel.year}-${String(rel.month).padStart(2, '0')}-${String(rel.day).padStart(2, '0')}`;
    const out: Record<string, unknown> = {
      album_type: rel.albumType,
      total_tracks: rel.trackCount,
      external_urls: { spotify: `${OPEN}/album/${id}` },
      href: `${this.base}/albums/${id}`,
      id,
      images: images(this.world.seed, 'album', r),
      name: this.world.catalog.releaseTitle(rel),
      release_date: date,
      release_date_precision: rel.precision,
      type: 'album',
      uri: `spotify:album:${id}`,
      artists: [this.artistSimplified(rel.artist)],
    };
    if (this.eq) {
      out['available_markets'] = MARKETS;
      if (group) out['album_group'] = group;
    }
    return out;
  }

  album(r: number, tracksLimit = 50) {
    const rel = this.world.catalog.releases[r] as Release;
    const id = this.world.ids.encode('album', r);
    const tracks = this.world.catalog
      .tracksOf(r)
      .slice(0, tracksLimit)
      .map((t) => this.trackSimplified(t));
    const artistName = (this.world.catalog.artists[rel.artist] as Artist).name;
    const out: Record<string, unknown> = {
      ...this.albumSimplified(r),
      tracks: paging(this.base, `/albums/${id}/tracks`, tracks, rel.trackCount, tracksLimit, 0),
      copyrights: [
        { text: `\u00a9 ${rel.year} ${artistName}`, type: 'C' },
        { text: `\u2117 ${rel.year} ${artistName}`, type: 'P' },
      ],
      external_ids: { upc: String(100000000000 + (hash32(this.world.seed, 'upc', r) % 899999999999)) },
    };
    if (this.eq)
      Object.assign(out, {
        genres: [],
        label: `${artistName} Records`,
        popularity: (this.world.catalog.artists[rel.artist] as Artist).popularity,
      });
    return out;
  }

  trackSimplified(t: Track) {
    const id = this.world.trackId(t.g);
    const out: Record<string, unknown> = {
      artists: t.artists.map((i) => this.artistSimplified(i)),
      disc_number: 1,
      duration_ms: t.durationMs,
      explicit: t.explicit,
      external_urls: { spotify: `${OPEN}/track/${id}` },
      href: `${this.base}/tracks/${id}`,
      id,
      is_local: false,
      name: t.name,
      track_number: t.no,
      type: 'track',
      uri: `spotify:track:${id}`,
    };
    if (this.eq) Object.assign(out, { available_markets: MARKETS, preview_url: null });
    return out;
  }

  track(g: number) {
    const t = this.world.catalog.track(g);
    const out: Record<string, unknown> = {
      ...this.trackSimplified(t),
      album: this.albumSimplified(t.r),
      external_ids: { isrc: t.isrc },
    };
    if (this.eq)
      out['popularity'] = Math.max(
        0,
        (this.world.catalog.artists[t.artists[0] as number] as Artist).popularity -
          (hash32(this.world.seed, 'pop', g) % 20),
      );
    return out;
  }

  showSimplified(s: number) {
    const show = showOf(this.world.seed, s);
    const id = this.world.ids.encode('show', s);
    const out: Record<string, unknown> = {
      copyrights: [],
      description: show.description,
      html_description: `<p>${show.description}</p>`,
      explicit: show.explicit,
      external_urls: { spotify: `${OPEN}/show/${id}` },
      href: `${this.base}/shows/${id}`,
      id,
      images: images(this.world.seed, 'show', s),
      is_externally_hosted: false,
      languages: ['en'],
      media_type: 'audio',
      name: show.name,
      total_episodes: show.totalEpisodes,
      type: 'show',
      uri: `spotify:show:${id}`,
    };
    if (this.eq) Object.assign(out, { available_markets: MARKETS, publisher: show.publisher });
    return out;
  }

  episode(e: number) {
    const ep = episodeOf(this.world.seed, e);
    const id = this.world.episodeId(e);
    const out: Record<string, unknown> = {
      description: ep.description,
      html_description: `<p>${ep.description}</p>`,
      duration_ms: ep.durationMs,
      explicit: ep.explicit,
      external_urls: { spotify: `${OPEN}/episode/${id}` },
      href: `${this.base}/episodes/${id}`,
      id,
      images: images(this.world.seed, 'show', ep.show.s),
      is_externally_hosted: false,
      is_playable: true,
      languages: ['en'],
      name: ep.name,
      release_date: ep.releaseDate,
      release_date_precision: 'day',
      type: 'episode',
      uri: `spotify:episode:${id}`,
      show: this.showSimplified(ep.show.s),
    };
    if (this.eq) Object.assign(out, { audio_preview_url: null, language: 'en' });
    return out;
  }

  localTrack(e: PlaylistEntry) {
    const l = e.local as NonNullable<PlaylistEntry['local']>;
    const enc = (s: string) => encodeURIComponent(s).replace(/%20/g, '+');
    return {
      artists: [{ name: l.artist, type: 'artist' as const }],
      disc_number: 0,
      duration_ms: l.durationMs,
      explicit: false,
      external_urls: {},
      is_local: true,
      name: l.name,
      track_number: 0,
      type: 'track' as const,
      uri: `spotify:local:${enc(l.artist)}:${enc(l.album)}:${enc(l.name)}:${Math.round(l.durationMs / 1000)}`,
    };
  }

  user(u: User) {
    return {
      external_urls: { spotify: `${OPEN}/user/${u.id}` },
      href: `${this.base}/users/${u.id}`,
      id: u.id,
      type: 'user' as const,
      uri: `spotify:user:${u.id}`,
    };
  }

  me(u: User) {
    const out: Record<string, unknown> = {
      account_id: u.accountId,
      display_name: u.displayName,
      external_urls: { spotify: `${OPEN}/user/${u.id}` },
      href: `${this.base}/users/${u.id}`,
      id: u.id,
      images: [],
      type: 'user',
      uri: `spotify:user:${u.id}`,
    };
    if (this.eq)
      Object.assign(out, {
        country: u.country,
        email: u.email,
        explicit_content: { filter_enabled: false, filter_locked: false },
        followers: { href: null, total: 3 },
        product: u.product,
      });
    return out;
  }

  playlistItem(e: PlaylistEntry) {
    const item =
      e.g !== undefined
        ? this.track(e.g)
        : e.episode !== undefined
          ? this.episode(e.episode)
          : e.local
            ? this.localTrack(e)
            : null;
    const adder = this.world.users[e.addedBy];
    const out: Record<string, unknown> = {
      added_at: new Date(e.addedAt).toISOString().replace(/\.\d{3}Z$/, 'Z'),
      is_local: e.local !== undefined,
      item,
    };
    if (adder) out['added_by'] = this.user(adder);
    if (this.eq) {
      delete out['item'];
      out['track'] = item;
    }
    return out;
  }

  private playlistBase(pl: Playlist) {
    const id = this.world.playlistId(pl.p);
    const owner = this.world.users[pl.owner] as User;
    return {
      collaborative: pl.collaborative,
      description: pl.description,
      external_urls: { spotify: `${OPEN}/playlist/${id}` },
      href: `${this.base}/playlists/${id}`,
      id,
      images:
        pl.hasImage || pl.entries.length >= 4
          ? [
              {
                url: `https://mosaic.scdn.co/640/${hash32(this.world.seed, 'mosaic', pl.p, pl.version).toString(16)}`,
                height: 640,
                width: 640,
              },
            ]
          : [],
      name: pl.name,
      owner: { ...this.user(owner), display_name: owner.displayName },
      public: pl.public,
      snapshot_id: this.world.snapshotId(pl),
      type: 'playlist',
      uri: `spotify:playlist:${id}`,
    };
  }

  playlistSimplified(pl: Playlist) {
    const id = this.world.playlistId(pl.p);
    const out: Record<string, unknown> = { ...this.playlistBase(pl) };
    if (this.eq) out['tracks'] = { href: `${this.base}/playlists/${id}/tracks`, total: pl.entries.length };
    else out['items'] = { href: `${this.base}/playlists/${id}/items`, total: pl.entries.length };
    return out;
  }

  /** Full playlist; `withItems` is false for playlists the user may not read in development mode. */
  playlist(pl: Playlist, withItems: boolean) {
    const id = this.world.playlistId(pl.p);
    const out: Record<string, unknown> = {
      ...this.playlistBase(pl),
      followers: { href: null, total: pl.followers },
    };
    const limit = this.eq ? 100 : 50;
    const entries = pl.entries.slice(0, limit).map((e) => this.playlistItem(e));
    if (this.eq)
      out['tracks'] = paging(this.base, `/playlists/${id}/tracks`, entries, pl.entries.length, limit, 0);
    else if (withItems)
      out['items'] = paging(this.base, `/playlists/${id}/items`, entries, pl.entries.length, limit, 0);
    return out;
  }
}
