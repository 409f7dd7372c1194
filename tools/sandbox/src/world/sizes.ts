// World sizes: how many artists, and which users with which libraries. Users are listed in the order
// the consent page offers them; the first five are on every app's user list (development mode allows
// five users per app), the others are not.

export type WorldSize = 'tiny' | 'small' | 'default' | 'large';

export interface UserSpec {
  username: string;
  displayName: string;
  liked: number;
  /** Owned playlists and their size range. */
  owned: number;
  ownedSize: [number, number];
  followedPlaylists: number;
  followedArtists: number;
  /** How many artists the user's taste draws from. */
  favouriteArtists: number;
  /** These artists (indices, most liked first) instead of ones drawn by popularity (a crowd's, crowd.ts). */
  favourites?: number[];
  registered: boolean;
  product: 'premium' | 'free';
  /** Owns a collaborative playlist that this user (a username) collaborates on and follows. */
  collaborator?: string;
  /** Has local files in a playlist. */
  localFiles?: boolean;
  /** Follows an artist with a box set (an album of more than 50 tracks). */
  boxSetFan?: boolean;
  /** Podcast episodes in their second owned playlist. */
  podcastEpisodes?: number;
  /**
   * One song twice in their library under two recordings: a liked single's version of an album song,
   * and the album's track in their first playlist.
   */
  sameSongTwice?: boolean;
}

export interface SizeSpec {
  artists: number;
  editorialPlaylists: number;
  editorialSize: [number, number];
  users: UserSpec[];
}

const u = (
  username: string,
  displayName: string,
  rest: Partial<UserSpec> & Pick<UserSpec, 'liked' | 'owned' | 'favouriteArtists'>,
): UserSpec => ({
  username,
  displayName,
  ownedSize: [10, 40],
  followedPlaylists: 0,
  followedArtists: 0,
  registered: true,
  product: 'premium',
  ...rest,
});

export const SIZES: Record<WorldSize, SizeSpec> = {
  tiny: {
    artists: 40,
    editorialPlaylists: 2,
    editorialSize: [15, 25],
    users: [
      u('ana.runs', 'Ana Runner', {
        liked: 30,
        owned: 2,
        ownedSize: [6, 14],
        followedPlaylists: 1,
        followedArtists: 4,
        favouriteArtists: 8,
        localFiles: true,
        boxSetFan: true,
        podcastEpisodes: 3,
        sameSongTwice: true,
      }),
      u('ben.pace', 'Ben Pace', {
        liked: 15,
        owned: 1,
        ownedSize: [5, 10],
        followedArtists: 2,
        favouriteArtists: 5,
        collaborator: 'ana.runs',
        product: 'free',
        podcastEpisodes: 2,
      }),
      u('chloe', 'Chloé Ōno', { liked: 0, owned: 0, favouriteArtists: 0 }),
      u('dana', 'Dana Müller', { liked: 20, owned: 0, favouriteArtists: 6 }),
      u('eli', 'Eli Vance', { liked: 5, owned: 0, followedArtists: 10, favouriteArtists: 10 }),
      u('frank', 'Frank Unlisted', {
        liked: 5,
        owned: 1,
        ownedSize: [3, 6],
        favouriteArtists: 4,
        registered: false,
      }),
    ],
  },
  small: {
    artists: 200,
    editorialPlaylists: 3,
    editorialSize: [30, 60],
    users: [
      u('ana.runs', 'Ana Runner', {
        liked: 120,
        owned: 3,
        ownedSize: [10, 40],
        followedPlaylists: 2,
        followedArtists: 10,
        favouriteArtists: 25,
        localFiles: true,
        boxSetFan: true,
        podcastEpisodes: 3,
        sameSongTwice: true,
      }),
      u('ben.pace', 'Ben Pace', {
        liked: 40,
        owned: 2,
        followedArtists: 4,
        favouriteArtists: 10,
        collaborator: 'ana.runs',
        product: 'free',
        podcastEpisodes: 2,
      }),
      u('chloe', 'Chloé Ōno', { liked: 0, owned: 0, favouriteArtists: 0 }),
      u('dana', 'Dana Müller', { liked: 80, owned: 0, favouriteArtists: 15 }),
      u('eli', 'Eli Vance', { liked: 10, owned: 0, followedArtists: 30, favouriteArtists: 30 }),
      u('frank', 'Frank Unlisted', { liked: 20, owned: 1, favouriteArtists: 6, registered: false }),
    ],
  },
  default: {
    artists: 1000,
    editorialPlaylists: 4,
    editorialSize: [50, 100],
    users: [
      u('ana.runs', 'Ana Runner', {
        liked: 350,
        owned: 5,
        ownedSize: [20, 80],
        followedPlaylists: 3,
        followedArtists: 25,
        favouriteArtists: 60,
        localFiles: true,
        boxSetFan: true,
        podcastEpisodes: 3,
        sameSongTwice: true,
      }),
      u('ben.pace', 'Ben Pace', {
        liked: 80,
        owned: 2,
        followedArtists: 8,
        favouriteArtists: 20,
        collaborator: 'ana.runs',
        product: 'free',
        podcastEpisodes: 2,
      }),
      u('chloe', 'Chloé Ōno', { liked: 0, owned: 0, favouriteArtists: 0 }),
      u('dana', 'Dana Müller', { liked: 200, owned: 0, favouriteArtists: 40 }),
      u('eli', 'Eli Vance', { liked: 20, owned: 0, followedArtists: 80, favouriteArtists: 80 }),
      u('frank', 'Frank Unlisted', { liked: 50, owned: 1, favouriteArtists: 10, registered: false }),
    ],
  },
  large: {
    artists: 3000,
    editorialPlaylists: 6,
    editorialSize: [50, 100],
    users: [
      u('max.miles', 'Max Miles', {
        liked: 10_000,
        owned: 12,
        ownedSize: [50, 400],
        followedPlaylists: 5,
        followedArtists: 400,
        favouriteArtists: 400,
        localFiles: true,
        podcastEpisodes: 5,
      }),
      u('ana.runs', 'Ana Runner', {
        liked: 350,
        owned: 5,
        ownedSize: [20, 80],
        followedPlaylists: 3,
        followedArtists: 25,
        favouriteArtists: 60,
        localFiles: true,
        boxSetFan: true,
        podcastEpisodes: 3,
        sameSongTwice: true,
      }),
      u('ben.pace', 'Ben Pace', {
        liked: 80,
        owned: 2,
        followedArtists: 8,
        favouriteArtists: 20,
        collaborator: 'ana.runs',
        product: 'free',
        podcastEpisodes: 2,
      }),
      u('chloe', 'Chloé Ōno', { liked: 0, owned: 0, favouriteArtists: 0 }),
      u('dana', 'Dana Müller', { liked: 200, owned: 0, favouriteArtists: 40 }),
      u('eli', 'Eli Vance', {
        liked: 20,
        owned: 0,
        followedArtists: 80,
        favouriteArtists: 80,
        registered: false,
      }),
      u('frank', 'Frank Unlisted', { liked: 50, owned: 1, favouriteArtists: 10, registered: false }),
    ],
  },
};
