import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorReply, LoginDataReply, WhoamiReply } from '@pacebeat/contract';
import { buildTestApp, sessionCookie, uniqueEmail, uniqueIp } from '../../test/accounts-app.ts';
import { startAuthEmulator, type AuthEmulator } from '../../test/firebase-emulator.ts';

// The real Admin SDK against the real Firebase Auth emulator (firebase-tools), started here.
const PROJECT = 'demo-pacebeat-test';
const b64 = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

describe('accounts with the firebase provider (Auth emulator)', () => {
  let emu: AuthEmulator;
  let t: Awaited<ReturnType<typeof buildTestApp>>;
  beforeAll(async () => {
    emu = await startAuthEmulator(PROJECT);
    process.env.FIREBASE_AUTH_EMULATOR_HOST = emu.host; // read by the Admin SDK
    t = await buildTestApp({
      env: {
        FIREBASE_PROJECT_ID: PROJECT,
        FIREBASE_WEB_CONFIG: JSON.stringify({
          apiKey: 'fake-api-key',
          authDomain: `${PROJECT}.firebaseapp.com`,
          projectId: PROJECT,
        }),
        FIREBASE_AUTH_EMULATOR_HOST: emu.host,
      },
    });
  }, 240_000); // the emulator's start: up to 180 s on busy cores
  afterAll(async () => {
    await t?.close();
    await emu?.stop();
  });

  const login = (token: string) =>
    t.app.inject({
      method: 'POST',
      url: '/api/login',
      remoteAddress: uniqueIp(),
      payload: { provider: 'firebase', token },
    });

  /** A user made in the emulator and a fresh ID token for it. */
  async function emulatorUser(verified: boolean) {
    const email = uniqueEmail();
    const created = await emu.rest('identitytoolkit.googleapis.com/v1/accounts:signUp?key=fake-api-key', {
      email,
      password: 'tempo170',
      returnSecureToken: true,
    });
    if (verified) {
      await emu.rest(
        `identitytoolkit.googleapis.com/v1/projects/${PROJECT}/accounts:update`,
        { localId: created.localId, emailVerified: true },
        { admin: true },
      );
    }
    const signedIn = await emu.rest(
      'identitytoolkit.googleapis.com/v1/accounts:signInWithPassword?key=fake-api-key',
      {
        email,
        password: 'tempo170',
        returnSecureToken: true,
      },
    );
    return { email, localId: String(created.localId), token: String(signedIn.idToken) };
  }

  it('login_data answers the web config (and the emulator URL), and no local provider', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login_data',
      payload: { kinds: ['firebase', 'local'] },
    });
    const data = LoginDataReply.parse(res.json()).data;
    expect(data.firebase?.data.web_config.projectId).toBe(PROJECT);
    expect(data.firebase?.data.auth_emulator_url).toBe(`http://${emu.host}`);
    expect(data.local).toBeUndefined();
  });

  it('answers 401 ExRestApiAuthEmailNotVerified for an unverified email, and signs in once verified', async () => {
    const unverified = await emulatorUser(false);
    const res = await login(unverified.token);
    expect(res.statusCode).toBe(401);
    expect(ErrorReply.parse(res.json()).error_name).toBe('ExRestApiAuthEmailNotVerified');

    const { email, token } = await emulatorUser(true);
    const ok = await login(token);
    expect(ok.statusCode, ok.body).toBe(200);
    const me = WhoamiReply.parse(
      (await t.app.inject({ url: '/api/whoami', headers: { cookie: sessionCookie(ok) } })).json(),
    );
    expect(me.data.user?.email).toBe(email);
    const again = await login(token);
    expect(again.json()).toEqual(ok.json()); // the same user, not a second one
  });

  it('refuses expired, forged and malformed tokens with 401', async () => {
    const { token } = await emulatorUser(true);
    const [header, payload] = token.split('.') as [string, string];
    const claims = JSON.parse(Buffer.from(payload, 'base64url').toString()) as Record<string, unknown>;
    const now = Math.floor(Date.now() / 1000);
    const tokens = {
      expired: `${header}.${b64({ ...claims, iat: now - 7200, auth_time: now - 7200, exp: now - 3600 })}.`,
      otherProject: `${header}.${b64({ ...claims, aud: 'someone-else', iss: 'https://securetoken.google.com/someone-else' })}.`,
      forgedSignature: `${b64({ alg: 'RS256', kid: 'forged', typ: 'JWT' })}.${payload}.c2lnbmF0dXJl`,
      unknownUser: `${header}.${b64({ ...claims, sub: randomUUID(), user_id: randomUUID() })}.`,
      garbage: 'not-a-token',
    };
    for (const [name, bad] of Object.entries(tokens)) {
      const res = await login(bad);
      expect(res.statusCode, name).toBe(401);
      expect(ErrorReply.parse(res.json()).error_name, name).toBe('InvalidToken');
      expect(
        res.cookies.find((c) => c.name === 'pacebeat_session'),
        name,
      ).toBeUndefined();
    }
  });

  it('turns local password sign-in off', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/login',
      payload: { provider: 'local', email: uniqueEmail(), password: 'abc123' },
    });
    expect(res.statusCode).toBe(400);
    expect(ErrorReply.parse(res.json()).error_name).toBe('ProviderDisabled');
  });
});
