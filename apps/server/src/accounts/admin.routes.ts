import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { requireAdmin, requireUser } from '../http/auth.plugin.ts';
import { endpoint } from '../http/endpoint.ts';
import type { AdminService } from './admin.service.ts';

export interface AdminRoutesOptions {
  admin: AdminService;
  /** Where invitation links point (PUBLIC_URL, else the address the server listens on), never a request's Host. */
  linkOrigin: string;
}

const ok = { data: { ok: true as const } };

/**
 * The admin page, /api/admin/signup and /api/admin/invitations (the endpoint table's `admin.*`):
 * admins only, never in sudo mode (`requireAdmin`; a visitor gets 401 first); CSRF as every /api route.
 */
export async function adminRoutes(app: FastifyInstance, opts: AdminRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = { onRequest: requireUser, preHandler: requireAdmin };

  r.route({
    ...endpoint('admin.signup'),
    ...admin,
    handler: async () => ({ data: await opts.admin.state() }),
  });

  r.route({
    ...endpoint('admin.setSignupMode'),
    ...admin,
    handler: async (req) => {
      const data = await opts.admin.setMode(req.auth!.user.id, req.body.mode);
      req.log.info({ adminId: req.auth!.user.id, mode: req.body.mode }, 'sign-up mode set');
      return { data };
    },
  });

  r.route({
    ...endpoint('admin.invite'),
    ...admin,
    handler: async (req) => ({
      data: await opts.admin.invite(req.auth!.user.id, req.body.email ?? null, opts.linkOrigin),
    }),
  });

  r.route({
    ...endpoint('admin.revokeInvitation'),
    ...admin,
    handler: async (req) => {
      await opts.admin.revokeInvitation(req.params.id);
      return ok;
    },
  });
}
