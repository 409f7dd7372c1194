// The accounts service: /authorize (consent page), its decision, and /api/token.
import { randomBytes } from 'node:crypto';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { Ctx } from '../context.ts';
import { KNOWN_SCOPES, consentPage, errorPage } from './consent-page.ts';
import { OAuthError } from './tokens.ts';
import type { User } from '../world/library.ts';

interface PendingConsent {
  clientId: string;
  redirectUri: string;
  state?: string;
  challenge: string;
  scopes: string[];
  createdAt: number;
}

type Query = Record<string, string | undefined>;

/** Why a redirect URI is refused, or undefined when it is acceptable for the client. */
export function redirectUriProblem(ctx: Ctx, clientId: string, uri: string | undefined): string | undefined {
  if (!uri) return 'INVALID_CLIENT: Invalid redirect URI';
  let url: URL;
  try {
    url = new URL(uri);
  } catch {
    return 'INVALID_CLIENT: Invalid redirect URI';
  }
  const registered = ctx.config.redirectUris[clientId];
  if (registered && !registered.includes(uri)) return 'INVALID_CLIENT: Invalid redirect URI';
  if (url.hostname === 'localhost')
    return 'INVALID_CLIENT: Insecure redirect URI (localhost is not allowed; use http://127.0.0.1:PORT)';
  if (url.protocol === 'https:') return undefined;
  if (url.protocol === 'http:' && (url.hostname === '127.0.0.1' || url.hostname === '[::1]'))
    return undefined;
  return 'INVALID_CLIENT: Insecure redirect URI';
}

export function withParams(uri: string, params: Record<string, string | undefined>): string {
  const url = new URL(uri);
  for (const [k, v] of Object.entries(params)) if (v !== undefined) url.searchParams.set(k, v);
  return url.toString();
}

function isRegistered(ctx: Ctx, u: User, clientId: string): boolean {
  return ctx.config.extendedQuota || u.registeredFor === 'all' || u.registeredFor.has(clientId);
}

/** The user the consent page preselects: an explicit choice, else the first user without a grant for this app. */
export function defaultConsentUser(ctx: Ctx, clientId: string, hint?: string): User | undefined {
  const users = ctx.world.users.filter((u) => u.loginable);
  const chosen = hint ?? ctx.loginUser;
  if (chosen) {
    const u = ctx.world.user(chosen);
    if (u?.loginable) return u;
  }
  return (
    users.find((u) => isRegistered(ctx, u, clientId) && !ctx.tokens.hasGrant(u.id, clientId)) ?? users[0]
  );
}

export function registerAccountRoutes(app: FastifyInstance, ctx: Ctx): void {
  const pending = new Map<string, PendingConsent>();

  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
    done(null, Object.fromEntries(new URLSearchParams(body as string)));
  });

  app.get('/authorize', async (req, reply) => {
    const q = req.query as Query;
    const clientId = q['client_id'];
    if (!clientId || !ctx.config.clientIds.includes(clientId))
      return html(reply, 400, errorPage('INVALID_CLIENT: Invalid client'));
    const redirectUri = q['redirect_uri'];
    const problem = redirectUriProblem(ctx, clientId, redirectUri);
    if (problem || !redirectUri)
      return html(reply, 400, errorPage(problem ?? 'INVALID_CLIENT: Invalid redirect URI'));
    const state = q['state'];
    const fail = (error: string, description: string) =>
      reply.redirect(withParams(redirectUri, { error, error_description: description, state }), 302);
    if (q['response_type'] !== 'code') return fail('unsupported_response_type', 'response_type must be code');
    if (q['code_challenge_method'] !== 'S256')
      return fail('invalid_request', 'code_challenge_method must be S256');
    if (!q['code_challenge'] || !/^[A-Za-z0-9_-]{43}$/.test(q['code_challenge']))
      return fail('invalid_request', 'code_challenge must be a base64url SHA-256');
    const scopes = (q['scope'] ?? '').split(/[\s+]+/).filter((s) => s !== '');
    const bad = scopes.find((s) => !KNOWN_SCOPES.has(s));
    if (bad) return fail('invalid_scope', `Invalid scope: ${bad}`);
    const requestId = randomBytes(12).toString('base64url');
    pending.set(requestId, {
      clientId,
      redirectUri,
      challenge: q['code_challenge'],
      scopes,
      createdAt: ctx.clock.now(),
      ...(state !== undefined ? { state } : {}),
    });
    const selected = defaultConsentUser(ctx, clientId, q['sandbox_user']);
    return html(
      reply,
      200,
      consentPage({
        requestId,
        clientId,
        scopes,
        users: ctx.world.users.filter((u) => u.loginable),
        ...(selected ? { selected: selected.id } : {}),
        registered: (u) => isRegistered(ctx, u, clientId),
      }),
    );
  });

  app.post('/authorize/decision', async (req, reply) => {
    const b = (req.body ?? {}) as Query;
    const p = b['request_id'] ? pending.get(b['request_id']) : undefined;
    if (!p)
      return html(reply, 400, errorPage('This authorization request has expired. Start again from the app.'));
    pending.delete(b['request_id'] as string);
    if (b['action'] !== 'accept')
      return reply.redirect(withParams(p.redirectUri, { error: 'access_denied', state: p.state }), 302);
    const user = b['user'] ? ctx.world.user(b['user']) : undefined;
    if (!user?.loginable) return html(reply, 400, errorPage('Unknown user'));
    const code = ctx.tokens.issueCode({
      clientId: p.clientId,
      userId: user.id,
      redirectUri: p.redirectUri,
      challenge: p.challenge,
      scopes: p.scopes,
    });
    return reply.redirect(withParams(p.redirectUri, { code, state: p.state }), 302);
  });

  app.post('/api/token', async (req, reply) => {
    const ct = String(req.headers['content-type'] ?? '');
    const b = (ct.startsWith('application/x-www-form-urlencoded') ? (req.body ?? {}) : {}) as Query;
    let clientId = b['client_id'];
    const basic = /^Basic\s+(\S+)$/i.exec(req.headers.authorization ?? '');
    if (basic)
      clientId = Buffer.from(basic[1] as string, 'base64')
        .toString()
        .split(':')[0];
    try {
      if (!b['grant_type']) throw new OAuthError('unsupported_grant_type', 'grant_type parameter is missing');
      if (!clientId || !ctx.config.clientIds.includes(clientId))
        throw new OAuthError('invalid_client', 'Invalid client');
      req.notes.clientId = clientId;
      if (b['grant_type'] === 'authorization_code') {
        const answer = ctx.tokens.exchangeCode({
          code: b['code'],
          clientId,
          redirectUri: b['redirect_uri'],
          verifier: b['code_verifier'],
        });
        return reply.header('cache-control', 'no-store').send(answer);
      }
      if (b['grant_type'] === 'refresh_token') {
        if (!b['refresh_token']) throw new OAuthError('invalid_request', 'refresh_token must be supplied');
        return reply
          .header('cache-control', 'no-store')
          .send(ctx.tokens.refreshGrant({ refreshToken: b['refresh_token'], clientId }));
      }
      throw new OAuthError(
        'unsupported_grant_type',
        `grant_type must be authorization_code or refresh_token`,
      );
    } catch (err) {
      if (err instanceof OAuthError)
        return reply.code(err.status).send({ error: err.error, error_description: err.message });
      throw err;
    }
  });
}

function html(reply: FastifyReply, status: number, body: string) {
  return reply.code(status).type('text/html; charset=utf-8').send(body);
}
