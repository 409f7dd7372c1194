import { createHash, randomBytes } from 'node:crypto';
import type { LiveCache } from '../cache/live-cache.ts';
import type { SessionRepository } from './session.repository.ts';

export type LiveSession = NonNullable<Awaited<ReturnType<SessionRepository['findLive']>>>;

export interface SessionServiceDeps {
  sessions: Pick<SessionRepository, 'create' | 'findLive' | 'touch' | 'delete'>;
  idleHours: number;
  absoluteHours: number;
  /** Session lookups by cookie hash, invalidated across processes (absent: every request reads the row). */
  cache?: LiveCache<LiveSession | undefined>;
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
  cache,
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
    const id = hashSecret(secret);
    const found = cache
      ? await cache.get(
          id,
          () => sessions.findLive(id, at),
          (f) => [`session:${f!.session.id}`, `user:${f!.user.id}`],
        )
      : await sessions.findLive(id, at);
    // A cached copy is checked against the clock too: it may have expired since it was read.
    if (!found || found.session.expiresAt <= at || found.session.absoluteExpiresAt <= at) return undefined;
    if (at.getTime() - found.session.lastSeenAt.getTime() > TOUCH_EVERY_MS) {
      const idle = new Date(at.getTime() + idleHours * HOUR_MS);
      const expiresAt = idle < found.session.absoluteExpiresAt ? idle : found.session.absoluteExpiresAt;
      // Moved forward on the (possibly cached) copy too, so the next requests do not write again.
      found.session.lastSeenAt = at;
      found.session.expiresAt = expiresAt;
      await sessions.touch(found.session.id, at, expiresAt);
    }
    return found;
  },

  async end(secret: string): Promise<void> {
    const id = hashSecret(secret);
    // This process forgets it at once; the reply waits until the delete's NOTIFY came back, so every
    // other process has been sent it before the browser hears that the session ended.
    const ended = cache?.everywhere(`session:${id}`);
    const deleted = await sessions.delete(id);
    if (deleted)
      await ended?.settled(); // nothing deleted: no NOTIFY to wait for
    else cache?.drop(`session:${id}`);
  },
});

export type SessionService = ReturnType<typeof createSessionService>;
