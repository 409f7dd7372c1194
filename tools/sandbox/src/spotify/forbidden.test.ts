// 403s as Spotify answers them: a refused account in one of Spotify's changing wordings, endpoints
// removed in November 2024 without a message, those removed in 2026 and other users' playlist items
// with a plain "Forbidden", a missing scope with its own text.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSandbox, type Sandbox } from '../index.ts';
import { spotifyClient } from '../test-support.ts';
import { NOT_REGISTERED_MESSAGES, PREMIUM_MESSAGES } from './messages.ts';
import type { Playlist } from '../world/library.ts';

describe('403s', () => {
  let sb: Sandbox;
  beforeAll(async () => {
    sb = await startSandbox({
      size: 'tiny',
      seed: 18,
      rateLimit: false,
      dailyQuota: false,
      clientIds: ['app-one', 'app-two', 'app-three', 'app-four', 'app-five', 'app-six'],
    });
  });
  afterAll(() => sb.close());

  const api = (userId: string, clientId = 'app-one') =>
    spotifyClient(sb, sb.admin.connect({ userId, clientId }).access_token);

  it('tells a removed endpoint from another user’s playlist items and from a missing scope', async () => {
    const ana = api('ana.runs');
    const track = sb.world.trackId(sb.world.user('ana.runs')!.liked[0]!.g);
    const removed = await ana('GET', `/audio-features?ids=${track}`);
    expect(removed.status).toBe(403);
    expect(removed.body).toEqual({ error: { status: 403 } });
    const user = sb.world.user('ana.runs')!;
    const foreign = user.playlists
      .map((p) => sb.world.playlists[p] as Playlist)
      .find((p) => !sb.world.canEdit(user, p))!;
    const items = await ana('GET', `/playlists/${sb.world.playlistId(foreign.p)}/items`);
    expect(items.body).toEqual({ error: { status: 403, message: 'Forbidden' } });
    expect(removed.body).not.toEqual(items.body);
    const old = await ana('GET', `/playlists/${sb.world.playlistId(foreign.p)}/tracks`);
    expect(old.body).toEqual({ error: { status: 403, message: 'Forbidden' } });
    const noScope = spotifyClient(
      sb,
      sb.admin.connect({ userId: 'ana.runs', scopes: [], clientId: 'app-one' }).access_token,
    );
    expect((await noScope('GET', '/me/tracks')).body).toEqual({
      error: { status: 403, message: 'Insufficient client scope' },
    });
  });

  it('words a refused account in one of Spotify’s observed texts, which differ between apps', async () => {
    const texts = new Set<string>();
    for (const clientId of sb.admin.config().clientIds) {
      const res = await api('frank', clientId)<{ error: { message: string } }>('GET', '/me');
      expect(res.status).toBe(403);
      expect(NOT_REGISTERED_MESSAGES).toContain(res.body.error.message);
      texts.add(res.body.error.message);
    }
    expect(texts.size).toBeGreaterThan(1);
    sb.admin.setConfig({ messageVariant: 1, ownerHasPremium: false });
    try {
      const res = await api('ana.runs')<{ error: { message: string } }>('GET', '/me');
      expect(res.body.error.message).toBe(PREMIUM_MESSAGES[1]);
    } finally {
      sb.admin.setConfig({ messageVariant: null, ownerHasPremium: true });
    }
  });
});
