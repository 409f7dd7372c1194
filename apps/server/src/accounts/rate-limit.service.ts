import { AUTH_TEXTS } from '@pacebeat/contract';
import { addressKey } from '../http/client-address.ts';
import { tooManyRequests } from '../errors.ts';
import type { AuthAttemptRepository } from './auth-attempt.repository.ts';

export interface RateLimitDeps {
  attempts: Pick<AuthAttemptRepository, 'reserve' | 'release' | 'clearFailures'>;
  windowMinutes: number;
  /** Failed sign-ins of one account from one address. */
  maxFailuresPerAccount: number;
  /** Failed sign-ins of one account from all addresses together (a ceiling against distributed guessing). */
  maxFailuresPerAccountAllAddresses: number;
  maxFailuresPerAddress: number;
  maxPerAddress: number;
  /** Verification and reset mails to one recipient, from all addresses together (MAIL_MAX_PER_RECIPIENT). */
  maxMailsPerRecipient: number;
  /** Spotify connect attempts per address (CONNECT_MAX_PER_ADDRESS). */
  maxConnectsPerAddress: number;
  now?: () => Date;
}

export const TOO_MANY_CODE = 'TooManyAttempts';

/** Spotify connect attempts of one account (each costs a `GET /me` from the installation's shared budget) per window. */
export const CONNECT_MAX_PER_USER = 10;

/**
 * Runner actions that cost Spotify calls from the day the runners share, each with a limit of its own per
 * runner, far above what a person does by hand: a loop is stopped within minutes, and a
 * disconnect does not reset the counts (they are kept by account, not by Spotify connection).
 */
export const ACTION_LIMITS = {
  /** Add, edit or delete a target, or ask for its unfitting songs to go: a playlist write each. */
  targets: { max: 30, minutes: 60, what: 'changes to your paces' },
  /** "Refresh now", of everything or of one source: a rescan each. */
  refresh: { max: 12, minutes: 60, what: 'refreshes' },
  /** A source switched on or off: a scan when on. */
  sources: { max: 60, minutes: 60, what: 'source switches' },
  /** Tempo fixes, exclusions and their undos: playlist writes. */
  choices: { max: 120, minutes: 60, what: 'tempo fixes and exclusions' },
  /** A run built (or its build sent again): its playlist replaced, 1 to 3 calls each. */
  runs: { max: 20, minutes: 60, what: 'run builds' },
} as const;
export type SpotifyAction = keyof typeof ACTION_LIMITS;

/** A sign-in attempt counted as a failure before the password is checked; released when it was right. */
export interface LoginAttempt {
  ids: number[];
  pairKey?: string;
}

/**
 * How long a process answers a refused runner action without asking PostgreSQL again. The limits' windows
 * are an hour, so a key refused now stays refused for at least this long anyway.
 */
export const REFUSAL_REMEMBERED_MS = 10_000;

/**
 * Limits on sign-in, sign-up and mail attempts, counted in PostgreSQL so every process shares them. A
 * client address is counted by `addressKey` (an IPv6 client by its /64 network). The
 * check and the count are one atomic step (see `reserve`): a sign-in counts as a failure before its
 * password is checked, so simultaneous guesses cannot all slip under the limit.
 */
