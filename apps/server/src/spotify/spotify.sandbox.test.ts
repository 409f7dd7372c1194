// The Spotify client, tokens and connect service against the simulated Spotify (in-process sandbox)
// on the real test PostgreSQL. Separate Spotify modules stand for separate processes.
import { randomUUID } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { spotifyAccounts } from '../db/spotify.schema.ts';
import {
  DISABLED_REASONS,
  SpotifyAccountDisabledError,
  SpotifyCapabilityMissingError,
  SpotifyDeferredError,
} from './errors.ts';
import { CONNECT_WAIT_MAX_MS } from './connect.service.ts';
import { startHarness, type Harness } from './sandbox-harness.test-helper.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());
beforeEach(() => {
  h.sandbox.admin.setConfig({ accessTokenTtlSeconds: 3600, rotateRefreshTokens: 'always', faults: [] });
  h.sleeps.length = 0;
});

/** A new Pacebeat user connected (through the service) to a new simulated Spotify user. */
async function connected(p = h.process()) {
  const userId = await h.newUser();
  const spotifyUser = h.sandbox.admin.createUser({ username: `u${randomUUID().slice(0, 8)}` });
  const tokenInfo = h.sandbox.admin.connect({ userId: spotifyUser.id });
  await p.connect.connect(userId, { ...tokenInfo, refresh_token: tokenInfo.refresh_token! });
  return { userId, spotifyUser, tokenInfo, p };
}

const row = async (userId: string) =>
  (await h.db.db.select().from(spotifyAccounts).where(eq(spotifyAccounts.userId, userId)))[0];
const ctx = (userId: string) => ({ userId, purpose: 'test', priority: 'interactive' as const });
const tokenCalls = (p: ReturnType<Harness['process']>, userId: string) =>
  p.budget
    .ledger({ userKey: userId })
    .then((l) => l.find((e) => e.endpoint === 'POST /api/token')?.calls ?? 0);

