import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { DisabledService } from '@pacebeat/contract';
import type { AccountsService } from './accounts.service.ts';
import type { SessionService } from './session.service.ts';
import { cookieSecure, SESSION_COOKIE } from '../http/auth.plugin.ts';
import { forbidden } from '../errors.ts';
import { endpoint } from '../http/endpoint.ts';
import type { AppOrigins } from '../http/origins.ts';

/** What the status reply says about a user's music services; filled in by the music-service module. */
export type UserServicesStatus = (userId: string) => Promise<{
  services: Record<string, { connected: boolean }>;
  disabled_services: DisabledService[];
}>;

export interface AccountsRoutesOptions {
  accounts: AccountsService;
  sessions: SessionService;
  /** Set by the app: links in mails point to `origins.linkOrigin`, never to a request's Host. */
  origins: AppOrigins;
  servicesStatus?: UserServicesStatus;
}

const ok = { data: { ok: true as const } };

/** The accounts calls of spec §7 (login_data, login, whoami, logout) and the local-account extras. */
export async function accountsRoutes(app: FastifyInstance, opts: AccountsRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const { accounts, sessions } = opts;
  const linkOrigin = opts.origins.linkOrigin;

  /** Rotates the session: the old one (if any) ends, a new secret is set. */
  async function startSession(req: FastifyRequest, reply: FastifyReply, userId: string, timeZone?: string) {
    if (req.sessionSecret) await sessions.end(req.sessionSecret);
    const secret = await sessions.start(userId, timeZone ?? null);
    reply.setCookie(SESSION_COOKIE, secret, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: cookieSecure(req, opts.origins),
      maxAge: sessions.absoluteSeconds,
    });
  }

  r.route({
    ...endpoint('loginData'),
    handler: async (req) => accounts.loginData(req.body.kinds, req.body.invitation),
  });

  r.route({
    ...endpoint('signup'),
    handler: async (req, reply) => {
      const { user, signedIn } = await accounts.signUp(req.body, req.ip, linkOrigin);
      if (signedIn) await startSession(req, reply, user.id, req.body.time_zone);
      return { data: { signed_in: signedIn } };
    },
  });

  r.route({
    ...endpoint('login'),
    handler: async (req, reply) => {
      const user = await accounts.logIn(req.body, req.ip);
      await startSession(req, reply, user.id, req.body.time_zone);
      return { data: { user_id: user.id } };
    },
  });

  r.route({
    ...endpoint('whoami'),
    handler: async (req) => {
      const auth = req.auth;
      if (!auth) {
        return {
          data: { authenticated: false, user: null, services: {}, disabled_services: [], sudo: null },
        };
      }
      const status = (await opts.servicesStatus?.(auth.user.id)) ?? { services: {}, disabled_services: [] };
      return {
        data: {
          authenticated: true,
          user: {
            id: auth.user.id,
            email: auth.user.email,
            name: auth.user.name,
            is_admin: auth.user.isAdmin,
          },
          ...status,
          sudo: auth.sudo,
        },
      };
    },
  });

  /** Ends the session. POST is the real call; GET (spec §7) is kept for same-origin pages only. */
  async function logout(req: FastifyRequest, reply: FastifyReply) {
    if (req.sessionSecret) await sessions.end(req.sessionSecret);
    reply.clearCookie(SESSION_COOKIE, {
      path: '/',
      httpOnly: true,
      sameSite: 'lax',
      secure: cookieSecure(req, opts.origins),
    });
    return ok;
  }
  r.route({ ...endpoint('logout'), handler: logout });
  r.route({
    ...endpoint('logout.get'),
    // A GET that changes state: only from this app's own pages (or typed in the address bar), which
    // browsers prove with fetch metadata. A cross-site <img> from an old browser sends none: refused.
    onRequest: async (req) => {
      const site = req.headers['sec-fetch-site'];
      if (site !== 'same-origin' && site !== 'none') {
        throw forbidden('Log out with POST /api/logout.', 'CrossOriginRefused');
      }
    },
    handler: logout,
  });

  r.route({
    ...endpoint('sendVerification'),
    handler: async (req) => {
      await accounts.sendVerification(req.body.email, req.body.password, req.ip, linkOrigin);
      return ok;
    },
  });

  r.route({
    ...endpoint('verifyEmail'),
    handler: async (req) => {
      await accounts.verifyEmail(req.body.code);
      return ok;
    },
  });

  r.route({
    ...endpoint('passwordReset'),
    handler: async (req) => {
      await accounts.requestPasswordReset(req.body.email, req.ip, linkOrigin);
      return ok;
    },
  });

  r.route({
    ...endpoint('passwordReset.confirm'),
    handler: async (req) => {
      await accounts.confirmPasswordReset(req.body.code, req.body.password);
      return ok;
    },
  });
}
