// The fixed arguments each repository method is called with by generate.ts (npm run db:queries): every
// method of every *.repository.ts needs at least one case, or tsc, the generator and queries.test.ts fail.
import { createAuthAttemptRepository } from '../src/accounts/auth-attempt.repository.ts';
import { createChoicesRepository } from '../src/choices/choices.repository.ts';
import { createTrackListsRepository } from '../src/choices/track-lists.repository.ts';
import { createCatalogRepository, type CatalogRepository } from '../src/library/catalog.repository.ts';
import { createArtistSetRepository, type ArtistSetRepository } from '../src/library/artist-set.repository.ts';
import { createLibraryRepository } from '../src/library/library.repository.ts';
import { createSourceRepository, type SourceRepository } from '../src/library/source.repository.ts';
import { createSourceStatsRepository } from '../src/library/source-stats.repository.ts';
import { createEmailCodeRepository } from '../src/accounts/email-code.repository.ts';
import { createSessionRepository } from '../src/accounts/session.repository.ts';
import { createUserRepository } from '../src/accounts/user.repository.ts';
import { createSignupRepository } from '../src/accounts/signup.repository.ts';
import { createPlaylistsRepository } from '../src/playlists/playlists.repository.ts';
import { createRemovalsRepository, type RemovalsRepository } from '../src/playlists/removals.repository.ts';
import { createTargetsRepository } from '../src/playlists/targets.repository.ts';
import { createTempoHistogramRepository } from '../src/library/tempo-histogram.repository.ts';
import { createSpotifyAccountRepository } from '../src/spotify/account.repository.ts';
import { createBudgetRepository } from '../src/spotify/budget.repository.ts';
import { createSpotifyAppRepository } from '../src/spotify/spotify-app.repository.ts';
import { createTokenKeyRepository } from '../src/spotify/token-key.repository.ts';
import { createMetricsRepository } from '../src/metrics/metrics.repository.ts';
import { createTempoRepository } from '../src/tempo/tempo.repository.ts';
import { createRunsRepository } from '../src/runs/runs.repository.ts';
import type { Db } from '../src/db/client.ts';

export type Method = (...args: never[]) => Promise<unknown>;

export interface Case<F extends Method> {
  /** Told apart in the block title when a method has several cases (branches that issue other SQL). */
  label?: string;
  args: Parameters<F>;
  /**
   * Rows the recorder answers to the statement whose SQL contains the key (every other statement gets none),
   * for methods that need a row to reach their next statement. In pg's shape: arrays for Drizzle's
   * selects and `returning`, objects for raw `db.execute`.
   */
  rows?: Record<string, unknown[]>;
  /** Math.random during the call, for a statement a method issues only now and then. */
  random?: number;
}

type Samples<R> = { [K in keyof R]: R[K] extends Method ? Case<R[K]> | Case<R[K]>[] : never };

export interface Repository<R> {
  /** The repository's file, from apps/server/src. */
  source: string;
  name: string;
  create: (db: Db) => R;
  /** One or more cases for every method: tsc, and render() at run time, refuse a method without one. */
  samples: Samples<R>;
}

export const repository = <R extends Record<string, Method>>(r: Repository<R>) =>
  r as unknown as Repository<Record<string, Method>>;

// Fixed sample values, so the output only changes when the SQL does.
const AT = new Date('2026-01-05T10:00:00.000Z');
const LATER = new Date('2026-01-05T10:30:00.000Z');
const USER_ID = '6f1c2a4e-8b3d-4f5a-9c7e-1d2b3a4c5e6f';
const TARGET_ID = '3a7d9c1e-2b4f-4e6a-8c0d-5f1e2a3b4c5d';
const BATCH_ID = 'b1c2d3e4-f5a6-4b7c-8d9e-0f1a2b3c4d5e';
const SECRET_HASH = '9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08';
const LIMITS = { key: 'spotify-client-id', ratePer30s: 40, dailyQuota: 10_000 };
const LEDGER_ENTRY = {
  userKey: USER_ID,
  endpoint: 'GET /me/tracks',
  purpose: 'scan:liked',
  priority: 'library_scan' as const,
};
const BUDGET_STATE = 'with t as';
const budgetState = (inRate: number) => ({
  now: AT.toISOString(),
  cooldown_until: null,
  quota_cooldown: null,
  in_rate: String(inRate),
  in_day: '1200',
  in_day_runner: '40',
  runners: '2',
  learned_rate: null,
});

