// Spotify tables: the linked account with its encrypted tokens, the shared call budget (rolling-window
// reservations and cooldowns), remembered capabilities, and the call ledger. Owned by src/spotify/.
import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  date,
  index,
  integer,
  pgTable,
  primaryKey,
  smallint,
  text,
  timestamp,
  uuid,
} from 'drizzle-orm/pg-core';
import { users } from './accounts.schema.ts';

/** One Spotify account per Pacebeat user, and one Pacebeat user per Spotify account (`account_id`). */
export const spotifyAccounts = pgTable('spotify_accounts', {
  userId: uuid('user_id')
    .primaryKey()
    .references(() => users.id, { onDelete: 'cascade' }),
  /** `GET /me` `account_id`: the stable key of the Spotify account. */
  accountId: text('account_id').notNull().unique(),
  /** `GET /me` `id` (the user's Spotify id, used in URIs). */
  spotifyUserId: text('spotify_user_id').notNull(),
  displayName: text('display_name'),
  /** Granted scopes, space-separated, as the token reply gave them. */
  scopes: text('scopes').notNull(),
  /** AES-256-GCM sealed (token-crypto.ts), bound to the user id. */
  refreshTokenEnc: text('refresh_token_enc').notNull(),
  accessTokenEnc: text('access_token_enc'),
  accessExpiresAt: timestamp('access_expires_at', { withTimezone: true }),
  /** When the user authorised: refresh tokens expire 6 months later. */
  authorizedAt: timestamp('authorized_at', { withTimezone: true }).notNull().defaultNow(),
  /** Set when Spotify refuses this account (revoked, expired, not registered, Premium lapsed). */
  disabledReason: text('disabled_reason'),
  disabledAt: timestamp('disabled_at', { withTimezone: true }),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});

/** One row per call made (or about to be made) in the last 24 h: the rolling rate and quota windows. */
export const spotifyCallSlots = pgTable(
  'spotify_call_slots',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** Which budget: the Spotify app (client id) whose limits these are. */
    budget: text('budget').notNull().default('app'),
    at: timestamp('at', { withTimezone: true })
      .notNull()
      .default(sql`clock_timestamp()`),
    /** 0 interactive, 1 playlist writes, 2 library scans, 3 catalog expansion. */
    priority: smallint('priority').notNull(),
    /**
     * The runner the call was made for (their user id): their fair share of the day is counted here, so
     * it stays counted after a disconnect. '' for slots from before this was kept.
     */
    userKey: text('user_key').notNull().default(''),
  },
  (t) => [
    index('spotify_call_slots_at_idx').on(t.at),
    index('spotify_call_slots_budget_at_idx').on(t.budget, t.at),
    index('spotify_call_slots_budget_user_at_idx').on(t.budget, t.userKey, t.at),
  ],
);

/** Cooldowns every process respects: `rate` (a 429) and `quota` (QUOTA_EXCEEDED). */
export const spotifyCooldowns = pgTable(
  'spotify_cooldowns',
  {
    budget: text('budget').notNull().default('app'),
    kind: text('kind', { enum: ['rate', 'quota'] }).notNull(),
    until: timestamp('until', { withTimezone: true }).notNull(),
    setAt: timestamp('set_at', { withTimezone: true }).notNull().defaultNow(),
    detail: text('detail').notNull().default(''),
  },
  (t) => [primaryKey({ columns: [t.budget, t.kind] })],
);

/**
 * Capabilities found at run time (extended-quota endpoints): a 403 is remembered, so it is tried once.
 * Keyed `<budget key>:<capability>`: they belong to one Spotify app.
 */
export const spotifyCapabilities = pgTable('spotify_capabilities', {
  capability: text('capability').primaryKey(),
  available: boolean('available').notNull(),
  detail: text('detail').notNull().default(''),
  checkedAt: timestamp('checked_at', { withTimezone: true }).notNull().defaultNow(),
});

/** Calls counted per day, user ('' for none), endpoint and purpose. */
export const spotifyCallLedger = pgTable(
  'spotify_call_ledger',
  {
    day: date('day').notNull(),
    userKey: text('user_key').notNull(),
    endpoint: text('endpoint').notNull(),
    purpose: text('purpose').notNull(),
    priority: smallint('priority').notNull(),
    calls: integer('calls').notNull().default(0),
    failures: integer('failures').notNull().default(0),
  },
  (t) => [
    primaryKey({ columns: [t.day, t.userKey, t.endpoint, t.purpose] }),
    index('spotify_call_ledger_user_idx').on(t.userKey),
  ],
);

/** What the budget has learned about Spotify's unpublished rate limit (from a 429), per app. */
export const spotifyBudgetState = pgTable('spotify_budget_state', {
  budget: text('budget').primaryKey(),
  /** Calls per 30 s that Spotify allowed before it answered 429; used for a day, then learned again. */
  learnedRate: integer('learned_rate').notNull(),
  learnedAt: timestamp('learned_at', { withTimezone: true }).notNull().defaultNow(),
});

/**
 * The Spotify app this installation uses when SPOTIFY_CLIENT_ID is not set: the client id an admin saved
 * on the setup page. One row (`id` = 'spotify'); none: demo mode. A change NOTIFYs
 * `spotify_app:spotify`, so every process reads the new one at once (spotify/spotify-app.service.ts).
 */
export const spotifyApp = pgTable('spotify_app', {
  id: text('id').primaryKey(),
  clientId: text('client_id').notNull(),
  /** The admin who saved it (kept when they are deleted, as null). */
  setBy: uuid('set_by').references(() => users.id, { onDelete: 'set null' }),
  setAt: timestamp('set_at', { withTimezone: true }).notNull().defaultNow(),
});
