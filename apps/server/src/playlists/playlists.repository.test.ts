// The playlists repository on the real test PostgreSQL: the writer lease, compare-and-set states, stats.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db.ts';
import { DEFAULT_TARGETS, targetName } from './matching.ts';
import { createPlaylistsRepository } from './playlists.repository.ts';

const db = testDb();
const repo = createPlaylistsRepository(db.db);
afterAll(() => db.close());

async function newUser(): Promise<string> {
  const rows = await db.db.execute<{ id: string }>(
    sql`insert into users (email, name) values (${`p-${randomUUID()}@example.org`}, 'Runner') returning id`,
  );
  return rows.rows[0]!.id;
}
const defaults = () =>
  DEFAULT_TARGETS.map((t, position) => ({ ...t, name: targetName(t.minBpm, t.maxBpm), position }));

describe('playlists repository', () => {
  it('creates the default targets once, however often it is asked', async () => {
    const user = await newUser();
    expect(await repo.createTargets(user, defaults())).toBe(4);
    expect(await repo.createTargets(user, defaults())).toBe(0);
    const targets = await repo.listTargets(user);
    expect(targets.map((t) => t.name)).toEqual([
      'Pacebeat 150–160 BPM',
      'Pacebeat 160–170 BPM',
      'Pacebeat 170–180 BPM',
      'Pacebeat 180–190 BPM',
    ]);
    expect(targets.every((t) => t.state === 'pending' && t.playlistId === null)).toBe(true);
  });

  it("gives the tempo lookups every runner's live target ranges, each once, not an archived one's", async () => {
    const [a, b] = [await newUser(), await newUser()];
    // Ranges no other test uses.
    const range = (minBpm: number, maxBpm: number, position: number) => ({
      minBpm,
      maxBpm,
      name: targetName(minBpm, maxBpm),
      position,
    });
    await repo.createTargets(a, [range(111.5, 113.5, 0), range(61.5, 62.5, 1)]);
    await repo.createTargets(b, [range(111.5, 113.5, 0)]);
    const gone = (await repo.listTargets(a)).find((t) => t.minBpm === 61.5)!;
    await db.db.execute(sql`update playlist_targets set archived_at = now() where id = ${gone.id}`);
    const ranges = await repo.targetRanges();
    expect(ranges.filter((r) => r.minBpm === 111.5)).toEqual([{ minBpm: 111.5, maxBpm: 113.5 }]);
    expect(ranges.some((r) => r.minBpm === 61.5)).toBe(false);
  });

  it('gives the writer lease to one holder at a time, and to another once it expires', async () => {
    const user = await newUser();
    expect(await repo.acquireLease(user, 'a', 60_000)).toBe(true);
    expect(await repo.acquireLease(user, 'b', 60_000)).toBe(false);
    expect(await repo.renewLease(user, 'b', 60_000)).toBe(false);
    expect(await repo.renewLease(user, 'a', 1)).toBe(true);
    await new Promise((r) => setTimeout(r, 20));
    expect(await repo.acquireLease(user, 'b', 60_000)).toBe(true); // a's lease ran out
    expect(await repo.renewLease(user, 'a', 60_000)).toBe(false); // a lost it and must stop
    await repo.releaseLease(user, 'a'); // not a's to release
    expect(await repo.acquireLease(user, 'c', 60_000)).toBe(false);
    await repo.releaseLease(user, 'b');
    expect(await repo.acquireLease(user, 'c', 60_000)).toBe(true);
  });

  it('records the creation intent once: a second writer cannot mark a target creating again', async () => {
    const user = await newUser();
    await repo.createTargets(user, defaults());
    const [t] = await repo.listTargets(user);
    expect(await repo.markCreating(t!.id)).toBe(true);
    expect(await repo.markCreating(t!.id)).toBe(false);
    await repo.markNotCreated(t!.id);
    expect(await repo.markCreating(t!.id)).toBe(true);
    expect(await repo.markActive(t!.id, { playlistId: 'p1', publicUrl: 'u', snapshotId: 's1' })).toBe(true);
    const after = (await repo.listTargets(user))[0]!;
    expect(after).toMatchObject({
      state: 'active',
      playlistId: 'p1',
      createAttempts: 2,
      creatingSince: null,
    });
    expect(await repo.markCreating(t!.id)).toBe(false);
  });

  it('keeps one row per recording in a target, and counts what Pacebeat added', async () => {
    const user = await newUser();
    await repo.createTargets(user, defaults());
    const [t] = await repo.listTargets(user);
    const batch = randomUUID();
    const tracks = [
      { recordingKey: 'isrc:A', trackId: 'ta', bpm: 151 },
      { recordingKey: 'isrc:B', trackId: 'tb', bpm: 152 },
    ];
    expect((await repo.recordPending(t!.id, batch, tracks)).map((r) => r.trackId)).toEqual(['ta', 'tb']);
    // The same recording again (another batch) is not recorded twice.
    expect(await repo.recordPending(t!.id, randomUUID(), [tracks[0]!])).toEqual([]);
    expect(await repo.confirmBatch(t!.id, batch)).toBe(2);
    await repo.setStates(t!.id, ['isrc:B'], 'removed');
    await repo.recordPresent(t!.id, [
      { recordingKey: 'isrc:C', trackId: 'tc' },
      { recordingKey: 'isrc:A', trackId: 'ta' },
    ]);
    // Placed by Pacebeat: A (added); not B (removed by the runner) nor C (the runner's own).
    expect(await repo.fewerPlacedThan(user, 2)).toBe(true);
    expect(await repo.fewerPlacedThan(user, 1)).toBe(false);
    const rows = await repo.tracksOf(t!.id);
    expect(Object.fromEntries(rows.map((r) => [r.recordingKey, r.state]))).toEqual({
      'isrc:A': 'added',
      'isrc:B': 'removed',
      'isrc:C': 'present',
    });
    const stats = await repo.statsOf([t!.id], new Date(Date.now() - 7 * 86_400_000));
    // Tracks added: what Pacebeat added that the playlist holds now; B was removed by the user.
    expect(stats.get(t!.id)).toEqual({ tracksAdded: 1, tracksAdded7Days: 1 });
    const later = await repo.statsOf([t!.id], new Date(Date.now() + 60_000));
    expect(later.get(t!.id)).toEqual({ tracksAdded: 1, tracksAdded7Days: 0 });
    const [listed] = await repo.listTargetsWithStats(user, new Date(Date.now() - 7 * 86_400_000));
    expect(listed!.stats).toEqual({ tracksAdded: 1, tracksAdded7Days: 1 });
    const songs = (await repo.placedSongs([t!.id])).get(t!.id)!;
    for (const k of ['A', 'B', 'C'])
      expect(songs.has({ trackId: 'other', recordingKey: `isrc:${k}` })).toBe(true);
    expect(songs.has({ trackId: 'tc', recordingKey: 'isrc:other' })).toBe(true);
    expect(songs.has({ trackId: 'td', recordingKey: 'isrc:D' })).toBe(false);
  });

  it('deletes everything about a user’s targets', async () => {
    const user = await newUser();
    await repo.createTargets(user, defaults());
    const [t] = await repo.listTargets(user);
    await repo.recordPending(t!.id, randomUUID(), [{ recordingKey: 'isrc:A', trackId: 'ta', bpm: 151 }]);
    await repo.acquireLease(user, 'w', 60_000);
    await repo.deleteUserData(user);
    expect(await repo.listTargets(user)).toEqual([]);
    expect(await repo.tracksOf(t!.id)).toEqual([]);
    expect(await repo.renewLease(user, 'w', 60_000)).toBe(false);
  });
});