const TRACK = {
  id: '4uLU6hMCjMI75M1A2tKUQC',
  isrc: 'USUM71703861',
  recordingKey: 'isrc:USUM71703861',
  title: 'Run Away (feat. Somebody)',
  artists: [
    { id: '0OdUWJ0sBjDrqHygGUXeCF', name: 'Band of Horses' },
    { id: '1vCWHaC5f2uS3yhpwWbIA6', name: 'Avicii' },
  ],
  durationMs: 213_000,
  explicit: false,
  releaseId: '2noRn2Aes5aoNVsU6iWThc',
  trackNumber: 3,
};
const RELEASE = {
  id: '2noRn2Aes5aoNVsU6iWThc',
  albumType: 'album',
  name: 'Discovery',
  releaseDate: '2001-03-12',
  totalTracks: 14,
};
const ARTIST_ID = '0OdUWJ0sBjDrqHygGUXeCF';
const RUN_ID = '9b2e4c6a-1d3f-4a5b-8c7d-2e4f6a8b0c1d';
const BUILD_ID = '5d7f9b1c-3e5a-4c6d-9e8f-4a6c8e0b2d3f';
const RUN_FIELDS = {
  name: 'Saturday long run',
  blocks: [{ kind: 'segment' as const, duration_s: 2700, min_bpm: 160, max_bpm: 170, label: 'Easy' }],
  halfTime: true,
  noExplicit: false,
  likedOnly: false,
};
const RUN_SONG = {
  trackId: TRACK.id,
  recordingKey: TRACK.recordingKey,
  title: TRACK.title,
  artistIds: [ARTIST_ID],
  artists: ['Band of Horses'],
  durationMs: 215000,
  bpm: 164.5,
  fit: 'as_is' as const,
  segment: 0,
  startS: 0,
  spans: false,
  fresh: true,
};
const SOURCE_REF = 42;
const PLAYLIST_ID = '37i9dQZF1DXcBWIGoYBM5M';
const catalogSamples: Repository<CatalogRepository>['samples'] = {
  upsertTracks: { args: [[TRACK]] },
  upsertArtists: { args: [TRACK.artists] },
  getArtist: { args: [ARTIST_ID] },
  saveListingPage: [
    {
      label: 'first page of a new listing',
      args: [ARTIST_ID, { groups: 'album,single', offset: 0, total: 23, releases: [RELEASE], restart: true }],
    },
  ],
  nextUnreadReleases: { args: [ARTIST_ID, 20] },
  nextUnreadReleasesAcross: { args: [USER_ID, 20, 2] },
  saveReleaseProgress: { args: [RELEASE.id, { tracksRead: 50, totalTracks: 120, done: false }] },
  markCatalogRead: { args: [ARTIST_ID] },
  markCatalogChecked: { args: [ARTIST_ID] },
  knownReleases: { args: [ARTIST_ID, [RELEASE.id]] },
  tracksNeedingTempo: { args: [[TRACK.id, '1301WleyT98MSxVHPZCA6M'], 86_400_000, 2] },
  markTempoQueued: { args: [[TRACK.id], 2] },
};

