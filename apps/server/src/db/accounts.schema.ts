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
