// 403s whatever Spotify's wording: a refused account is told by GET /me being refused too, so any of
// the texts Spotify has used disables the service with the right reason, and a 403 about one call
// (another user's playlist, a removed endpoint) leaves the account alone.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOT_REGISTERED_MESSAGES, PREMIUM_MESSAGES } from '@pacebeat/sandbox';
import { DISABLED_REASONS, refusalReason, SpotifyAccountDisabledError, SpotifyApiError } from './errors.ts';
import { startHarness, type Harness } from './sandbox-harness.test-helper.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
});
afterAll(() => h.close());

const ctx = (userId: string) => ({ userId, purpose: 'test', priority: 'interactive' as const });

async function connected() {
  const p = h.process();
  const userId = await h.newUser();
  const spotifyUser = h.sandbox.admin.createUser({ username: `f${randomUUID().slice(0, 8)}`, liked: 3 });
  const t = h.sandbox.admin.connect({ userId: spotifyUser.id });
  await p.connect.connect(userId, { ...t, refresh_token: t.refresh_token! });
  return { p, userId, spotifyUser };
}
const reason = async (p: Awaited<ReturnType<typeof connected>>['p'], userId: string) =>
  (await p.connect.status(userId)).disabled_services[0]?.reason;

describe('403s whatever the wording', () => {
  NOT_REGISTERED_MESSAGES.forEach((text, i) => {
    it(`"${text}" on a library read disables the service as not registered`, async () => {
      const { p, userId, spotifyUser } = await connected();
      h.sandbox.admin.setConfig({ messageVariant: i });
      h.sandbox.admin.setRegistered(spotifyUser.id, false);
      try {
        await expect(p.api(ctx(userId)).savedTracks()).rejects.toBeInstanceOf(SpotifyAccountDisabledError);
      } finally {
        h.sandbox.admin.setConfig({ messageVariant: null });
      }
      expect(await reason(p, userId)).toBe(DISABLED_REASONS.notRegistered);
    });
  });

  PREMIUM_MESSAGES.forEach((text, i) => {
    it(`"${text.slice(0, 50)}…" disables the service as Premium lapsed`, async () => {
      const { p, userId } = await connected();
      h.sandbox.admin.setConfig({ messageVariant: i, ownerHasPremium: false });
      try {
        await expect(p.api(ctx(userId)).myPlaylists()).rejects.toBeInstanceOf(SpotifyAccountDisabledError);
      } finally {
        h.sandbox.admin.setConfig({ messageVariant: null, ownerHasPremium: true });
      }
      expect(await reason(p, userId)).toBe(DISABLED_REASONS.premiumLapsed);
    });
  });

  it('another user’s playlist items ("Forbidden") are an error of that call, not of the account', async () => {
    const { p, userId, spotifyUser } = await connected();
    const ben = h.sandbox.admin.user('ben.pace');
    const foreign = ben.playlists.find((pl) => pl.owner === 'ben.pace' && !pl.collaborative)!;
    h.sandbox.admin.followPlaylist(spotifyUser.id, foreign.id);
    const err = await p
      .api(ctx(userId))
      .playlistTracks(foreign.id)
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(SpotifyApiError);
    expect((err as SpotifyApiError).status).toBe(403);
    expect(await reason(p, userId)).toBeUndefined();
    expect((await p.api(ctx(userId)).me()).id).toBe(spotifyUser.id);
  });

  it('names both causes for a wording it has never seen', () => {
    expect(refusalReason('Forbidden for this account')).toBe(DISABLED_REASONS.refused);
    expect(refusalReason('')).toBe(DISABLED_REASONS.refused);
  });
});
