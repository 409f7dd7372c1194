// A status page poll reads the user's stored counts: one row, no aggregate over the library. Statements
// counted as PostgreSQL receives them (every pg client's query). Before, each poll ran the three
// aggregates (member, catalog and summary counts): at 1,000 runners they were the top of
// pg_stat_statements and what bounded `serve`. The counts are recounted by the process that changed them,
// and another process's reads see them; a disconnect deletes them.
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTempoRepository } from '../tempo/tempo.repository.ts';
import { statementsOf } from '../../test/statements.ts';
import { startLibraryHarness, type LibraryHarness, type LibraryProcess } from '../../test/library-harness.ts';

let h: LibraryHarness;
let p: LibraryProcess;
beforeAll(async () => {
  h = await startLibraryHarness({ seed: 36_036 });
  p = h.libraryProcess();
}, 120_000);
afterAll(() => h.close());

const aggregates = (statements: string[]) => statements.filter((s) => /\bcount\s*\(/i.test(s));

describe('the status page’s counts', () => {
  it('a poll reads the stored counts without aggregating; a change is counted by its writer', async () => {
    const spotifyUser = h.spotifyUser({ liked: 20, owned: 1 });
    const userId = await h.connect(p, spotifyUser.id, { catalogs: false });
    await h.drain(p, userId);
    const first = await p.library.service.sources(userId, { timeZone: 'UTC' });
    expect(first.summary.tracks_known).toBeGreaterThan(0);

    // Polls, as the status page makes them: not one aggregate, a handful of statements.
    const polls = await statementsOf(async () => {
      for (let i = 0; i < 3; i++) await p.library.service.sources(userId, { timeZone: 'UTC' });
    });
    expect(polls.length).toBeGreaterThan(0); // the counter sees this process's statements
    expect(aggregates(polls)).toEqual([]);
    expect(polls.length).toBeLessThanOrEqual(3 * 2); // the source rows and the stored counts

    // Tempos found (as the lookup job announces them): the writer recounts, the reads stay aggregate-free.
    const keys = [...new Set((await p.library.listMatchCandidates(userId)).map((s) => s.recordingKey))];
    await createTempoRepository(h.db.db).save(
      keys.slice(0, 5).map((key) => ({
        key,
        isrc: null,
        spotifyId: null,
        bpm: 160,
        source: 'reccobeats' as const,
        confidence: 0.9,
        alternatives: [],
        reason: null,
        retryAt: null,
        resolvedAt: new Date(),
      })),
    );
    await p.pacebeat.events.emit('temposFound', userId);
    let after!: Awaited<ReturnType<typeof p.library.service.sources>>;
    const read = await statementsOf(async () => {
      after = await p.library.service.sources(userId, { timeZone: 'UTC' });
    });
    expect(aggregates(read)).toEqual([]);
    const truth = await p.library.stats.summary(userId);
    expect(after.summary.tracks_with_tempo).toBe(truth.tracksWithTempo);
    expect(after.summary.tracks_with_tempo).toBe(first.summary.tracks_with_tempo + 5);

    // Another process (serve, while the work process counted) reads the same counts, without aggregating.
    const other = h.libraryProcess();
    const elsewhere = await statementsOf(async () => {
      expect((await other.library.service.sources(userId, { timeZone: 'UTC' })).summary).toEqual(
        after.summary,
      );
    });
    expect(aggregates(elsewhere)).toEqual([]);

    // A disconnect deletes them with the library.
    await p.library.service.gone(userId);
    const left = await h.db.db.execute<{ n: number }>(
      sql`select count(*)::int as n from library_source_counts where user_id = ${userId}`,
    );
    expect(left.rows[0]!.n).toBe(0);
  });

  it('a recount takes one statement a step, never a transaction, and leaves nothing pending; so does a rescan ask', async () => {
    // At 1,000 runners the serve process's connections sat idle inside these transactions (waiting for its
    // own event loop between statements) until status reads waited seconds for a connection.
    const spotifyUser = h.spotifyUser({ liked: 15, owned: 1 });
    const userId = await h.connect(p, spotifyUser.id, { catalogs: false });
    await h.drain(p, userId);
    const transactions = (statements: string[]) => statements.filter((s) => /^\s*(begin|start)\b/i.test(s));

    let counts!: Awaited<ReturnType<typeof p.library.stats.recount>>;
    const recount = await statementsOf(async () => {
      counts = await p.library.stats.recount(userId);
    });
    expect(transactions(recount)).toEqual([]);
    expect(recount).toHaveLength(2); // the three counts at one moment, then the stored row
    // Still the three aggregates' figures, read separately.
    expect(counts.summary).toEqual(await p.library.stats.summary(userId));
    expect(counts.members).toEqual(await p.library.stats.memberCounts(userId));
    expect(counts.catalogs).toEqual(await p.library.stats.catalogCounts(userId));
    expect(counts.summary.knownTracks).toBeGreaterThan(0);

    // Counted again with nothing changed: nothing is left pending (a read 30 s later would recount).
    await p.library.stats.recount(userId);
    const row = await h.db.db.execute<{ pending: boolean; changed: boolean }>(
      sql`select pending_since is not null as pending, changed_at is not null as changed
          from library_source_counts where user_id = ${userId}`,
    );
    expect(row.rows).toEqual([{ pending: false, changed: false }]);

    // The page asks for a rescan: granted once (the library was read, the last ask long ago), then refused
    // within the interval.
    await h.db.db.execute(
      sql`update library_users set rescan_requested_at = now() - interval '7 hours' where user_id = ${userId}`,
    );
    let asked: boolean[] = [];
    const ask = await statementsOf(async () => {
      asked = [
        await p.library.service.statusPageOpened(userId),
        await p.library.service.statusPageOpened(userId),
      ];
    });
    expect(asked).toEqual([true, false]);
    expect(transactions(ask)).toEqual([]);
    const due = await h.db.db.execute<{ kind: string; due: boolean }>(
      sql`select kind, due_at is not null as due from library_sources where user_id = ${userId}
          and kind in ('liked_songs', 'followed_artists') order by kind`,
    );
    expect(due.rows).toEqual([
      { kind: 'followed_artists', due: true },
      { kind: 'liked_songs', due: true },
    ]);
  });
});
