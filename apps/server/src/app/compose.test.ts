// The one composition (compose.ts): the events reach every module that acts on them, in order, on the
// real test database and the simulated Spotify.
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { composePacebeat, createEventBus, type Pacebeat } from './compose.ts';
import { loadConfig } from './config.ts';
import type { JobQueue } from './job-registry.ts';
import { startLibraryHarness, type LibraryHarness } from '../../test/library-harness.ts';
import { sandboxSpotifyEndpoints } from '../spotify/demo.ts';

let h: LibraryHarness;
let app: Pacebeat;
const sent: Array<{ name: string; userId?: string }> = [];
const cancelled: string[] = [];

beforeAll(async () => {
  h = await startLibraryHarness();
  const jobs: JobQueue = {
    send: async (name, payload) => {
      sent.push({ name, userId: (payload as { userId?: string }).userId });
      return randomUUID();
    },
    wake: async (name, payload) => void sent.push({ name, userId: (payload as { userId?: string }).userId }),
    sooner: async (name, payload) =>
      void sent.push({ name, userId: (payload as { userId?: string }).userId }),
  };
  app = composePacebeat({
    db: h.db.db,
    config: loadConfig({
      DATA_DIR: h.dataDir,
      TOKEN_ENCRYPTION_KEY: h.key,
      SPOTIFY_RATE_PER_30S: 'unlimited',
      SPOTIFY_DAILY_QUOTA: 'unlimited',
    }),
    log: pino({ level: 'silent' }),
    embedded: false,
    spotifyEndpoints: sandboxSpotifyEndpoints(h.sandbox),
    jobs,
    cancelJobs: async (userId) => void cancelled.push(userId),
    overrides: { spotify: { budgetKey: `test-${randomUUID()}` }, tempo: { limitScope: `${randomUUID()}:` } },
  });
});
afterAll(async () => {
  await app.accounts.close();
  await h.close();
});

describe('composePacebeat', () => {
  it('a connect starts the library scan, makes the default targets and asks for a writer run; a disconnect undoes it all', async () => {
    const spotifyUser = h.spotifyUser({ liked: 5 });
    const userId = await h.newUser();
    const tokens = h.sandbox.admin.connect({ userId: spotifyUser.id });
    await app.spotify.connect.connect(userId, { ...tokens, refresh_token: tokens.refresh_token! });
    const mine = sent.filter((s) => s.userId === userId).map((s) => s.name);
    expect(mine).toContain('library-scan');
    expect(mine).toContain('playlist-sync');
    expect((await app.playlists.repo.listTargets(userId)).map((t) => t.minBpm)).toEqual([150, 160, 170, 180]);
    expect((await app.library.service.sources(userId, { timeZone: null })).sources.length).toBeGreaterThan(0);

    await app.spotify.connect.disconnect(userId);
    expect(cancelled).toEqual([userId]);
    expect(await app.playlists.repo.listTargets(userId)).toEqual([]);
  });

  it('runs an event’s handlers one after another, in the order they subscribed', async () => {
    const bus = createEventBus();
    const seen: string[] = [];
    bus.on('gone', async (u) => {
      await new Promise((r) => setTimeout(r, 20));
      seen.push(`first ${u}`);
    });
    bus.on('gone', async (u) => void seen.push(`second ${u}`));
    await bus.emit('gone', 'u1');
    expect(seen).toEqual(['first u1', 'second u1']);
  });
});
