// Spotify's accounts state: authorization codes (PKCE, S256), grants, access tokens and refresh tokens
// with rotation, expiry and revocation.
import { createHash, randomBytes } from 'node:crypto';
import type { SandboxConfig } from '../config.ts';
import type { Clock } from '../limits/clock.ts';
import { unit } from '../world/rng.ts';

export interface Grant {
  id: number;
  clientId: string;
  userId: string;
  scopes: string[];
  /** When the user authorised (refresh tokens expire relative to this). */
  authorisedAt: number;
  revoked: boolean;
}

interface AuthCode {
  clientId: string;
  userId: string;
  redirectUri: string;
  challenge: string;
  scopes: string[];
  expiresAt: number;
  used: boolean;
}

interface AccessToken {
  grant: Grant;
  expiresAt: number;
}

interface RefreshToken {
  grant: Grant;
  retired: boolean;
}

export interface TokenAnswer {
  access_token: string;
  token_type: 'Bearer';
  scope: string;
  expires_in: number;
  refresh_token?: string;
}

export class OAuthError extends Error {
  readonly error: string;
  readonly status: number;

  constructor(error: string, description: string, status = 400) {
    super(description);
    this.error = error;
    this.status = status;
  }
}

export type Authenticated = { ok: true; grant: Grant } | { ok: false; message: string };

const token = (prefix: string, bytes: number): string => prefix + randomBytes(bytes).toString('base64url');

export function s256(verifier: string): string {
  return createHash('sha256').update(verifier).digest('base64url');
}

export class TokenStore {
  private codes = new Map<string, AuthCode>();
  private access = new Map<string, AccessToken>();
  private refresh = new Map<string, RefreshToken>();
  grants: Grant[] = [];
  private refreshCount = 0;
  private readonly config: () => SandboxConfig;
  private readonly clock: Clock;
  private readonly seed: number;

  constructor(config: () => SandboxConfig, clock: Clock, seed: number) {
    this.config = config;
    this.clock = clock;
    this.seed = seed;
  }

  clear(): void {
    this.codes.clear();
    this.access.clear();
    this.refresh.clear();
    this.grants = [];
    this.refreshCount = 0;
  }

  issueCode(c: Omit<AuthCode, 'expiresAt' | 'used'>): string {
    const code = token('AQ', 48);
    this.codes.set(code, { ...c, expiresAt: this.clock.now() + 10 * 60_000, used: false });
    return code;
  }

  exchangeCode(p: {
    code?: string;
    clientId?: string;
    redirectUri?: string;
    verifier?: string;
  }): TokenAnswer {
    const code = p.code ? this.codes.get(p.code) : undefined;
    if (!code || code.used || code.expiresAt < this.clock.now())
      throw new OAuthError('invalid_grant', 'Invalid authorization code');
    if (!p.clientId || p.clientId !== code.clientId) throw new OAuthError('invalid_client', 'Invalid client');
    if (p.redirectUri !== code.redirectUri) throw new OAuthError('invalid_grant', 'Invalid redirect URI');
    if (!p.verifier) throw new OAuthError('invalid_request', 'code_verifier required');
    if (s256(p.verifier) !== code.challenge)
      throw new OAuthError('invalid_grant', 'code_verifier was incorrect');
    code.used = true;
    const grant: Grant = {
      id: this.grants.length + 1,
      clientId: code.clientId,
      userId: code.userId,
      scopes: code.scopes,
      authorisedAt: this.clock.now(),
      revoked: false,
    };
    this.grants.push(grant);
    return this.answer(grant, true);
  }

  refreshGrant(p: { refreshToken?: string; clientId?: string }): TokenAnswer {
    const rt = p.refreshToken ? this.refresh.get(p.refreshToken) : undefined;
    if (!rt) throw new OAuthError('invalid_grant', 'Invalid refresh token');
    if (p.clientId && p.clientId !== rt.grant.clientId)
      throw new OAuthError('invalid_client', 'Invalid client');
    if (rt.grant.revoked) throw new OAuthError('invalid_grant', 'Refresh token revoked');
    if (rt.retired) {
      // A rotated refresh token used again: treat as stolen and revoke the whole grant.
      rt.grant.revoked = true;
      throw new OAuthError('invalid_grant', 'Refresh token revoked');
    }
    if (this.clock.now() > rt.grant.authorisedAt + this.config().refreshTokenTtlSeconds * 1000)
      throw new OAuthError('invalid_grant', 'Refresh token expired');
    const mode = this.config().rotateRefreshTokens;
    const rotate =
      mode === 'always' || (mode === 'sometimes' && unit(this.seed, 'rotate', this.refreshCount++) < 0.5);
    if (rotate) rt.retired = true;
    return this.answer(rt.grant, rotate);
  }

  private answer(grant: Grant, withRefresh: boolean): TokenAnswer {
    const ttl = this.config().accessTokenTtlSeconds;
    const at = token('BQ', 96);
    this.access.set(at, { grant, expiresAt: this.clock.now() + ttl * 1000 });
    const out: TokenAnswer = {
      access_token: at,
      token_type: 'Bearer',
      scope: grant.scopes.join(' '),
      expires_in: ttl,
    };
    if (withRefresh) {
      const rt = token('AQ', 96);
      this.refresh.set(rt, { grant, retired: false });
      out.refresh_token = rt;
    }
    return out;
  }

  authenticate(header: string | undefined): Authenticated {
    if (!header) return { ok: false, message: 'No token provided' };
    const m = /^Bearer\s+(\S+)$/i.exec(header);
    if (!m) return { ok: false, message: 'Only valid bearer authentication supported' };
    const at = this.access.get(m[1] as string);
    if (!at || at.grant.revoked) return { ok: false, message: 'Invalid access token' };
    if (at.expiresAt <= this.clock.now()) return { ok: false, message: 'The access token expired' };
    return { ok: true, grant: at.grant };
  }

  /** Revokes grants (the user removed the app's access): matching access and refresh tokens stop working. */
  /**
   * Ages the matching grants past the refresh-token lifetime, as if the user had authorised long ago: the
   * next refresh answers `Refresh token expired`; access tokens already issued live out their hour.
   */
  expire(filter: { userId?: string; clientId?: string }): number {
    let n = 0;
    const ttlMs = this.config().refreshTokenTtlSeconds * 1000;
    for (const g of this.grants) {
      if (g.revoked) continue;
      if (filter.userId && g.userId !== filter.userId) continue;
      if (filter.clientId && g.clientId !== filter.clientId) continue;
      g.authorisedAt = Math.min(g.authorisedAt, this.clock.now() - ttlMs - 1000);
      n++;
    }
    return n;
  }

  revoke(filter: { userId?: string; clientId?: string; accessToken?: string }): number {
    let n = 0;
    const target = filter.accessToken ? this.access.get(filter.accessToken)?.grant : undefined;
    for (const g of this.grants) {
      if (g.revoked) continue;
      if (target && g !== target) continue;
      if (filter.userId && g.userId !== filter.userId) continue;
      if (filter.clientId && g.clientId !== filter.clientId) continue;
      if (!target && filter.accessToken) continue;
      g.revoked = true;
      n++;
    }
    return n;
  }

  /** Whether the user has a live grant for the client (the consent page prefers users without one). */
  hasGrant(userId: string, clientId: string): boolean {
    return this.grants.some((g) => !g.revoked && g.userId === userId && g.clientId === clientId);
  }
}
