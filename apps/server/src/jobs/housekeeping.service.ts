import type { SessionRepository } from '../accounts/session.repository.ts';

export interface HousekeepingDeps {
  sessions: Pick<SessionRepository, 'deleteExpired'>;
  now?: () => Date;
}

/** Periodic clean-up of data that has outlived its use. */
export const createHousekeepingService = ({ sessions, now = () => new Date() }: HousekeepingDeps) => ({
  /** Prunes expired sessions; answers what it removed so the job log shows it. */
  async run(): Promise<{ expiredSessions: number }> {
    return { expiredSessions: await sessions.deleteExpired(now()) };
  },
});

export type HousekeepingService = ReturnType<typeof createHousekeepingService>;
