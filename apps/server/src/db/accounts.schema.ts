// Accounts: users, their mailed codes, sign-in attempts and sessions (the accounts module's tables).

import { bigserial, boolean, index, pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';

export const users = pgTable('users', {
  id: uuid('id').primaryKey().defaultRandom(),
  email: text('email').notNull().unique(),
  name: text('name').notNull().default(''),
  isAdmin: boolean('is_admin').notNull().default(false),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  /** argon2id hash (PHC string) of a local account's password; null for firebase accounts. */
  passwordHash: text('password_hash'),
  /** Firebase user id of an account that signs in through Firebase. */
  firebaseUid: text('firebase_uid').unique(),
  emailVerifiedAt: timestamp('email_verified_at', { withTimezone: true }),
});

/** Single-use codes mailed to local accounts (email verification, password reset); only their hash is kept. */
export const emailCodes = pgTable(
  'email_codes',
  {
    codeHash: text('code_hash').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    purpose: text('purpose', { enum: ['verify_email', 'reset_password'] }).notNull(),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
  },
  (t) => [index('email_codes_expires_at_idx').on(t.expiresAt), index('email_codes_user_id_idx').on(t.userId)],
);

/** Sign-in, sign-up and mail attempts, counted per key (account or address) for rate limits. */
export const authAttempts = pgTable(
  'auth_attempts',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    /** `login`, `signup` or `mail`. */
    kind: text('kind').notNull(),
    /** `account:<email>` or `ip:<address>`. */
    key: text('key').notNull(),
    failed: boolean('failed').notNull(),
    at: timestamp('at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('auth_attempts_key_at_idx').on(t.kind, t.key, t.at), index('auth_attempts_at_idx').on(t.at)],
);

/** Server-side sessions; the cookie holds the secret, `id` is its SHA-256 (so a leaked table opens no session). */
export const sessions = pgTable(
  'sessions',
  {
    id: text('id').primaryKey(),
    userId: uuid('user_id')
      .notNull()
      .references(() => users.id, { onDelete: 'cascade' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull().defaultNow(),
    /** Idle expiry; moves forward on use, never past `absoluteExpiresAt`. */
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    absoluteExpiresAt: timestamp('absolute_expires_at', { withTimezone: true }).notNull().defaultNow(),
    /** The browser's IANA time zone at login, for formatting times. */
    timeZone: text('time_zone'),
  },
  (t) => [index('sessions_expires_at_idx').on(t.expiresAt), index('sessions_user_id_idx').on(t.userId)],
);

/**
 * Invitations to sign up: a link an admin made on the admin page (optionally for one email
 * address), or the one-time setup link printed in the log when an installation on a public address has no
 * admin yet (`makesAdmin`). Only the SHA-256 of the link's secret is kept; a link works once, until it
 * expires or is revoked.
 */
export const invitations = pgTable(
  'invitations',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    tokenHash: text('token_hash').notNull().unique(),
    /** Only this address may sign up with it (lower case); null: any address. */
    email: text('email'),
    /** The setup link: whoever signs up with it first becomes the admin, while the installation has none. */
    makesAdmin: boolean('makes_admin').notNull().default(false),
    /** The admin who made it (null for the setup link, or once that admin is deleted). */
    createdBy: uuid('created_by').references(() => users.id, { onDelete: 'set null' }),
    createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    usedAt: timestamp('used_at', { withTimezone: true }),
    /** The account made with it. */
    usedBy: uuid('used_by').references(() => users.id, { onDelete: 'set null' }),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
  },
  (t) => [index('invitations_expires_at_idx').on(t.expiresAt)],
);

/**
 * Who may sign up, as an admin set it on the admin page: one row (`id` = 'signup'); none: the
 * default (SIGNUP_MODE in the environment wins over both).
 */
export const signupSettings = pgTable('signup_settings', {
  id: text('id').primaryKey(),
  /** `open`, `invite` or `closed`. */
  mode: text('mode', { enum: ['open', 'invite', 'closed'] }).notNull(),
  setBy: uuid('set_by').references(() => users.id, { onDelete: 'set null' }),
  setAt: timestamp('set_at', { withTimezone: true }).notNull().defaultNow(),
});
