// Builds the real HTTP app with the real accounts module on the shared test database.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import { WhoamiReply } from '@pacebeat/contract';
import {
  createAccountsModule,
  type AccountsModule,
  type AccountsSettings,
} from '../src/accounts/accounts.module.ts';
import type { FirebaseVerifier } from '../src/accounts/firebase.ts';
import type { ChangeFeed } from '../src/cache/change-feed.ts';
import { loadConfig, type Config } from '../src/app/config.ts';
import { appOrigins, type AppOrigins } from '../src/http/origins.ts';
import { buildApp, type AppDeps } from '../src/app/http-app.ts';
import type { UserServicesStatus } from '../src/accounts/accounts.routes.ts';
import type { SpotifyModule } from '../src/spotify/spotify.module.ts';
import { createAdminService } from '../src/accounts/admin.service.ts';
import type { DbHandle } from '../src/db/client.ts';
import { testDb } from './db.ts';

export interface TestAppOptions {
  env?: Record<string, string>;
  embedded?: boolean;
  firebase?: FirebaseVerifier;
  servicesStatus?: UserServicesStatus;
  /** Use the TRUST_PROXY setting (as main.ts does). */
  trustProxy?: boolean;
  /** The app's origins; default: `testOrigins(config)`. */
  origins?: AppOrigins;
  /** Log lines, for tests that read logged links or sudo records. */
  logLines?: Record<string, unknown>[];
  /** Prometheus metrics the app counts its requests in. */
  metrics?: AppDeps['metrics'];
  /** Cross-process invalidation: with it, sessions are cached as in main.ts. */
  changes?: ChangeFeed;
  /** See createAccountsModule. */
  sessionCacheMaxAgeMs?: number;
  /** A database of its own (a fresh one: the first admin, the sign-up mode); default: the shared one. */
  db?: DbHandle;
  /** Demo mode is in force (the default sign-up mode follows it); default: no SPOTIFY_CLIENT_ID. */
  demo?: () => Promise<boolean>;
}

export async function buildTestApp(o: TestAppOptions = {}) {
  const handle = o.db ?? testDb();
  const config = loadConfig(o.env ?? {});
  const settings: AccountsSettings = { ...config, embedded: o.embedded ?? false };
  const lines = o.logLines;
  const log = pino(
    { level: lines ? 'info' : 'silent' },
    { write: (line: string) => void lines?.push(JSON.parse(line) as Record<string, unknown>) },
  );
  const mod = createAccountsModule(handle.db, {
    settings: settings,
    log,
    firebase: o.firebase,
    changes: o.changes,
    sessionCacheMaxAgeMs: o.sessionCacheMaxAgeMs,
    demo: o.demo,
  });
  // The admin page, as compose.ts wires it (no Spotify here: no runner is connected).
  const admin = createAdminService({
    accounts: mod.accounts,
    users: mod.users,
    signups: mod.signups,
    policy: mod.policy,
    adminEmails: config.ADMIN_EMAILS,
    connectedRunners: async () => 0,
    demo: o.demo ?? (async () => !config.SPOTIFY_CLIENT_ID),
  });
  const app: FastifyInstance = await buildApp(
    {
      webDistDir: path.join(os.tmpdir(), 'pacebeat-no-web-build'),
      origins: o.origins ?? testOrigins(config),
      checkReady: async () => undefined,
      accounts: {
        accounts: mod.accounts,
        sessions: mod.sessions,
        servicesStatus: o.servicesStatus,
      },
      metrics: o.metrics,
      admin: { admin },
    },
    { loggerInstance: log, ...(o.trustProxy ? { trustProxy: config.TRUST_PROXY } : {}) },
  );
  return {
    app,
    handle,
    mod,
    async close() {
      await app.close();
      await mod.close();
      if (!o.db) await handle.close();
    },
  };
}

/**
 * The app's origins for `app.inject`, whose requests say `Host: localhost:80`: the server is taken to
 * listen on http://localhost (with PUBLIC_URL set, requests must name the public host). Its pages are
 * served there as they are (a real server sends them to 127.0.0.1: origins.test.ts).
 */
export const testOrigins = (config: Config) => ({
  ...appOrigins({ ...config, HOST: 'localhost', PORT: 80 }),
  localhostRedirects: {},
});

/** A unique email and a client address per test, so rate limits and accounts never collide. */
export const uniqueEmail = () => `u-${randomUUID()}@example.org`;
export const uniqueIp = () => `10.${rnd()}.${rnd()}.${rnd()}`;
const rnd = () => Math.floor(Math.random() * 254) + 1;

/** The session cookie of a reply, as a `cookie` header value. */
export function sessionCookie(res: { cookies: { name: string; value: string }[] }): string {
  const c = res.cookies.find((x) => x.name === 'pacebeat_session');
  if (!c) throw new Error('no session cookie set');
  return `pacebeat_session=${c.value}`;
}

/**
 * Marks an address verified, as following its verification link does (without SMTP nothing is verified,
 * and ADMIN_EMAILS makes only a verified address an admin: issue 33).
 */
export async function markEmailVerified(email: string): Promise<void> {
  const handle = testDb();
  try {
    await handle.pool.query('update users set email_verified_at = now() where email = $1', [email]);
  } finally {
    await handle.close();
  }
}

/**
 * A new local account signed up through the API, from an address of its own (the per-address signup limit
 * never bites): its session cookie, email and user id.
 */
export async function signUpThroughApi(
  app: FastifyInstance,
  o: { email?: string; timeZone?: string; verified?: boolean } = {},
): Promise<{ cookie: string; email: string; userId: string }> {
  const email = o.email ?? `r-${randomUUID()}@example.org`;
  const res = await app.inject({
    method: 'POST',
    url: '/api/signup',
    remoteAddress: uniqueIp(),
    payload: {
      email,
      name: 'Runner',
      password: 'run4fun!',
      ...(o.timeZone ? { time_zone: o.timeZone } : {}),
    },
  });
  if (res.statusCode !== 200) throw new Error(`signup answered ${res.statusCode}: ${res.body}`);
  const cookie = sessionCookie(res);
  if (o.verified) await markEmailVerified(email);
  const who = WhoamiReply.parse((await app.inject({ url: '/api/whoami', headers: { cookie } })).json());
  return { cookie, email, userId: who.data.user!.id };
}

/**
 * buildApp's deps for a test of the API with Spotify connected and no web build: always ready, the
 * accounts routes with the Spotify connect status, and the Spotify routes, wired as compose.ts wires them.
 * A test adds the parts it serves besides (setup, library, ...).
 */
export function spotifyTestAppDeps(
  accounts: Pick<AccountsModule, 'accounts' | 'sessions' | 'limits'>,
  spotify: Pick<SpotifyModule, 'connect'>,
  origins: AppOrigins,
) {
  return {
    webDistDir: path.join(os.tmpdir(), 'pacebeat-no-web-build'),
    origins,
    checkReady: async () => undefined,
    accounts: {
      accounts: accounts.accounts,
      sessions: accounts.sessions,
      servicesStatus: (userId: string) => spotify.connect.status(userId),
    },
    spotify: { spotify: spotify.connect, limits: accounts.limits },
  } satisfies Partial<AppDeps>;
}