describe('connect', () => {
  it('links by account_id, keeps scopes, and stores tokens only encrypted', async () => {
    const { userId, spotifyUser, tokenInfo } = await connected();
    const r = (await row(userId))!;
    expect(r.accountId).toBe(spotifyUser.accountId);
    expect(r.spotifyUserId).toBe(spotifyUser.id);
    expect(r.scopes.split(' ')).toContain('playlist-modify-private');
    expect(JSON.stringify(r)).not.toContain(tokenInfo.refresh_token);
    expect(JSON.stringify(r)).not.toContain(tokenInfo.access_token);
    expect(r.refreshTokenEnc.startsWith('v1.')).toBe(true);
  });

  it('refuses a second Pacebeat user claiming the same Spotify account, storing nothing', async () => {
    const { spotifyUser, p } = await connected();
    const other = await h.newUser();
    const again = h.sandbox.admin.connect({ userId: spotifyUser.id });
    await expect(
      p.connect.connect(other, { ...again, refresh_token: again.refresh_token! }),
    ).rejects.toMatchObject({
      statusCode: 409,
      code: 'SpotifyAccountTaken',
    });
    expect(await row(other)).toBeUndefined();
    // A user whose own account is linked keeps it when their claim of someone else's is refused.
    const third = await connected(p);
    await p.api(ctx(third.userId)).me();
    const claim = h.sandbox.admin.connect({ userId: spotifyUser.id });
    await expect(
      p.connect.connect(third.userId, { ...claim, refresh_token: claim.refresh_token! }),
    ).rejects.toMatchObject({ statusCode: 409 });
    expect((await row(third.userId))!.accountId).toBe(third.spotifyUser.accountId);
    expect(await p.budget.ledger({ userKey: third.userId })).not.toEqual([]); // its music data is kept
  });

  it('answers 400 for a token Spotify does not accept, storing nothing', async () => {
    const p = h.process();
    const userId = await h.newUser();
    const bad = {
      access_token: 'BQnot-a-token',
      token_type: 'Bearer',
      scope: h.sandbox.admin.connect({ userId: 'ana.runs' }).scope,
      expires_in: 3600,
      refresh_token: 'AQx',
    };
    await expect(p.connect.connect(userId, bad)).rejects.toMatchObject({
      statusCode: 400,
      code: 'SpotifyTokenRejected',
    });
    expect(await row(userId)).toBeUndefined();
  });

  it('connecting another Spotify account replaces the old one and drops its music data', async () => {
    const gone: string[] = [];
    const p = h.process({ onMusicAccountGone: [async (userId) => void gone.push(userId)] });
    const { userId } = await connected(p);
    await p.api(ctx(userId)).me();
    const other = h.sandbox.admin.createUser({ username: `u${randomUUID().slice(0, 8)}` });
    const tokens = h.sandbox.admin.connect({ userId: other.id });
    const spent = await p.budget.ledger({ userKey: userId });
    await p.connect.connect(userId, { ...tokens, refresh_token: tokens.refresh_token! });
    expect((await row(userId))!.accountId).toBe(other.accountId);
    expect(gone).toEqual([userId]);
    // Today's calls stay counted for the user (a new account does not reset their share).
    const after = await p.budget.ledger({ userKey: userId });
    expect(after.find((r) => r.endpoint === 'GET /me' && r.purpose === 'test')).toEqual(
      spent.find((r) => r.endpoint === 'GET /me' && r.purpose === 'test'),
    );
    // Connecting the same account again is not a replacement.
    const same = h.sandbox.admin.connect({ userId: other.id });
    await p.connect.connect(userId, { ...same, refresh_token: same.refresh_token! });
    expect(gone).toEqual([userId]);
  });

  it('a connect that finds Spotify’s rate window full waits for a free call and succeeds', async () => {
    const budgetKey = `test-${randomUUID()}`;
    const waits: number[] = [];
    const p = h.process({
      settings: { SPOTIFY_RATE_PER_30S: 4 },
      budgetKey,
      sleep: async (ms) => {
        waits.push(ms);
        await new Promise((r) => setTimeout(r, ms));
      },
    });
    // Four calls 27 s ago fill the window for about 3 s more.
    await h.db.db.execute(sql`
      insert into spotify_call_slots (budget, at, priority, user_key)
      select ${budgetKey}, clock_timestamp() - interval '27 seconds', 1, 'someone'
      from generate_series(1, 4)`);
    const { userId, spotifyUser } = await connected(p);
    expect((await row(userId))?.spotifyUserId).toBe(spotifyUser.id);
    expect(waits.length).toBeGreaterThan(0);
    expect(waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(CONNECT_WAIT_MAX_MS);
  });

  it('a connect answers at once when the wait is longer than a runner should wait', async () => {
    const budgetKey = `test-${randomUUID()}`;
    const p = h.process({ settings: { SPOTIFY_RATE_PER_30S: 4 }, budgetKey });
    await h.db.db.execute(sql`
      insert into spotify_call_slots (budget, at, priority, user_key)
      select ${budgetKey}, clock_timestamp(), 1, 'someone' from generate_series(1, 4)`);
    await expect(connected(p)).rejects.toMatchObject({ statusCode: 503, code: 'SpotifyBusy' });
  });

  it('disconnect deletes the account and its tokens; what the user spent today stays counted', async () => {
    const { userId, p } = await connected();
    await p.api(ctx(userId)).me();
    const spent = await p.budget.ledger({ userKey: userId });
    expect(spent.length).toBeGreaterThan(0);
    await p.connect.disconnect(userId);
    expect(await row(userId)).toBeUndefined();
    expect(await p.budget.ledger({ userKey: userId })).toEqual(spent);
    expect((await p.connect.status(userId)).services['spotify']?.connected).toBe(false);
  });
});

describe('tokens', () => {
  it('refreshes before expiry and stores a rotated refresh token', async () => {
    h.sandbox.admin.setConfig({ accessTokenTtlSeconds: 60, rotateRefreshTokens: 'always' });
    const { userId, p } = await connected();
    const before = (await row(userId))!.refreshTokenEnc;
    await p.api(ctx(userId)).me(); // 60 s left: under the margin, so it refreshes
    const after = (await row(userId))!.refreshTokenEnc;
    expect(after).not.toBe(before);
    // A second refresh works only if the rotated token was kept (the sandbox revokes a reused one).
    const fresh = h.process();
    await fresh.api(ctx(userId)).me();
    expect(await tokenCalls(p, userId)).toBe(2);
    expect((await row(userId))!.disabledReason).toBeNull();
  });

  it('keeps the refresh token when none comes back', async () => {
    h.sandbox.admin.setConfig({ accessTokenTtlSeconds: 60, rotateRefreshTokens: 'never' });
    const { userId, p } = await connected();
    const before = (await row(userId))!.refreshTokenEnc;
    await p.api(ctx(userId)).me();
    await h.process().api(ctx(userId)).me();
    expect((await row(userId))!.refreshTokenEnc).toBe(before);
    expect(await tokenCalls(p, userId)).toBe(2);
  });

  it('two processes needing a refresh for the same user at once make one refresh', async () => {
    h.sandbox.admin.setConfig({ accessTokenTtlSeconds: 3600, rotateRefreshTokens: 'always' });
    const { userId, p } = await connected();
    // Make the stored access token stale for everyone.
    await h.db.db
      .update(spotifyAccounts)
      .set({ accessExpiresAt: new Date(0) })
      .where(eq(spotifyAccounts.userId, userId));
    // A slow token endpoint, so both refreshes would be in flight together without the lock.
    h.sandbox.admin.setConfig({
      faults: [{ kind: 'slow', delayMs: 300, service: 'spotify-accounts', path: '/api/token' }],
    });
    const a = h.process();
    const b = h.process();
    const results = await Promise.all([
      a.api(ctx(userId)).me(),
      b.api(ctx(userId)).me(),
      a.api(ctx(userId)).me(),
    ]);
    expect(results.map((m) => m.id)).toEqual(Array(3).fill(results[0]!.id));
    expect(await tokenCalls(p, userId)).toBe(1);
  });

  it('a 401 leads to one refresh and one retry', async () => {
    const { userId, p } = await connected();
    // The access token stops working (expired early), but the grant lives.
    h.sandbox.admin.setConfig({
      faults: [{ kind: 'status', status: 401, service: 'spotify-api', path: '/me', times: 1 }],
    });
    const me = await p.api(ctx(userId)).me();
    expect(me.id).toBeTruthy();
    expect(await tokenCalls(p, userId)).toBe(1);
  });

  it('revocation (invalid_grant) disables the service with a reason; reconnecting clears it', async () => {
    const { userId, spotifyUser, p } = await connected();
    h.sandbox.admin.revokeTokens({ userId: spotifyUser.id });
    await expect(p.api(ctx(userId)).me()).rejects.toBeInstanceOf(SpotifyAccountDisabledError);
    const status = await p.connect.status(userId);
    expect(status.disabled_services).toEqual([{ service: 'spotify', reason: DISABLED_REASONS.revoked }]);
    expect(status.services['spotify']?.connected).toBe(true);
    // Disabled: no further calls are even tried.
    await expect(p.api(ctx(userId)).me()).rejects.toBeInstanceOf(SpotifyAccountDisabledError);
    expect(await tokenCalls(p, userId)).toBe(1);
    const again = h.sandbox.admin.connect({ userId: spotifyUser.id });
    await p.connect.connect(userId, { ...again, refresh_token: again.refresh_token! });
    expect((await p.connect.status(userId)).disabled_services).toEqual([]);
    expect((await p.api(ctx(userId)).me()).id).toBe(spotifyUser.id);
  });

  it('the app owner without Premium (403) disables the service with that reason', async () => {
    const { userId, p } = await connected();
    h.sandbox.admin.setConfig({ ownerHasPremium: false });
    try {
      await expect(p.api(ctx(userId)).me()).rejects.toBeInstanceOf(SpotifyAccountDisabledError);
    } finally {
      h.sandbox.admin.setConfig({ ownerHasPremium: true });
    }
    expect((await p.connect.status(userId)).disabled_services[0]?.reason).toBe(
      DISABLED_REASONS.premiumLapsed,
    );
  });

  it('a user not on the app’s user list (403) disables the service', async () => {
    const { userId, spotifyUser, p } = await connected();
    h.sandbox.admin.setRegistered(spotifyUser.id, false);
    await expect(p.api(ctx(userId)).me()).rejects.toBeInstanceOf(SpotifyAccountDisabledError);
    expect((await p.connect.status(userId)).disabled_services[0]?.reason).toBe(
      DISABLED_REASONS.notRegistered,
    );
  });
});

describe('limits and failures', () => {
  it('429 with Retry-After: every process pauses until it ends, and nothing is retried in-process', async () => {
    const key = `k-${randomUUID()}`;
    const a = h.process({ budgetKey: key });
    const { userId } = await connected(a);
    h.sandbox.admin.setConfig({
      faults: [
        { kind: 'status', status: 429, retryAfterSeconds: 7, service: 'spotify-api', path: '/me', times: 1 },
      ],
    });
    const err = await a
      .api(ctx(userId))
      .me()
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpotifyDeferredError);
    expect((err as SpotifyDeferredError).reason).toBe('rate');
    const waitMs = (err as SpotifyDeferredError).retryAt.getTime() - Date.now();
    expect(waitMs).toBeGreaterThan(5_000);
    expect(waitMs).toBeLessThanOrEqual(7_000);
    const b = h.process({ budgetKey: key });
    const before = h.sandbox.admin.requests({ service: 'spotify-api' }).length;
    await expect(b.api(ctx(userId)).me()).rejects.toBeInstanceOf(SpotifyDeferredError);
    expect(h.sandbox.admin.requests({ service: 'spotify-api' }).length).toBe(before);
    expect(h.sleeps).toEqual([]);
  });

  it('after a 429 the client keeps to the rate Spotify allowed, not the higher setting', async () => {
    const key = `k-${randomUUID()}`;
    const p = h.process({ budgetKey: key, settings: { SPOTIFY_RATE_PER_30S: 100 } });
    h.sandbox.admin.clearRequests();
    h.sandbox.admin.setConfig({ rateLimit: { windowSeconds: 30, maxRequests: 12 } });
    try {
      const { userId } = await connected(p); // connect's GET /me is the first call of the window
      const outcomes: string[] = [];
      for (let i = 0; i < 14; i++) {
        outcomes.push(
          await p
            .api(ctx(userId))
            .me()
            .then(() => 'ok')
            .catch((e: unknown) => (e instanceof SpotifyDeferredError ? `deferred:${e.reason}` : String(e))),
        );
      }
      // 12 allowed (the connect's call and 11 more), the 13th answered 429, the 14th not even tried.
      expect(outcomes).toEqual([...Array<string>(11).fill('ok'), ...Array<string>(3).fill('deferred:rate')]);
      const tooMany = h.sandbox.admin.requests({ service: 'spotify-api' }).filter((r) => r.status === 429);
      expect(tooMany).toHaveLength(1);
      await h.db.db.execute(`delete from spotify_cooldowns where budget = '${key}'`);
      // The cooldown is gone, but the learned limit (12 per 30 s) still holds the window closed.
      await expect(p.api(ctx(userId)).me()).rejects.toMatchObject({ reason: 'rate' });
      expect(
        h.sandbox.admin.requests({ service: 'spotify-api' }).filter((r) => r.status === 429),
      ).toHaveLength(1);
    } finally {
      h.sandbox.admin.setConfig({ rateLimit: false });
    }
  });

  it('QUOTA_EXCEEDED puts every process into the cooldown, and the status says when work resumes', async () => {
    const key = `k-${randomUUID()}`;
    const a = h.process({ budgetKey: key });
    const { userId } = await connected(a);
    h.sandbox.admin.setConfig({
      dailyQuota: { windowSeconds: 86_400, maxRequests: 1, minRetryAfterSeconds: 13 * 3600 },
    });
    try {
      await a
        .api(ctx(userId))
        .me()
        .catch(() => undefined); // may spend the last call of the quota
      const err = await a
        .api(ctx(userId))
        .me()
        .catch((e: unknown) => e);
      expect(err).toMatchObject({ reason: 'quota' });
      const b = h.process({ budgetKey: key });
      const before = h.sandbox.admin.requests({ service: 'spotify-api' }).length;
      await expect(b.api(ctx(userId)).savedTracks()).rejects.toMatchObject({ reason: 'quota' });
      expect(h.sandbox.admin.requests({ service: 'spotify-api' }).length).toBe(before);
      const resumes = (await b.connect.status(userId)).services['spotify']?.work_resumes_at;
      expect(resumes! * 1000 - Date.now()).toBeGreaterThan(12 * 3600_000);
    } finally {
      h.sandbox.admin.setConfig({ dailyQuota: false });
    }
  });

  it('5xx on a read: capped exponential backoff with jitter, then success', async () => {
    const { userId, p } = await connected();
    h.sandbox.admin.setConfig({
      faults: [{ kind: 'status', status: 503, service: 'spotify-api', path: '/me/tracks', times: 3 }],
    });
    const page = await p.api({ ...ctx(userId), priority: 'library_scan' }).savedTracks();
    expect(page.items.length).toBeGreaterThanOrEqual(0);
    expect(h.sleeps).toHaveLength(3);
    h.sleeps.forEach((ms, i) => {
      expect(ms).toBeGreaterThanOrEqual(250 * 2 ** i);
      expect(ms).toBeLessThanOrEqual(500 * 2 ** i);
    });
    const ledger = await p.budget.ledger({ userKey: userId });
    expect(ledger.find((e) => e.endpoint === 'GET /me/tracks')).toMatchObject({ calls: 4, failures: 3 });
  });

  it('a playlist add is one attempt: a 5xx or a time-out is not repeated by the client', async () => {
    // An add is not idempotent; the playlist writer (src/playlists) reads the playlist back before it adds
    // again (its tests cover adds applied before the failure).
    const p = h.process({ settings: { SPOTIFY_TIMEOUT_SECONDS: 1 } });
    const { userId, spotifyUser } = await connected(p);
    const pl = h.sandbox.admin.createPlaylist(spotifyUser.id, { name: 'Target 160-170' });
    const uris = h.sandbox.admin
      .playlistItems('4PEP9pmqdKJSWhQuT6CL4Q')
      .slice(0, 2)
      .map((id) => `spotify:track:${id}`);
    const api = p.api({ ...ctx(userId), priority: 'playlist_write' });
    const posts = () =>
      h.sandbox.admin
        .requests({ service: 'spotify-api' })
        .filter((r) => r.method === 'POST' && r.url.includes(`/playlists/${pl.id}/items`)).length;
    h.sandbox.admin.setConfig({
      faults: [
        { kind: 'status', status: 500, service: 'spotify-api', method: 'POST', path: '/items', times: 1 },
      ],
    });
    await expect(api.addTracks(pl.id, uris)).rejects.toMatchObject({ status: 500 });
    expect(posts()).toBe(1);
    h.sandbox.admin.setConfig({
      faults: [
        { kind: 'slow', delayMs: 1500, service: 'spotify-api', method: 'POST', path: '/items', times: 1 },
      ],
    });
    await expect(api.addTracks(pl.id, uris)).rejects.toMatchObject({ status: 0 });
    await new Promise((r) => setTimeout(r, 700));
    expect(h.sandbox.admin.playlistItems(pl.id).length).toBeLessThanOrEqual(uris.length); // never twice
    expect(h.sleeps).toEqual([]); // no backoff: no second attempt
  });

  it('an extended-quota endpoint answering 403 is remembered and not tried again', async () => {
    const { userId, p } = await connected();
    const trackId = h.sandbox.admin.playlistItems('4PEP9pmqdKJSWhQuT6CL4Q')[0]!;
    await expect(p.api(ctx(userId)).audioFeatures([trackId])).rejects.toBeInstanceOf(
      SpotifyCapabilityMissingError,
    );
    const before = h.sandbox.admin.requests({ service: 'spotify-api' }).length;
    await expect(p.api(ctx(userId)).audioFeatures([trackId])).rejects.toBeInstanceOf(
      SpotifyCapabilityMissingError,
    );
    expect(h.sandbox.admin.requests({ service: 'spotify-api' }).length).toBe(before);
    // Remembered for this app only: another app (budget key) still asks once.
    const { userId: other, spotifyUser, p: q } = await connected(h.process());
    const asked = () =>
      h.sandbox.admin.requests({ userId: spotifyUser.id }).filter((r) => /audio-features/.test(r.url));
    await expect(q.api(ctx(other)).audioFeatures([trackId])).rejects.toBeInstanceOf(
      SpotifyCapabilityMissingError,
    );
    expect(asked()).toHaveLength(1);
    expect((await row(userId))!.disabledReason).toBeNull();
  });

  it('reads playlist items in both shapes (item in development mode, track in extended quota)', async () => {
    const { userId, spotifyUser, p } = await connected();
    const ids = h.sandbox.admin
      .playlistItems('4PEP9pmqdKJSWhQuT6CL4Q')
      .slice(0, 4)
      .filter((x): x is string => x !== null);
    const pl = h.sandbox.admin.createPlaylist(spotifyUser.id, { name: 'Shapes', trackIds: ids });
    const dm = await p.api(ctx(userId)).playlistTracks(pl.id);
    h.sandbox.admin.setConfig({ extendedQuota: true });
    try {
      const eq = await p.api(ctx(userId)).playlistTracks(pl.id);
      expect(dm.tracks.map((t) => t.id)).toEqual(ids);
      expect(eq.tracks.map((t) => t.id)).toEqual(ids);
      expect(
        await p
          .api(ctx(userId))
          .playlist(pl.id)
          .then((x) => (x.items ?? x.tracks)?.total),
      ).toBe(ids.length);
    } finally {
      h.sandbox.admin.setConfig({ extendedQuota: false });
    }
  });
});