const sourceSamples: Repository<SourceRepository>['samples'] = {
  markArtistsStale: { args: [USER_ID] },
  listSources: { args: [USER_ID] },
  updateSource: {
    args: [USER_ID, SOURCE_REF, { cursor: { mode: 'full', offset: 100, pass: 2 }, pagesRead: 2 }],
  },
  addSourceTracks: { args: [SOURCE_REF, 2, [{ trackId: TRACK.id, addedAt: AT, position: 100 }]] },
  countSourceTracks: { args: [SOURCE_REF] },
  sweepSourceTracks: { args: [SOURCE_REF, 2] },
  addSourceArtists: { args: [SOURCE_REF, 2, [{ artistId: ARTIST_ID, position: 0 }]] },
  countSourceArtists: { args: [SOURCE_REF] },
  sweepSourceArtists: { args: [SOURCE_REF, 2] },
  upsertPlaylistSources: {
    args: [
      USER_ID,
      3,
      [
        {
          sourceId: '37i9dQZF1DXdxcBWuJkbcy',
          name: 'Morning Run',
          ownerName: 'Runner',
          readable: true,
          snapshot: 'MTAsZmM2ZjQ5',
          total: 87,
          position: 0,
        },
      ],
    ],
  },
  sweepPlaylistSources: { args: [USER_ID, 3], rows: { returning: [{ id: SOURCE_REF }] } },
  getSource: { args: [USER_ID, 'playlist', '37i9dQZF1DXdxcBWuJkbcy'] },
  setEnabled: [
    {
      label: 'enabling makes it due',
      args: [USER_ID, 'playlist', '37i9dQZF1DXdxcBWuJkbcy', true],
      rows: { returning: [{ id: SOURCE_REF }] },
    },
    { label: 'disabling', args: [USER_ID, 'liked_songs', 'liked_songs', false] },
  ],
};
const artistSetSamples: Repository<ArtistSetRepository>['samples'] = {
  refreshUserArtists: {
    label: 'stale: computed again',
    args: [USER_ID],
    rows: { 'update "library_users"': [{ userId: USER_ID }] },
  },
  nextCatalogArtist: [
    { label: 'in weight order', args: [USER_ID, 'album,single', 30 * 86_400_000] },
    { label: 'a new runner: 8 listings ahead', args: [USER_ID, 'album,single', 30 * 86_400_000, 8] },
  ],
  catalogTracksAwaitingTempo: { args: [USER_ID, 300, 2] },
  holdersOf: { args: [['isrc:USUM71703861', 'isrc:GBUM71029604'], 1000] },
  tracksWithoutTempo: { args: [USER_ID, 86_400_000, 500] },
};

const targetsSamples: Samples<ReturnType<typeof createTargetsRepository>> = {
  targetRanges: { args: [] },
  listTargetsWithStats: { args: [USER_ID, AT] },
  getTarget: { args: [USER_ID, TARGET_ID] },
  hasAnyTarget: { args: [USER_ID] },
  recordFirstFill: [
    { label: 'matches planned so far', args: [USER_ID, new Map([[TARGET_ID, 23]])] },
    { label: 'cleared once a playlist exists', args: [USER_ID, null] },
  ],
  addTarget: {
    args: [USER_ID, { name: 'Easy 5:30/km', minBpm: 160, maxBpm: 166, noExplicit: true }, 12],
    rows: { 'count(*)::int': [{ live: 4 }], 'insert into "playlist_targets"': [{ id: TARGET_ID }] },
  },
  editTarget: [
    {
      label: 'a new range: the details are owed to Spotify',
      args: [USER_ID, TARGET_ID, { minBpm: 165, maxBpm: 175 }],
    },
    { label: 'filters only', args: [USER_ID, TARGET_ID, { likedOnly: true, maxDurationMs: 420_000 }] },
  ],
  archiveTarget: { args: [USER_ID, TARGET_ID] },
  playlistIdsOf: { args: [USER_ID] },
  adoptEarlier: [
    {
      label: 'the pending target of its range takes it',
      args: [
        USER_ID,
        { playlistId: PLAYLIST_ID, publicUrl: null, name: 'Tempo runs 175', minBpm: 170, maxBpm: 180 },
        12,
      ],
      rows: { 'select "id" from "playlist_targets"': [{ id: TARGET_ID }] },
    },
    {
      label: 'a target of its own',
      args: [
        USER_ID,
        { playlistId: PLAYLIST_ID, publicUrl: null, name: '150–158', minBpm: 150, maxBpm: 158 },
        12,
      ],
      rows: { 'insert into "playlist_targets"': [{ id: TARGET_ID }] },
    },
  ],
  dropUnused: { args: [[TARGET_ID]] },
  markFull: { args: [TARGET_ID] },
  addContinuation: {
    args: [
      {
        id: TARGET_ID,
        userId: USER_ID,
        minBpm: 160,
        maxBpm: 170,
        name: 'Pacebeat 160–170 BPM',
        position: 1,
        state: 'active',
        playlistId: PLAYLIST_ID,
        publicUrl: null,
        snapshotId: null,
        snapshotAt: null,
        createAttempts: 1,
        creatingSince: null,
        followCheckedAt: AT,
        deletedAt: null,
        lastJobFinishedAt: AT,
        createdAt: AT,
        archivedAt: null,
        spotifyName: 'Pacebeat 160–170 BPM',
        detailsVersion: 0,
        detailsSyncedVersion: 0,
        noExplicit: false,
        minDurationMs: null,
        maxDurationMs: null,
        likedOnly: false,
        metersIncluded: [],
        fullAt: AT,
        continuesId: null,
        writeRefusedAt: null,
        writeRefusal: null,
        firstFillMatches: null,
      },
    ],
    rows: { 'insert into "playlist_targets"': [{ id: TARGET_ID }] },
  },
  markWriteRefused: { args: [TARGET_ID, "You cannot add tracks to a playlist you don't own."] },
  markDetailsSynced: { args: [TARGET_ID, 3, 'Easy 5:30/km'] },
};

