import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import fp from 'fastify-plugin';
import type { AccountsService, ActingUser } from '../accounts/accounts.service.ts';
import type { SessionService } from '../accounts/session.service.ts';
import { forbidden, notFound, unauthorized } from '../errors.ts';
import { redactUrl } from '../log.ts';
import { originAllowed, type AppOrigins } from './origins.ts';

export const SESSION_COOKIE = 'pacebeat_session';

/** Who a request comes from: the signed-in user, and the user it acts for (another one in sudo mode). */
export interface AuthContext {
  /** The user the request acts for (the sudo target when `sudo` is set). */
  user: ActingUser;
  /** The signed-in admin when acting for another user; null otherwise. */
  admin: ActingUser | null;
  /** The `sudo` query value as given, when set. */
  sudo: string | null;
  /** The browser's IANA time zone given at sign-in (for formatting times), when known. */
  timeZone: string | null;
}

declare module 'fastify' {
  interface FastifyRequest {
    auth: AuthContext | null;
    /** The session cookie's secret when it names a live session. */
    sessionSecret: string | null;
  }
}

export interface AuthPluginOptions {
  accounts: Pick<AccountsService, 'acting' | 'findSudoTarget'>;
  sessions: Pick<SessionService, 'resume'>;
  /** The app's own origins: the only ones a browser may send state-changing requests from. */
  origins: AppOrigins;
}

/** Secure cookies when the public URL is https (behind a TLS proxy), or the request itself came over TLS. */
export const cookieSecure = (request: FastifyRequest, origins: AppOrigins) =>
  origins.publicUrl ? origins.publicUrl.startsWith('https:') : request.protocol === 'https';

/**
 * Guards every /api request: refuses cross-site requests (CSRF: Origin and Sec-Fetch-Site must name
 * this app when a browser sends them), resolves the session cookie, and resolves `?sudo=` for admins.
 */
export const authPlugin = fp<AuthPluginOptions>(
  async (app: FastifyInstance, opts) => {
    app.decorateRequest('auth', null);
    app.decorateRequest('sessionSecret', null);

    app.addHook('onRequest', async (request) => {
      const origin = request.headers.origin;
      const site = request.headers['sec-fetch-site'];
      if (origin !== undefined && !originAllowed(opts.origins, origin)) {
        throw forbidden('Cross-origin request refused.', 'CrossOriginRefused');
      }
      if (site !== undefined && site !== 'same-origin' && site !== 'none') {
        throw forbidden('Cross-site request refused.', 'CrossOriginRefused');
      }
      const secret = request.cookies[SESSION_COOKIE];
      if (!secret || secret.length > 200) return;
      const found = await opts.sessions.resume(secret);
      if (!found) return;
      request.sessionSecret = secret;
      request.auth = {
        user: opts.accounts.acting(found.user),
        admin: null,
        sudo: null,
        timeZone: found.session.timeZone,
      };
    });

    // After validation, so only a well-formed `sudo` reaches here (routes declare it with SudoQuery).
    app.addHook('preHandler', async (request) => {
      const sudo = (request.query as { sudo?: unknown } | undefined)?.sudo;
      if (typeof sudo !== 'string' || sudo === '') return;
      if (!request.auth) throw unauthorized();
      const admin = request.auth.user;
      if (!admin.isAdmin) throw forbidden('Only admins may use sudo.', 'SudoForbidden');
      const target = await opts.accounts.findSudoTarget(sudo);
      if (!target) throw notFound(`No user "${sudo}".`, 'SudoUserNotFound');
      request.auth = { ...request.auth, user: opts.accounts.acting(target), admin, sudo };
      request.log.info(
        { adminId: admin.id, sudoUserId: target.id, method: request.method, url: redactUrl(request.url) },
        'sudo request',
      );
    });
  },
  { name: 'auth', dependencies: ['@fastify/cookie'] },
);

/** Route hook: 401 unless signed in. */
export async function requireUser(request: FastifyRequest): Promise<void> {
  if (!request.auth) throw unauthorized();
}

/** Route hook for calls that change another user's data (connect, disconnect): refused in sudo mode. */
export async function forbidSudo(request: FastifyRequest, _reply: FastifyReply): Promise<void> {
  if (request.auth?.sudo) throw forbidden('Not allowed in sudo mode (read-only).', 'SudoReadOnly');
}

/**
 * Route hook (preHandler, after sudo is resolved) for the admin's own pages (setup): 401 for a visitor,
 * 403 for a runner who is no admin and for any request in sudo mode (an admin acting as someone else).
 */
export async function requireAdmin(request: FastifyRequest): Promise<void> {
  if (!request.auth) throw unauthorized();
  if (request.auth.sudo)
    throw forbidden('Not in sudo mode: the setup page is the admin’s own.', 'SudoReadOnly');
  if (!request.auth.user.isAdmin) throw forbidden('Only an admin may do this.', 'AdminOnly');
}
