import type { AuthAttemptRepository } from '../accounts/auth-attempt.repository.ts';
import type { EmailCodeRepository } from '../accounts/email-code.repository.ts';
import type { SessionRepository } from '../accounts/session.repository.ts';

export interface HousekeepingDeps {
  sessions: Pick<SessionRepository, 'deleteExpired'>;
  codes?: Pick<EmailCodeRepository, 'deleteExpired'>;
  attempts?: Pick<AuthAttemptRepository, 'deleteOlderThan'>;
  now?: () => Date;
}

/** Rate-limit counters are kept a day, far longer than any limit's window. */
const ATTEMPTS_KEPT_MS = 24 * 3_600_000;

/** Periodic clean-up of data that has outlived its use. */
export const createHousekeepingService = ({
  sessions,
  codes,
  attempts,
  now = () => new Date(),
}: HousekeepingDeps) => ({
  /** Prunes expired sessions and mailed codes, and old sign-in attempts; answers what it removed so the job log shows it. */
  async run(): Promise<{ expiredSessions: number; expiredCodes: number; oldAttempts: number }> {
    const at = now();
    return {
      expiredSessions: await sessions.deleteExpired(at),
      expiredCodes: (await codes?.deleteExpired(at)) ?? 0,
      oldAttempts: (await attempts?.deleteOlderThan(new Date(at.getTime() - ATTEMPTS_KEPT_MS))) ?? 0,
    };
  },
});

export type HousekeepingService = ReturnType<typeof createHousekeepingService>;
