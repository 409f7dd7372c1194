import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { API_BASE } from '@pacebeat/contract';
import { accountsRoutes, type AccountsRoutesOptions } from '../accounts/accounts.routes.ts';
import { authPlugin } from './auth.plugin.ts';
import { installErrorHandler } from './error-handler.ts';
import { healthRoutes, type HealthDeps } from './health.routes.ts';
import { pingRoutes } from './ping.routes.ts';
import { playlistsRoutes, type PlaylistsRoutesOptions } from '../playlists/playlists.routes.ts';
import { spotifyRoutes, type SpotifyRoutesOptions } from '../spotify/spotify.routes.ts';
import { tempoRoutes, type TempoRoutesOptions } from '../tempo/tempo.routes.ts';
import { webApp } from './web.ts';

export interface AppDeps extends HealthDeps {
  webDistDir: string;
  /** Sign-in, sessions and the user status (accounts module). */
  accounts: AccountsRoutesOptions;
  /** Spotify connect and disconnect (spotify module). */
  spotify?: SpotifyRoutesOptions;
  /** Tempo sources' credits for the footer (tempo module). */
  tempo?: TempoRoutesOptions;
  /** The target playlists table (playlists module). */
  playlists?: PlaylistsRoutesOptions;
}

/** Largest request body any /api route accepts; larger ones answer 413. */
export const BODY_LIMIT_BYTES = 64 * 1024;

/**
 * The HTTP app, composed in a fixed order: framework plugins, error handling, routes, the web app.
 * `main.ts` alone listens; tests call `buildApp` and `app.inject`.
 */
export async function buildApp(deps: AppDeps, opts: FastifyServerOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    bodyLimit: BODY_LIMIT_BYTES,
    genReqId: () => randomUUID(),
    requestIdHeader: false,
    trustProxy: false,
    ...opts,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);

  await app.register(fastifyCookie);
  await app.register(fastifyRateLimit, { global: false });
  app.addHook('onSend', async (_request, reply) => {
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'same-origin');
    reply.header('X-Frame-Options', 'DENY');
  });

  await app.register(healthRoutes, deps);
  await app.register(
    async (api) => {
      // First: CSRF check, session and sudo resolution for every /api route registered after it.
      await api.register(authPlugin, {
        accounts: deps.accounts.accounts,
        sessions: deps.accounts.sessions,
        publicUrl: deps.accounts.publicUrl,
      });
      await api.register(accountsRoutes, deps.accounts);
      await api.register(pingRoutes);
      if (deps.spotify) await api.register(spotifyRoutes, { ...deps.spotify, prefix: '/spotify' });
      if (deps.playlists) await api.register(playlistsRoutes, { ...deps.playlists, prefix: '/spotify' });
      if (deps.tempo) await api.register(tempoRoutes, { ...deps.tempo, prefix: '/tempo' });
    },
    { prefix: API_BASE },
  );
  await app.register(webApp, { distDir: deps.webDistDir });
  return app;
}