const removalsSamples: Samples<RemovalsRepository> = {
  requestRemovals: {
    args: [USER_ID, [{ targetId: TARGET_ID, recordingKey: 'isrc:USUM71703861' }]],
  },
  requestAllRemovals: { args: [USER_ID, TARGET_ID] },
  removalRequests: { args: [TARGET_ID] },
  cancelRemovals: { args: [TARGET_ID, ['isrc:USUM71703861']] },
  markRemoving: { args: [TARGET_ID, BATCH_ID, ['isrc:USUM71703861']] },
  finishRemoval: { args: [TARGET_ID, BATCH_ID] },
  releaseRemoval: { args: [TARGET_ID, BATCH_ID] },
};

export const REPOSITORIES = [
  repository({
    source: 'accounts/auth-attempt.repository.ts',
    name: 'AuthAttemptRepository',
    create: createAuthAttemptRepository,
    samples: {
      reserve: {
        args: [
          'login',
          [
            { key: 'ip:203.0.113.7', max: 50 },
            { key: 'pair:runner@example.com|ip:203.0.113.7', max: 10 },
          ],
          AT,
          { failedOnly: true, failed: true },
        ],
      },
      release: { args: [[41, 42]] },
      clearFailures: { args: ['login', 'email:runner@example.com'] },
      deleteOlderThan: { args: [AT] },
    },
  }),
  repository({
    source: 'accounts/email-code.repository.ts',
    name: 'EmailCodeRepository',
    create: createEmailCodeRepository,
    samples: {
      create: {
        args: [{ codeHash: SECRET_HASH, userId: USER_ID, purpose: 'verify_email', expiresAt: LATER }],
      },
      find: { args: [SECRET_HASH, 'reset_password'] },
      markUsed: { args: [SECRET_HASH, AT] },
      deleteExpired: { args: [AT] },
    },
  }),
  repository({
    source: 'accounts/session.repository.ts',
    name: 'SessionRepository',
    create: createSessionRepository,
    samples: {
      create: {
        args: [
          {
            id: SECRET_HASH,
            userId: USER_ID,
            expiresAt: LATER,
            absoluteExpiresAt: new Date('2026-02-04T10:00:00.000Z'),
            timeZone: 'Europe/Paris',
          },
        ],
      },
      findLive: { args: [SECRET_HASH, AT] },
      touch: { args: [SECRET_HASH, AT, LATER] },
      delete: { args: [SECRET_HASH] },
      deleteForUser: { args: [USER_ID] },
      deleteExpired: { args: [AT] },
    },
  }),
  repository({
    source: 'accounts/user.repository.ts',
    name: 'UserRepository',
    create: createUserRepository,
    samples: {
      findById: { args: [USER_ID] },
      findByEmail: { args: ['runner@example.com'] },
      findByFirebaseUid: { args: ['fb-uid-123'] },
      setAdmin: { args: ['runner@example.com', true] },
      listAdmins: { args: [] },
      counts: [
        { label: 'no ADMIN_EMAILS', args: [] },
        { label: 'with ADMIN_EMAILS', args: [['owner@example.com']] },
      ],
      update: { args: [USER_ID, { name: 'Runner', emailVerifiedAt: AT }] },
    },
  }),
  repository({
    source: 'accounts/signup.repository.ts',
    name: 'SignupRepository',
    create: createSignupRepository,
    samples: {
      createAccount: [
        {
          label: 'no invitation',
          args: [
            { email: 'runner@example.com', name: 'Runner', passwordHash: '$argon2id$v=19$…' },
            { mode: 'open', firstAccountIsAdmin: true, adminEmails: ['owner@example.com'], now: AT },
          ],
        },
        {
          label: 'with an invitation, which is marked used',
          args: [
            { email: 'runner@example.com', name: 'Runner', passwordHash: '$argon2id$v=19$…' },
            { mode: 'invite', firstAccountIsAdmin: false, invitationHash: SECRET_HASH, now: AT },
          ],
          rows: {
            'from "invitations"': [
              [
                BATCH_ID,
                SECRET_HASH,
                null,
                false,
                USER_ID,
                AT.toISOString(),
                LATER.toISOString(),
                null,
                null,
                null,
              ],
            ],
            'insert into "users"': [
              [USER_ID, 'runner@example.com', 'Runner', false, AT.toISOString(), null, null, null],
            ],
          },
        },
      ],
      findInvitation: { args: [SECRET_HASH] },
      createInvitation: {
        args: [
          { tokenHash: SECRET_HASH, email: null, makesAdmin: false, createdBy: USER_ID, expiresAt: LATER },
        ],
        rows: {
          'insert into "invitations"': [
            [
              BATCH_ID,
              SECRET_HASH,
              null,
              false,
              USER_ID,
              AT.toISOString(),
              LATER.toISOString(),
              null,
              null,
              null,
            ],
          ],
        },
      },
      listInvitations: { args: [50] },
      revokeInvitation: { args: [BATCH_ID, AT] },
      savedMode: { args: [] },
      saveMode: { args: ['invite', USER_ID] },
    },
  }),
  repository({
    source: 'spotify/account.repository.ts',
    name: 'SpotifyAccountRepository',
    create: createSpotifyAccountRepository,
    samples: {
      get: { args: [USER_ID] },
      saveTokens: {
        args: [
          USER_ID,
          { accessTokenEnc: 'sealed-access', accessExpiresAt: LATER, refreshTokenEnc: 'sealed-refresh' },
        ],
      },
      markDisabled: { args: [USER_ID, 'revoked'] },
      findByAccountId: { args: ['spotify-account-id'] },
      linkedUserIds: { args: [] },
      link: {
        label: 'account not linked to another user',
        args: [
          {
            userId: USER_ID,
            accountId: 'spotify-account-id',
            spotifyUserId: 'runner42',
            displayName: 'Runner',
            scopes: 'user-library-read playlist-modify-private',
            refreshTokenEnc: 'sealed-refresh',
            accessTokenEnc: 'sealed-access',
            accessExpiresAt: LATER,
          },
        ],
      },
      delete: { args: [USER_ID] },
      withRefreshLock: {
        label: 'a token refresh: read the row, store the new tokens',
        args: [
          USER_ID,
          async (q) => {
            await q.get(USER_ID);
            await q.saveTokens(USER_ID, { accessTokenEnc: 'sealed-access', accessExpiresAt: LATER });
          },
        ],
      },
    },
  }),
  repository({
    source: 'spotify/budget.repository.ts',
    name: 'BudgetRepository',
    create: createBudgetRepository,
    samples: {
      reserve: [
        {
          label: 'granted, with the occasional prune of day-old slots',
          args: [LIMITS, 'library_scan', LEDGER_ENTRY],
          rows: { [BUDGET_STATE]: [budgetState(3)] },
          random: 0,
        },
        {
          label: 'rate window full',
          args: [LIMITS, 'library_scan', LEDGER_ENTRY],
          rows: { [BUDGET_STATE]: [budgetState(40)] },
        },
      ],
      waitsUntil: {
        label: 'the runner’s share of the day spent',
        args: [LIMITS, 'library_scan', USER_ID],
        rows: { [BUDGET_STATE]: [{ ...budgetState(3), in_day: '5000', in_day_runner: '4000' }] },
      },
      learnRate: { args: [LIMITS.key, AT], rows: { 'returning learned_rate': [{ learned: 32 }] } },
      countFailure: { args: [LEDGER_ENTRY] },
      countUnbudgeted: {
        args: [{ ...LEDGER_ENTRY, endpoint: 'POST /api/token', purpose: 'refresh' }, false],
      },
      setCooldown: {
        args: [LIMITS.key, 'rate', 30_000, 'Retry-After: 30'],
        rows: { returning: [[LATER.toISOString()]] },
      },
      activeCooldowns: { args: [LIMITS.key] },
      usedSince: {
        args: [LIMITS.key, 30_250],
        rows: { 'min(': [{ n: '3', now: AT.toISOString(), oldest: AT.toISOString() }] },
      },
      slotLeavesAt: { args: [LIMITS.key, 86_400_000, 12] },
      getCapability: { args: [`${LIMITS.key}:audio-features`] },
      setCapability: { args: [`${LIMITS.key}:audio-features`, false, '403 Forbidden'] },
      ledger: [
        { label: 'everyone', args: [] },
        { label: 'one user since a day', args: [{ userKey: USER_ID, sinceDay: '2026-01-01' }] },
      ],
      forgetUserInLedger: { args: [USER_ID] },
    },
  }),
  repository({
    source: 'spotify/spotify-app.repository.ts',
    name: 'SpotifyAppRepository',
    create: (db: Db) => createSpotifyAppRepository(db),
    samples: {
      get: { args: [] },
      save: { args: ['0123456789abcdef0123456789abcdef', USER_ID] },
    },
  }),
  repository({
    source: 'spotify/token-key.repository.ts',
    name: 'TokenKeyRepository',
    create: (db: Db) => createTokenKeyRepository(db),
    samples: {
      claim: { args: ['token_key_id', '0123456789abcdef'] },
      forget: { args: ['token_key_id'] },
    },
  }),
  repository({
    source: 'tempo/tempo.repository.ts',
    name: 'TempoRepository',
    create: createTempoRepository,
    samples: {
      getByKeys: { args: [['isrc:USUM71703861', 'spotify:4uLU6hMCjMI75M1A2tKUQC']] },
      forgetAll: { args: [] },
      save: {
        args: [
          [
            {
              key: 'isrc:USUM71703861',
              isrc: 'USUM71703861',
              spotifyId: '4uLU6hMCjMI75M1A2tKUQC',
              bpm: 172,
              source: 'deezer',
              confidence: 0.9,
              alternatives: [{ bpm: 86, source: 'estimator', confidence: 0.6 }],
              reason: null,
              retryAt: null,
              resolvedAt: AT,
            },
          ],
        ],
      },
      takeSlot: { label: 'slot refused: read why', args: ['deezer', AT, 200, 1000] },
      paceAhead: { args: ['deezer', AT] },
      setCooldown: { args: ['deezer', LATER, '429 Too Many Requests'] },
    },
  }),
  repository({
    source: 'metrics/metrics.repository.ts',
    name: 'MetricsRepository',
    create: (db: Db) => createMetricsRepository(db),
    samples: {
      ping: { args: [] },
      spotifyBudget: { args: [LIMITS.key] },
      spotifyLedgerToday: { args: [] },
      accounts: { args: [] },
      jobs: [
        { label: 'before pg-boss made its tables', args: [] },
        { label: 'jobs by queue and state', args: [], rows: { to_regclass: [{ ok: true }] } },
      ],
      tempoRecordings: { args: [] },
      tempoCooldowns: { args: [] },
    },
  }),
  repository({
    source: 'library/catalog.repository.ts',
    name: 'CatalogRepository',
    create: createCatalogRepository,
    samples: catalogSamples,
  }),
  repository({
    source: 'library/source.repository.ts',
    name: 'SourceRepository',
    create: createSourceRepository,
    samples: sourceSamples,
  }),
  repository({
    source: 'library/artist-set.repository.ts',
    name: 'ArtistSetRepository',
    create: createArtistSetRepository,
    samples: artistSetSamples,
  }),
  repository({
    source: 'library/library.repository.ts',
    name: 'LibraryRepository',
    create: createLibraryRepository,
    samples: {
      ...catalogSamples,
      ...sourceSamples,
      ...artistSetSamples,
      getUser: { args: [USER_ID] },
      ownPlaylistsSeen: { args: [USER_ID] },
      updateUser: { args: [USER_ID, { discoveryOffset: 50, discoveryPass: 3 }] },
      gatherOwnPlaylists: [
        {
          label: 'a pass’s first page',
          args: [
            USER_ID,
            [
              {
                id: 'pl1',
                name: 'Pacebeat 150–160 BPM',
                description: null,
                publicUrl: null,
                snapshotId: 's1',
              },
            ],
            { starting: true, end: false },
          ],
        },
        { label: 'its last page', args: [USER_ID, [], { starting: false, end: true }] },
      ],
      connect: { args: [USER_ID, 'runner42'] },
      deleteUser: { args: [USER_ID] },
      requestRescan: {
        label: 'asked: the sources become due',
        args: [USER_ID, 300_000],
        rows: { 'update "library_users"': [{ userId: USER_ID }] },
      },
      usersDueForRescan: { args: [6 * 3600_000] },
      inScan: {
        label: 'a scan step: lock the library row, then write',
        args: [USER_ID, async (q) => void (await q.countSourceTracks(SOURCE_REF))],
        rows: { 'for share': [{ userId: USER_ID }] },
      },
      listMatchCandidates: { args: [USER_ID] },
      refreshSource: [
        {
          label: 'a playlist: discovery learns whether it changed',
          args: [USER_ID, 'playlist', '37i9dQZF1DXdxcBWuJkbcy'],
          rows: { 'update "library_sources"': [{ id: SOURCE_REF }] },
        },
        { label: 'no such source', args: [USER_ID, 'liked_songs', 'liked_songs'] },
      ],
    },
  }),
  repository({
    source: 'library/tempo-histogram.repository.ts',
    name: 'TempoHistogramRepository',
    create: createTempoHistogramRepository,
    samples: { tempoCounts: { args: [USER_ID, 0.76] } },
  }),
  repository({
    source: 'library/source-stats.repository.ts',
    name: 'SourceStatsRepository',
    create: createSourceStatsRepository,
    samples: {
      memberCounts: { args: [USER_ID] },
      catalogCounts: { args: [USER_ID] },
      summary: { args: [USER_ID] },
      snapshot: { args: [USER_ID], rows: { 'now()::text': [{ at: '2026-01-05 10:00:00+00' }] } },
      counted: { args: [USER_ID], rows: { 'now()::text': [{ at: '2026-01-05 10:00:00+00' }] } },
      recount: { args: [USER_ID], rows: { 'now()::text': [{ at: '2026-01-05 10:00:00+00' }] } },
      stored: { args: [USER_ID, '2026-01-05 10:00:00+00'] },
      markChanged: { args: [USER_ID] },
      markAllChanged: { args: [] },
    },
  }),
  repository({
    source: 'playlists/targets.repository.ts',
    name: 'TargetsRepository',
    create: createTargetsRepository,
    samples: targetsSamples,
  }),
  repository({
    source: 'playlists/removals.repository.ts',
    name: 'RemovalsRepository',
    create: createRemovalsRepository,
    samples: removalsSamples,
  }),
  repository({
    source: 'playlists/playlists.repository.ts',
    name: 'PlaylistsRepository',
    create: createPlaylistsRepository,
    samples: {
      ...targetsSamples,
      ...removalsSamples,
      createTargets: {
        args: [USER_ID, [{ minBpm: 170, maxBpm: 180, name: 'Pacebeat 170–180 BPM', position: 2 }]],
      },
      listTargets: { args: [USER_ID] },
      statsOf: { args: [[TARGET_ID], AT] },
      deleteUserData: { args: [USER_ID] },
      acquireLease: { args: [USER_ID, 'writer-1', 300_000] },
      renewLease: { args: [USER_ID, 'writer-1', 300_000] },
      releaseLease: { args: [USER_ID, 'writer-1'] },
      markCreating: { args: [TARGET_ID] },
      markNotCreated: { args: [TARGET_ID] },
      markActive: {
        args: [
          TARGET_ID,
          {
            playlistId: '3cEYpjA9oz9GiPac4AsH4n',
            publicUrl: 'https://open.spotify.com/playlist/3cEYpjA9oz9GiPac4AsH4n',
            snapshotId: 'MSw3ZjA0',
          },
        ],
      },
      markDeleted: { args: [TARGET_ID] },
      markFollowChecked: { args: [[TARGET_ID]] },
      setSnapshot: { args: [TARGET_ID, 'MiwxYmMy'] },
      finishJob: { args: [USER_ID] },
      placedSongs: { args: [[TARGET_ID]] },
      placedInOrder: { args: [[TARGET_ID]] },
      fewerPlacedThan: { args: [USER_ID, 50] },
      tracksOf: [
        { label: 'all', args: [TARGET_ID] },
        { label: 'pending only', args: [TARGET_ID, ['pending']] },
      ],
      recordPending: {
        args: [
          TARGET_ID,
          BATCH_ID,
          [{ recordingKey: 'isrc:USUM71703861', trackId: '4uLU6hMCjMI75M1A2tKUQC', bpm: 172 }],
        ],
      },
      confirmBatch: { args: [TARGET_ID, BATCH_ID] },
      releaseBatch: { args: [TARGET_ID, BATCH_ID] },
      setStates: { args: [TARGET_ID, ['isrc:USUM71703861'], 'removed'] },
      recordPresent: {
        args: [
          TARGET_ID,
          [{ recordingKey: 'spotify:4uLU6hMCjMI75M1A2tKUQC', trackId: '4uLU6hMCjMI75M1A2tKUQC' }],
        ],
      },
      recordAdopted: {
        args: [
          TARGET_ID,
          [
            {
              recordingKey: 'isrc:USUM71703861',
              trackId: '4uLU6hMCjMI75M1A2tKUQC',
              bpm: 172,
              addedAt: new Date('2026-11-20T08:00:00Z'),
            },
          ],
        ],
      },
    },
  }),
  repository({
    source: 'choices/choices.repository.ts',
    name: 'ChoicesRepository',
    create: createChoicesRepository,
    samples: {
      corrections: { args: [USER_ID] },
      setCorrection: { args: [USER_ID, 'isrc:USUM71703861', 86] },
      deleteCorrection: { args: [USER_ID, 'isrc:USUM71703861'] },
      meterCorrections: { args: [USER_ID] },
      setMeterCorrection: { args: [USER_ID, 'isrc:USUM71703861', '4/4'] },
      deleteMeterCorrection: { args: [USER_ID, 'isrc:USUM71703861'] },
      exclusions: { args: [USER_ID] },
      exclusionsPage: { args: [USER_ID, 25, 25] },
      addExclusion: {
        args: [
          USER_ID,
          'track',
          'isrc:USUM71703861',
          { label: TRACK.title, detail: 'Band of Horses, Avicii' },
        ],
        rows: { select: [{ userId: USER_ID, kind: 'track', key: 'isrc:USUM71703861' }] },
      },
      deleteExclusion: { args: [USER_ID, 'artist', ARTIST_ID] },
      deleteUserData: { args: [USER_ID] },
    },
  }),
  repository({
    source: 'choices/track-lists.repository.ts',
    name: 'TrackListsRepository',
    create: createTrackListsRepository,
    samples: {
      targetOf: { args: [USER_ID, TARGET_ID] },
      targetsOf: { args: [USER_ID] },
      placedPage: { args: [TARGET_ID, 50, 25] },
      tracks: { args: [[TRACK.id]] },
      trackInLibrary: { args: [USER_ID, TRACK.recordingKey] },
      artistInLibrary: { args: [USER_ID, ARTIST_ID] },
      artistNames: { args: [[ARTIST_ID]] },
      addedOfRecordings: { args: [USER_ID, [TRACK.recordingKey]] },
      addedOfArtist: { args: [USER_ID, ARTIST_ID] },
    },
  }),
  repository({
    source: 'runs/runs.repository.ts',
    name: 'RunsRepository',
    create: createRunsRepository,
    samples: {
      segmentRanges: { args: [] },
      list: { args: [USER_ID] },
      get: { args: [USER_ID, RUN_ID] },
      create: {
        args: [USER_ID, RUN_FIELDS, 20],
        rows: { 'insert into runs': [{ id: RUN_ID }] },
      },
      update: { args: [USER_ID, RUN_ID, RUN_FIELDS] },
      remove: { args: [USER_ID, RUN_ID] },
      builds: { args: [RUN_ID, 2] },
      addBuild: {
        args: [RUN_ID, [RUN_SONG]],
        rows: { 'insert into "run_builds"': [{ id: BUILD_ID, runId: RUN_ID }] },
      },
      setBuildSpotify: { args: [BUILD_ID, { state: 'written', message: null, calls: 2 }] },
      markCreating: { args: [RUN_ID, 'Pacebeat run: Saturday long run'] },
      setPlaylist: {
        args: [
          RUN_ID,
          {
            playlistId: '3cEYpjA9oz9GiPac4AsH4n',
            publicUrl: 'https://open.spotify.com/playlist/3cEYpjA9oz9GiPac4AsH4n',
            sentName: 'Pacebeat run: Saturday long run',
            sentDescription: 'Built by Pacebeat from your songs.',
          },
        ],
      },
      playlistIdsOf: { args: [USER_ID] },
      forgetMusicAccount: { args: [USER_ID] },
    },
  }),
];
