import { createHash, randomBytes } from 'node:crypto';
import type { SessionRepository } from './session.repository.ts';

export interface SessionServiceDeps {
  sessions: Pick<SessionRepository, 'create' | 'findLive' | 'touch' | 'delete'>;
  idleHours: number;
  absoluteHours: number;
  now?: () => Date;
}

const HOUR_MS = 3_600_000;
/** Idle expiry is moved forward at most this often, so most requests do not write. */
const TOUCH_EVERY_MS = 60_000;

/** The cookie holds a random secret; the database holds only its SHA-256. */
export const hashSecret = (secret: string) => createHash('sha256').update(secret).digest('hex');

/** Server-side sessions with idle and absolute expiry. */
export const createSessionService = ({
  sessions,
  idleHours,
  absoluteHours,
  now = () => new Date(),
}: SessionServiceDeps) => ({
  absoluteSeconds: Math.floor(absoluteHours * 3600),

  /** Starts a session and answers the secret for the cookie. */
  async start(userId: string, timeZone: string | null): Promise<string> {
    const secret = randomBytes(32).toString('base64url');
    const t = now().getTime();
    await sessions.create({
      id: hashSecret(secret),
      userId,
      expiresAt: new Date(t + idleHours * HOUR_MS),
      absoluteExpiresAt: new Date(t + absoluteHours * HOUR_MS),
      timeZone,
    });
    return secret;
  },

  /** The live session for a cookie secret, with its user; moves the idle expiry forward. */
  async resume(secret: string) {
    const at = now();
    const found = await sessions.findLive(hashSecret(secret), at);
    if (!found) return undefined;
    if (at.getTime() - found.session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
      const idle = new Date(at.getTime() + idleHours * HOUR_MS);
      const expiresAt = idle < found.session.absoluteExpiresAt ? idle : found.session.absoluteExpiresAt;
      await sessions.touch(found.session.id, at, expiresAt);
    }
    return found;
  },

  async end(secret: string): Promise<void> {
    await sessions.delete(hashSecret(secret));
  },
});

export type SessionService = ReturnType<typeof createSessionService>;
