import type { ActionLimiter } from '../http/action-limits.ts';
import { randomUUID } from 'node:crypto';
import fastifyCookie from '@fastify/cookie';
import fastifyRateLimit from '@fastify/rate-limit';
import Fastify, { LogController, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import { API_BASE } from '@pacebeat/contract';
import { accountsRoutes, type AccountsRoutesOptions } from '../accounts/accounts.routes.ts';
import { choicesRoutes, type ChoicesRoutesOptions } from '../choices/choices.routes.ts';
import { apiDocs } from '../http/api-docs.ts';
import { authPlugin } from '../http/auth.plugin.ts';
import { addressKey } from '../http/client-address.ts';
import { contentSecurityPolicy } from './csp.ts';
import { AppError } from '../errors.ts';
import { localhostRedirect, requestHost, type AppOrigins } from '../http/origins.ts';
import { frameworkErrorReply, installErrorHandler } from '../http/error-handler.ts';
import { installInputGuard } from '../http/input-guard.ts';
import { healthRoutes, type HealthDeps } from '../http/health.routes.ts';
import { httpMetrics } from '../http/metrics.plugin.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { pingRoutes } from '../http/ping.routes.ts';
import { libraryRoutes, type LibraryRoutesOptions } from '../library/library.routes.ts';
import { playlistsRoutes, type PlaylistsRoutesOptions } from '../playlists/playlists.routes.ts';
import { runsRoutes, type RunsRoutesOptions } from '../runs/runs.routes.ts';
import { demoAccountsRoutes, type DemoAccountsRoutesOptions } from '../spotify/demo-accounts.routes.ts';
import { setupRoutes, type SetupRoutesOptions } from '../spotify/setup.routes.ts';
import { adminRoutes, type AdminRoutesOptions } from '../accounts/admin.routes.ts';
import { spotifyRoutes, type SpotifyRoutesOptions } from '../spotify/spotify.routes.ts';
import { tempoRoutes, type TempoRoutesOptions } from '../tempo/tempo.routes.ts';
import { webApp } from '../http/web.ts';
import { redactUrl } from '../log.ts';

export interface AppDeps extends HealthDeps {
  webDistDir: string;
  /** The app's own origins, decided once from the settings (`appOrigins(config)`). */
  origins: AppOrigins;
  /**
   * The Content-Security-Policy header (`contentSecurityPolicy(...)`), or how to build it per answer (the
   * Spotify accounts origin changes when an admin leaves demo mode); default: this origin only.
   */
  csp?: string | (() => Promise<string>);
  /** Sign-in, sessions and the user status (accounts module). */
  accounts: Omit<AccountsRoutesOptions, 'origins'>;
  /** Spotify connect and disconnect (spotify module). */
  spotify?: Omit<SpotifyRoutesOptions, 'origins'>;
  /** Tempo sources' credits for the footer (tempo module). */
  tempo?: TempoRoutesOptions;
  /** Prometheus metrics: every request is counted by route pattern and status (metrics/). */
  metrics?: Pick<Metrics, 'httpRequest'>;
  /** The Sources table and its switch (library module). */
  library?: LibraryRoutesOptions;
  /** The target playlists table (playlists module). */
  playlists?: PlaylistsRoutesOptions;
  /** A target's track lists, tempo corrections and exclusions (choices module). */
  choices?: ChoicesRoutesOptions;
  /** The runner's runs (workouts) and their builds (runs module). */
  runs?: RunsRoutesOptions;
  /** Each runner's limits on actions that cost Spotify calls (accounts module). */
  actionLimits?: ActionLimiter;
  /** The admin's setup page: connecting a real Spotify app. */
  setup?: SetupRoutesOptions;
  /** The admin page: who may sign up, invitations, the counts. */
  admin?: Omit<AdminRoutesOptions, 'linkOrigin'>;
  /** Demo mode: the simulated Spotify's consent page and token exchange on this origin (spotify/demo.ts). */
  demoAccounts?: DemoAccountsRoutesOptions;
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
    // One line per request, written below with secrets taken out of the URL.
    logController: new LogController({ disableRequestLogging: true }),
    // A path Fastify cannot decode (`/%zz`) is a 400 in the app's envelope, as every other refusal.
    frameworkErrors: frameworkErrorReply,
    ...opts,
  });
  app.decorate('actionLimits', deps.actionLimits ?? null);
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  installErrorHandler(app);
  installInputGuard(app);

  // The client's address, read while its connection is open: Node keeps it once read. Read later (a GET
  // with a body runs its hooks after the body came), a client that has reset the connection meanwhile
  // would have none (the per-address limits then threw, and an error-level line was written).
  app.addHook('onRequest', async (request) => {
    void request.ip;
  });
  await app.register(fastifyCookie);
  // Per client, with an IPv6 client counted by its /64 network (client-address.ts).
  await app.register(fastifyRateLimit, { global: false, keyGenerator: (req) => addressKey(req.ip) });
  const csp = deps.csp ?? contentSecurityPolicy();
  app.addHook('onSend', async (_request, reply) => {
    reply.header('Content-Security-Policy', typeof csp === 'string' ? csp : await csp());
    reply.header('X-Content-Type-Options', 'nosniff');
    reply.header('Referrer-Policy', 'same-origin');
    reply.header('X-Frame-Options', 'DENY');
  });

  // Every request but the health checks must be addressed to one of the app's own hosts (DNS rebinding,
  // forged Host headers). Supervisors and proxies probe /healthz and /readyz by any name.
  const hosts = new Set(deps.origins.allowedHosts);
  app.addHook('onRequest', async (request, reply) => {
    if (request.url === '/healthz' || request.url === '/readyz') return;
    const host = requestHost(request.protocol, request.host); // X-Forwarded-Host only with TRUST_PROXY
    if (!hosts.has(host)) {
      throw new AppError('HostNotAllowed', 421, `This server does not answer for ${host}.`);
    }
    // A page opened at `localhost` moves to 127.0.0.1 before anything else (sign-in included): Spotify
    // sends no one back to `localhost`, and a session cookie would not follow. API calls stay and answer.
    const isPage =
      (request.method === 'GET' || request.method === 'HEAD') &&
      request.url.startsWith('/') &&
      request.url !== API_BASE &&
      !request.url.startsWith(`${API_BASE}/`) &&
      !request.url.startsWith(`${API_BASE}?`);
    const to = isPage ? localhostRedirect(deps.origins, host, request.socket.localAddress) : undefined;
    if (to) return reply.header('Cache-Control', 'no-store').redirect(`${to}${request.url}`, 307);
  });

  app.addHook('onResponse', async (request, reply) => {
    const line = {
      method: request.method,
      url: redactUrl(request.url),
      status: reply.statusCode,
      ms: Math.round(reply.elapsedTime),
    };
    if (request.url === '/healthz' || request.url === '/readyz') request.log.debug(line, 'request');
    else request.log.info(line, 'request');
  });

  // Before the routes: it reads every route as it is added (OpenAPI at /api/openapi.json, /api/docs).
  await app.register(apiDocs);
  if (deps.metrics) await app.register(httpMetrics, { metrics: deps.metrics });
  await app.register(healthRoutes, deps);
  // The /api routes, each registered at its whole path from the contract's endpoint table (endpoint.ts).
  await app.register(async (api) => {
    // First: CSRF check, session and sudo resolution for every /api route registered after it.
    await api.register(authPlugin, {
      accounts: deps.accounts.accounts,
      sessions: deps.accounts.sessions,
      origins: deps.origins,
    });
    await api.register(accountsRoutes, { ...deps.accounts, origins: deps.origins });
    await api.register(pingRoutes);
    if (deps.spotify) await api.register(spotifyRoutes, { ...deps.spotify, origins: deps.origins });
    if (deps.library) await api.register(libraryRoutes, deps.library);
    if (deps.playlists) await api.register(playlistsRoutes, deps.playlists);
    if (deps.choices) await api.register(choicesRoutes, deps.choices);
    if (deps.runs) await api.register(runsRoutes, deps.runs);
    if (deps.tempo) await api.register(tempoRoutes, deps.tempo);
    if (deps.setup) await api.register(setupRoutes, deps.setup);
    if (deps.admin) await api.register(adminRoutes, { ...deps.admin, linkOrigin: deps.origins.linkOrigin });
  });
  if (deps.demoAccounts) await app.register(demoAccountsRoutes, deps.demoAccounts);
  await app.register(webApp, { distDir: deps.webDistDir });
  return app;
}
