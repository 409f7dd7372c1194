import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { SPOTIFY_ERRORS } from '@pacebeat/contract';
import { forbidSudo, requireUser } from '../http/auth.plugin.ts';
import { endpoint } from '../http/endpoint.ts';
import { badRequest } from '../errors.ts';
import {
  originAllowed,
  requestHost,
  requestOrigin,
  spotifyRedirectProblem,
  type AppOrigins,
} from '../http/origins.ts';
import type { RateLimitService } from '../accounts/rate-limit.service.ts';
import type { SpotifyConnectService } from './connect.service.ts';

export interface SpotifyRoutesOptions {
  spotify: Pick<SpotifyConnectService, 'connectData' | 'connect' | 'disconnect'>;
  /** Connect attempts per user and address (each one costs a call from everyone's Spotify budget). */
  limits: Pick<RateLimitService, 'takeConnect'>;
  /** The app's origins: the redirect URI is the connect page at one of them (the page's own). */
  origins: AppOrigins;
}

/**
 * The Spotify calls of spec §7, under /api/spotify. Connect and disconnect are refused in sudo mode;
 * connect_data refuses an address Spotify would not send the runner back to.
 */
export async function spotifyRoutes(app: FastifyInstance, opts: SpotifyRoutesOptions) {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.route({
    ...endpoint('spotify.connectData'),
    onRequest: requireUser,
    handler: async (req) => {
      // The connect page's own URL, where Spotify sends the runner back: at the origin the page says it is
      // open at, else the one the request was addressed to. One Spotify refuses (localhost, plain http
      // elsewhere than 127.0.0.1) would end on Spotify's error page: refused here, saying what to open
      // instead, before the page starts the flow.
      const given = req.query.page_origin;
      const origin =
        given === undefined
          ? requestOrigin(opts.origins, req.protocol, requestHost(req.protocol, req.host))
          : parsedOrigin(given);
      if (!origin) throw badRequest('page_origin is not a web address.', SPOTIFY_ERRORS.redirectRefused);
      const problem = spotifyRedirectProblem(opts.origins, origin);
      if (problem) throw badRequest(problem, SPOTIFY_ERRORS.redirectRefused);
      if (!originAllowed(opts.origins, origin)) {
        throw badRequest(
          `Pacebeat does not answer at ${origin}: open ${opts.origins.linkOrigin}/connect/spotify instead (or add ${origin} to ALLOWED_ORIGINS).`,
          SPOTIFY_ERRORS.redirectRefused,
        );
      }
      return {
        data: { ...(await opts.spotify.connectData(origin)), redirect_uri: `${origin}/connect/spotify` },
      };
    },
  });

  r.route({
    ...endpoint('spotify.connect'),
    onRequest: requireUser,
    preHandler: forbidSudo,
    handler: async (req) => {
      await opts.limits.takeConnect(req.auth!.user.id, req.ip);
      const { display_name } = await opts.spotify.connect(req.auth!.user.id, req.body.token_info);
      return { data: { connected: true as const, display_name } };
    },
  });

  r.route({
    ...endpoint('spotify.disconnect'),
    onRequest: requireUser,
    preHandler: forbidSudo,
    handler: async (req) => {
      await opts.spotify.disconnect(req.auth!.user.id);
      return { data: { disconnected: true as const } };
    },
  });
}

/** `value`'s origin when it is an http(s) URL, else undefined. */
function parsedOrigin(value: string): string | undefined {
  try {
    const url = new URL(value);
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : undefined;
  } catch {
    return undefined;
  }
}
