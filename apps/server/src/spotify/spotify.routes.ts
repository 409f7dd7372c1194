import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  SpotifyConnectBody,
  SpotifyConnectDataReply,
  SpotifyConnectReply,
  SpotifyDisconnectReply,
  SudoQuery,
} from '@pacebeat/contract';
import { forbidSudo, requireUser } from '../http/auth.plugin.ts';
import type { RateLimitService } from '../accounts/rate-limit.service.ts';
import type { SpotifyConnectService } from './connect.service.ts';

export interface SpotifyRoutesOptions {
  spotify: Pick<SpotifyConnectService, 'connectData' | 'connect' | 'disconnect'>;
  /** Connect attempts per user and address (each one costs a call from everyone's Spotify budget). */
  limits: Pick<RateLimitService, 'takeConnect'>;
}

/** The Spotify calls of spec §7, under /api/spotify. Connect and disconnect are refused in sudo mode. */
export async function spotifyRoutes(app: FastifyInstance, opts: SpotifyRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/connect_data',
    {
      onRequest: requireUser,
      schema: { querystring: SudoQuery, response: { 200: SpotifyConnectDataReply } },
    },
    async () => ({ data: opts.spotify.connectData() }),
  );

  r.put(
    '/connect',
    {
      onRequest: requireUser,
      preHandler: forbidSudo,
      schema: { querystring: SudoQuery, body: SpotifyConnectBody, response: { 200: SpotifyConnectReply } },
    },
    async (req) => {
      await opts.limits.takeConnect(req.auth!.user.id, req.ip);
      const { display_name } = await opts.spotify.connect(req.auth!.user.id, req.body.token_info);
      return { data: { connected: true as const, display_name } };
    },
  );

  r.put(
    '/disconnect',
    {
      onRequest: requireUser,
      preHandler: forbidSudo,
      schema: { querystring: SudoQuery, response: { 200: SpotifyDisconnectReply } },
    },
    async (req) => {
      await opts.spotify.disconnect(req.auth!.user.id);
      return { data: { disconnected: true as const } };
    },
  );
}
