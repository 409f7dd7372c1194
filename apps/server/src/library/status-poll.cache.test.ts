// The status page polls GET sources and GET targets 15 s after each answer (apps/web status-queries.ts,
// RELOAD_AFTER_SUCCESS_MS). In a process with the change feed (serve), a poll with nothing changed is
// answered from the read caches: changes reach them by NOTIFY, and the age only bounds a lost one. With a
// 5 s age every poll read PostgreSQL, and at 1,000 runners those round trips filled serve's pool.
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { fakeFeed } from '../cache/fake-feed.test-helper.ts';
import { statementsOf } from '../../test/statements.ts';
import { startLibraryHarness, type LibraryHarness } from '../../test/library-harness.ts';

const POLL_MS = 15_000;

let h: LibraryHarness;
beforeAll(async () => {
  h = await startLibraryHarness({ seed: 37_037 });
}, 120_000);
afterAll(() => h.close());

describe('the status page’s polls in a serve process', () => {
  it('read PostgreSQL about once a minute with nothing changed, and still see the clock and changes', async () => {
    // Only Date is faked (the caches' clock); timers and sockets stay real.
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      const feed = fakeFeed();
      const p = h.libraryProcess({ changes: feed });
      const userId = await h.connect(p, h.spotifyUser({ liked: 20, owned: 1 }).id, { catalogs: false });
      await h.drain(p, userId);
      const sources = () => p.library.service.sources(userId, { timeZone: 'UTC' });
      const poll = async () => {
        await sources();
        await p.pacebeat.playlists.service.targetsReply(userId, 'UTC');
      };
      await poll();

      // Five minutes of polls: each of the three reads (source rows, counts, targets) is read anew in the
      // background about once a minute (before: at every poll, 3 × 20 loads).
      const statements = await statementsOf(async () => {
        for (let i = 0; i < 20; i++) {
          vi.setSystemTime(Date.now() + POLL_MS);
          await poll();
        }
        await new Promise((r) => setTimeout(r, 300)); // the last background reads
      });
      expect(statements.length).toBeGreaterThan(0); // the background reads are seen
      expect(statements.length).toBeLessThanOrEqual(3 * 6);

      // A source put off for 20 s shows waiting (the change's NOTIFY), and stops by the clock alone.
      const liked = (await p.library.repo.listSources(userId)).find((s) => s.kind === 'liked_songs')!;
      await p.library.repo.updateSource(userId, liked.id, { resumesAt: new Date(Date.now() + 20_000) });
      feed.notify(`sources:${userId}`);
      const stateOf = async () =>
        (await sources()).sources.find((s) => s.kind === 'liked_songs')!.progress.state;
      expect(await stateOf()).toBe('waiting');
      vi.setSystemTime(Date.now() + POLL_MS);
      expect(await stateOf()).toBe('waiting');
      vi.setSystemTime(Date.now() + POLL_MS);
      expect(await stateOf()).not.toBe('waiting');
    } finally {
      vi.useRealTimers();
    }
  });
});
