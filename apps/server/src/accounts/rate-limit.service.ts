import { AUTH_TEXTS } from '@pacebeat/contract';
import { tooManyRequests } from '../http/errors.ts';
import type { AttemptKind, AuthAttemptRepository } from './auth-attempt.repository.ts';

export interface RateLimitDeps {
  attempts: Pick<AuthAttemptRepository, 'record' | 'count' | 'clearFailures'>;
  windowMinutes: number;
  maxFailuresPerAccount: number;
  maxFailuresPerAddress: number;
  maxPerAddress: number;
  now?: () => Date;
}

export const TOO_MANY_CODE = 'TooManyAttempts';

/** Limits on sign-in, sign-up and mail attempts, counted in PostgreSQL so every process shares them. */
export const createRateLimitService = (d: RateLimitDeps) => {
  const since = () => new Date((d.now?.() ?? new Date()).getTime() - d.windowMinutes * 60_000);
  return {
    /** Throws 429 when the account or the address has failed to sign in too often lately. */
    async checkLogin(email: string | undefined, ip: string): Promise<void> {
      const keys = [`ip:${ip}`, ...(email ? [`account:${email}`] : [])];
      const n = await d.attempts.count('login', keys, since(), true);
      if (
        (n.get(`ip:${ip}`) ?? 0) >= d.maxFailuresPerAddress ||
        (email && (n.get(`account:${email}`) ?? 0) >= d.maxFailuresPerAccount)
      ) {
        throw tooManyRequests(AUTH_TEXTS.tooManyLogins, TOO_MANY_CODE);
      }
    },
    async loginFailed(email: string | undefined, ip: string): Promise<void> {
      await d.attempts.record('login', [`ip:${ip}`, ...(email ? [`account:${email}`] : [])], true);
    },
    async loginSucceeded(email: string): Promise<void> {
      await d.attempts.clearFailures('login', `account:${email}`);
    },
    /** Counts a sign-up or a mail request from an address; throws 429 past the limit. */
    async take(kind: Exclude<AttemptKind, 'login'>, ip: string): Promise<void> {
      const key = `ip:${ip}`;
      const n = await d.attempts.count(kind, [key], since(), false);
      if ((n.get(key) ?? 0) >= d.maxPerAddress) {
        throw tooManyRequests(
          kind === 'signup' ? AUTH_TEXTS.tooManySignups : AUTH_TEXTS.tooManyLogins,
          TOO_MANY_CODE,
        );
      }
      await d.attempts.record(kind, [key], false);
    },
  };
};

export type RateLimitService = ReturnType<typeof createRateLimitService>;
