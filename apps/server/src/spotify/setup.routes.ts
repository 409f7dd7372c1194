import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  SetupAccountCheckBody,
  SetupAccountCheckReply,
  SetupRedirectChecksBody,
  SetupRedirectChecksReply,
  SpotifyAppBody,
  SpotifyAppSetupReply,
  SudoQuery,
} from '@pacebeat/contract';
import { requireAdmin, requireUser } from '../http/auth.plugin.ts';
import type { SetupService } from './setup.service.ts';

export interface SetupRoutesOptions {
  setup: Pick<SetupService, 'state' | 'save' | 'checkRedirects' | 'checkAccount'>;
}

/**
 * The admin's setup page (issue 26), under /api/admin/spotify_app: admins only, never in sudo mode
 * (`requireAdmin`, after the sudo hook; a visitor gets 401 first); CSRF as every /api route (auth plugin).
 */
export async function setupRoutes(app: FastifyInstance, opts: SetupRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const admin = { onRequest: requireUser, preHandler: requireAdmin };

  r.get(
    '/spotify_app',
    { ...admin, schema: { querystring: SudoQuery, response: { 200: SpotifyAppSetupReply } } },
    async () => ({ data: await opts.setup.state() }),
  );

  r.put(
    '/spotify_app',
    {
      ...admin,
      schema: { querystring: SudoQuery, body: SpotifyAppBody, response: { 200: SpotifyAppSetupReply } },
    },
    async (req) => ({
      data: await opts.setup.save(req.auth!.user.id, req.body.client_id, req.body.confirm === true),
    }),
  );

  r.post(
    '/spotify_app/check_redirects',
    {
      ...admin,
      schema: {
        querystring: SudoQuery,
        body: SetupRedirectChecksBody,
        response: { 200: SetupRedirectChecksReply },
      },
    },
    async () => ({ data: { checks: await opts.setup.checkRedirects() } }),
  );

  r.post(
    '/spotify_app/check_account',
    {
      ...admin,
      schema: {
        querystring: SudoQuery,
        body: SetupAccountCheckBody,
        response: { 200: SetupAccountCheckReply },
      },
    },
    async (req) => ({ data: await opts.setup.checkAccount(req.auth!.user.id, req.body) }),
  );
}
