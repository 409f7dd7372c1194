import type { Logger } from 'pino';
import type { ChangeFeed } from '../cache/change-feed.ts';
import { createLiveCache } from '../cache/live-cache.ts';
import type { AccountsConfig } from './accounts.config.ts';
import { createAccountsService } from './accounts.service.ts';
import { createAuthAttemptRepository } from './auth-attempt.repository.ts';
import { createEmailCodeRepository } from './email-code.repository.ts';
import { createFirebaseVerifier, type FirebaseVerifier } from './firebase.ts';
import { createMailer } from './mailer.ts';
import { createRateLimitService } from './rate-limit.service.ts';
import { createSessionRepository } from './session.repository.ts';
import { createSessionService, type LiveSession } from './session.service.ts';
import { createUserRepository } from './user.repository.ts';
import { appOrigins, type AppOrigins } from '../http/origins.ts';
import { answersOnlyAtLoopback, createSignupPolicy } from './signup-policy.ts';
import { createSignupRepository } from './signup.repository.ts';

/**
 * How long a process may serve a session (and its user) it read without reading it again. Changes reach
 * the caches at once by NOTIFY; this bounds the delay when a notification is lost on a connection that has
 * not yet been found dead (the feed's heartbeat finds it within ~4 s and clears every cache).
 */
export const SESSION_CACHE_MAX_AGE_MS = 5000;

/** The Drizzle handle the repositories take (only repositories import the client itself). */
type Db = Parameters<typeof createUserRepository>[0];

/** What the module reads of the settings (app/config.ts composes them). */
export type AccountsSettings = AccountsConfig &
  Parameters<typeof appOrigins>[0] & {
    SPOTIFY_CLIENT_ID?: string;
    authProvider: 'local' | 'firebase';
    /** The database is the embedded one (kept for the callers; the sign-up rules do not depend on it). */
    embedded: boolean;
  };

export interface AccountsModuleDeps {
  settings: AccountsSettings;
  log: Logger;
  firebase?: FirebaseVerifier;
  changes?: ChangeFeed;
  /**
   * Demo mode is in force (read at each sign-up: the setup page may leave it); default: no SPOTIFY_CLIENT_ID.
   * compose.ts passes the Spotify app in force.
   */
  demo?: () => Promise<boolean>;
  /** The app's origins (whether it answers only at loopback addresses); default: from the settings. */
  origins?: Pick<AppOrigins, 'allowedOrigins'>;
  /** How long a process may serve a cached session (tests of the cache itself); default 5 s. */
  sessionCacheMaxAgeMs?: number;
}

/** Wires the accounts repositories and services from the settings (used by compose.ts and the tests). */
export function createAccountsModule(db: Db, deps: AccountsModuleDeps) {
  const { settings: s, log, ...overrides } = deps;
  const sessionRows = createSessionRepository(db);
  const attempts = createAuthAttemptRepository(db);
  const codes = createEmailCodeRepository(db);
  const users = createUserRepository(db);
  const signups = createSignupRepository(db);
  const policy = createSignupPolicy({
    repo: signups,
    envMode: s.SIGNUP_MODE,
    loopback: answersOnlyAtLoopback(overrides.origins ?? appOrigins(s)),
    demo: overrides.demo ?? (async () => !s.SPOTIFY_CLIENT_ID),
  });
  const sessions = createSessionService({
    sessions: sessionRows,
    idleHours: s.SESSION_IDLE_HOURS,
    absoluteHours: s.SESSION_ABSOLUTE_HOURS,
    cache: overrides.changes
      ? createLiveCache<LiveSession | undefined>({
          feed: overrides.changes,
          maxAgeMs: overrides.sessionCacheMaxAgeMs ?? SESSION_CACHE_MAX_AGE_MS,
        })
      : undefined,
  });
  const firebase =
    s.authProvider === 'firebase'
      ? (overrides.firebase ?? createFirebaseVerifier(s.FIREBASE_PROJECT_ID!))
      : undefined;
  const limits = createRateLimitService({
    attempts,
    windowMinutes: s.LOGIN_WINDOW_MINUTES,
    maxFailuresPerAccount: s.LOGIN_MAX_FAILURES_PER_ACCOUNT,
    maxFailuresPerAccountAllAddresses: s.LOGIN_MAX_FAILURES_PER_ACCOUNT_ALL_ADDRESSES,
    maxFailuresPerAddress: s.LOGIN_MAX_FAILURES_PER_ADDRESS,
    maxPerAddress: s.SIGNUP_MAX_PER_ADDRESS,
    maxConnectsPerAddress: s.CONNECT_MAX_PER_ADDRESS,
    maxMailsPerRecipient: s.MAIL_MAX_PER_RECIPIENT,
  });
  const accounts = createAccountsService({
    users,
    codes,
    sessionRows,
    sessions,
    limits,
    mailer: createMailer({ smtpUrl: s.SMTP_URL, from: s.SMTP_FROM, log }),
    firebase,
    firebaseWebConfig: s.FIREBASE_WEB_CONFIG,
    firebaseEmulatorUrl: s.FIREBASE_AUTH_EMULATOR_HOST
      ? `http://${s.FIREBASE_AUTH_EMULATOR_HOST}`
      : undefined,
    adminEmails: s.ADMIN_EMAILS,
    signups,
    policy,
    log,
  });
  return {
    accounts,
    /** Attempt limits shared by every process (sign-in, sign-up, mails, Spotify connects). */
    limits,
    sessions,
    sessionRows,
    attempts,
    codes,
    users,
    signups,
    policy,
    async close() {
      await accounts.settled();
      await firebase?.close();
    },
  };
}

export type AccountsModule = ReturnType<typeof createAccountsModule>;