export const createRateLimitService = (d: RateLimitDeps) => {
  /** Per process: action keys just refused, until when (see REFUSAL_REMEMBERED_MS). */
  const refusedUntil = new Map<string, number>();
  const since = () => new Date((d.now?.() ?? new Date()).getTime() - d.windowMinutes * 60_000);
  return {
    /**
     * Counts a sign-in attempt as a failure, or throws 429 when the address, the (account, address) pair
     * or the account as a whole has failed too often lately. A real owner on their own address is locked
     * out only by the account-wide ceiling, which is much larger than the per-pair limit.
     */
    async beginLogin(email: string | undefined, clientIp: string): Promise<LoginAttempt> {
      const ip = addressKey(clientIp);
      const pairKey = email ? `pair:${email}|ip:${ip}` : undefined;
      const limits = [
        { key: `ip:${ip}`, max: d.maxFailuresPerAddress },
        ...(email && pairKey
          ? [
              { key: pairKey, max: d.maxFailuresPerAccount },
              { key: `account:${email}`, max: d.maxFailuresPerAccountAllAddresses },
            ]
          : []),
      ];
      const ids = await d.attempts.reserve('login', limits, since(), { failedOnly: true, failed: true });
      if (!ids) throw tooManyRequests(AUTH_TEXTS.tooManyLogins, TOO_MANY_CODE);
      return { ids, pairKey };
    },
    /** The attempt was right: it is no failure, and the pair's earlier failures are forgiven. */
    async loginSucceeded(attempt: LoginAttempt): Promise<void> {
      await d.attempts.release(attempt.ids);
      if (attempt.pairKey) await d.attempts.clearFailures('login', attempt.pairKey);
    },
    /**
     * Forgets the account's failed sign-ins from every address (a password reset proves the mailbox): an
     * owner locked out by guesses from many addresses (the account-wide ceiling) signs in again at once.
     */
    async forgiveAccount(email: string): Promise<void> {
      await d.attempts.clearFailures('login', `account:${email}`);
    },
    /** Counts a Spotify connect attempt of a user from an address; throws 429 past either limit. */
    async takeConnect(userId: string, clientIp: string): Promise<void> {
      const ip = addressKey(clientIp);
      const ids = await d.attempts.reserve(
        'connect',
        [
          { key: `user:${userId}`, max: CONNECT_MAX_PER_USER },
          { key: `ip:${ip}`, max: d.maxConnectsPerAddress },
        ],
        since(),
        { failedOnly: false, failed: false },
      );
      if (!ids) {
        throw tooManyRequests(
          'Too many attempts to connect Spotify. Wait a few minutes and try again.',
          TOO_MANY_CODE,
        );
      }
    },
    /** Counts a runner's action that costs Spotify calls; throws 429 past its limit (`ACTION_LIMITS`). */
    async takeAction(kind: SpotifyAction, userId: string): Promise<void> {
      const limit = ACTION_LIMITS[kind];
      const key = `${kind}:user:${userId}`;
      const now = (d.now?.() ?? new Date()).getTime();
      const refuse = () =>
        tooManyRequests(
          `You made ${limit.max} ${limit.what} within ${limit.minutes} minutes, more than Pacebeat allows: each costs calls from the Spotify budget the runners here share. Try again a little later.`,
          TOO_MANY_CODE,
        );
      // A loop that was just refused is refused again here, without a database transaction each time
      // (the lifecycle benchmark's looper sent ~85 refused requests a second).
      if ((refusedUntil.get(key) ?? 0) > now) throw refuse();
      const since = new Date(now - limit.minutes * 60_000);
      const ids = await d.attempts.reserve('action', [{ key, max: limit.max }], since, {
        failedOnly: false,
        failed: false,
      });
      if (!ids) {
        if (refusedUntil.size > 10_000) refusedUntil.clear(); // bounded: a cache, not a record
        refusedUntil.set(key, now + REFUSAL_REMEMBERED_MS);
        throw refuse();
      }
    },
    /** Counts a sign-up from an address; throws 429 past the limit. */
    async takeSignup(clientIp: string): Promise<void> {
      const ids = await d.attempts.reserve(
        'signup',
        [{ key: `ip:${addressKey(clientIp)}`, max: d.maxPerAddress }],
        since(),
        { failedOnly: false, failed: false },
      );
      if (!ids) throw tooManyRequests(AUTH_TEXTS.tooManySignups, TOO_MANY_CODE);
    },
    /**
     * Counts a mail request from an address to a recipient; throws 429 past either limit. The recipient is
     * counted whether or not it has an account, and both limits answer alike, so the answer tells nothing
     * about the account.
     */
    async takeMail(clientIp: string, recipient: string): Promise<void> {
      const ids = await d.attempts.reserve(
        'mail',
        [
          { key: `ip:${addressKey(clientIp)}`, max: d.maxPerAddress },
          { key: `to:${recipient.trim().toLowerCase()}`, max: d.maxMailsPerRecipient },
        ],
        since(),
        { failedOnly: false, failed: false },
      );
      if (!ids) throw tooManyRequests(AUTH_TEXTS.tooManyMails, TOO_MANY_CODE);
    },
  };
};

export type RateLimitService = ReturnType<typeof createRateLimitService>;
