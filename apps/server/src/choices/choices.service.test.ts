// The choices service on the real test PostgreSQL with real repositories: corrections override the resolver
// and survive re-resolution, removals are asked for only on request and with the right pairs, exclusions by
// track and by artist, undo, and one user's choices never reach another's.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDb } from '../../test/db.ts';
import type { AppError } from '../errors.ts';
import { DEFAULT_TARGETS, planAdds } from '../playlists/matching.ts';
import { createChoicesModule } from './choices.module.ts';
import type { AddedPair } from './track-lists.repository.ts';
import { candidatesOf, choicesFixtures, type SeededTrack } from './choices.test-helper.ts';

const handle = testDb();
afterAll(() => handle.close());
const fx = choicesFixtures(handle.db);

let removals: Array<{ userId: string; removals: AddedPair[] }>;
let syncs: string[];
const mod = createChoicesModule(handle.db, {
  listMatchCandidates: async () => [],
  tempos: fx.tempo,
  placedSongs: fx.playlists.placedSongs,
  removeFromTargets: async (userId, r) => {
    removals.push({ userId, removals: r });
    return r.length;
  },
  triggerSync: async (userId) => void syncs.push(userId),
});
const svc = mod.service;
beforeAll(() => {
  removals = [];
  syncs = [];
});

const TARGETS = (ids: Record<number, string>) => DEFAULT_TARGETS.map((t) => ({ id: ids[t.minBpm]!, ...t }));

/** Where the writer would place each track now: recording key → lower bounds of its targets. */
async function planned(userId: string, ids: Record<number, string>, tracks: SeededTrack[]) {
  const tempos = await fx.tempo.getByKeys(tracks.map((t) => t.recordingKey));
  const placed = await fx.playlists.placedSongs(Object.values(ids));
  const plan = planAdds(
    TARGETS(ids),
    candidatesOf(tracks),
    tempos,
    placed,
    undefined,
    await svc.runnerChoices(userId),
  );
  const out: Record<string, number[]> = {};
  for (const t of TARGETS(ids)) for (const p of plan.get(t.id)!) (out[p.recordingKey] ??= []).push(t.minBpm);
  return out;
}

async function runner() {
  const userId = await fx.newUser();
  const ids = await fx.targets(userId);
  const artist = await fx.artist('The Striders');
  return { userId, ids, artist };
}

describe('tempo corrections', () => {
  it('override the resolver’s tempo at once, and survive a re-resolution of the recording', async () => {
    const { userId, ids, artist } = await runner();
    const song = await fx.track({ of: userId, artists: [artist], bpm: 172 });
    expect(await planned(userId, ids, [song])).toEqual({ [song.recordingKey]: [170] });

    syncs = [];
    const r = await svc.correctTempo(userId, song.recordingKey, 155.004, false);
    expect(r).toEqual({ recording_key: song.recordingKey, bpm: 155, removals_requested: 0 });
    expect(syncs).toEqual([userId]); // the writer run that places it is queued
    expect(await planned(userId, ids, [song])).toEqual({ [song.recordingKey]: [150] });

    // A rescan resolves the recording again, with more confidence: the runner's tempo still wins.
    await fx.tempo.save([
      {
        key: song.recordingKey,
        isrc: null,
        spotifyId: song.id,
        bpm: 174,
        source: 'deezer',
        confidence: 0.95,
        alternatives: [],
        reason: null,
        retryAt: null,
        resolvedAt: new Date(),
      },
    ]);
    expect(await planned(userId, ids, [song])).toEqual({ [song.recordingKey]: [150] });

    // Undone: the resolver's tempo applies again.
    await svc.undoCorrection(userId, song.recordingKey);
    expect(await planned(userId, ids, [song])).toEqual({ [song.recordingKey]: [170] });
    await expect(svc.undoCorrection(userId, song.recordingKey)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('places a track no source knows, and one too uncertain to trust', async () => {
    const { userId, ids, artist } = await runner();
    const unknown = await fx.track({ of: userId, artists: [artist], bpm: null });
    const shaky = await fx.track({ of: userId, artists: [artist], bpm: 120, confidence: 0.5 });
    expect(await planned(userId, ids, [unknown, shaky])).toEqual({});
    await svc.correctTempo(userId, unknown.recordingKey, 82, false);
    await svc.correctTempo(userId, shaky.recordingKey, 186, false);
    expect(await planned(userId, ids, [unknown, shaky])).toEqual({
      [unknown.recordingKey]: [160],
      [shaky.recordingKey]: [180],
    });
  });

  it('asks to remove it from the targets it no longer fits only when the runner asks', async () => {
    const { userId, ids, artist } = await runner();
    const song = await fx.track({ of: userId, artists: [artist], bpm: 172 });
    const other = await fx.track({ of: userId, artists: [artist], bpm: 175 });
    await fx.place(ids[170]!, [
      { ...song, bpm: 172 },
      { ...other, bpm: 175 },
    ]);
    removals = [];
    await svc.correctTempo(userId, song.recordingKey, 155, false);
    expect(removals).toEqual([]);

    const r = await svc.correctTempo(userId, song.recordingKey, 156, true);
    expect(r.removals_requested).toBe(1);
    expect(removals).toEqual([
      { userId, removals: [{ targetId: ids[170], recordingKey: song.recordingKey }] },
    ]);

    // 87 BPM still fits 170–180 (doubled): nothing to remove.
    removals = [];
    await svc.correctTempo(userId, other.recordingKey, 87, true);
    expect(removals).toEqual([]);
  });

  it('refuses a recording the library does not know', async () => {
    const { userId } = await runner();
    const err = await svc.correctTempo(userId, 'isrc:NOSUCHTRACK1', 150, false).catch((e: AppError) => e);
    expect(err).toMatchObject({ statusCode: 404, code: 'TrackNotFound' });
  });
});

describe('exclusions', () => {
  it('keep a track out of every target; removal of what Pacebeat added only on request; undo places it again', async () => {
    const { userId, ids, artist } = await runner();
    const song = await fx.track({ of: userId, title: 'Tempo Run', artists: [artist], bpm: 80 });
    await fx.place(ids[160]!, [{ ...song, bpm: 80 }]);
    const kept = await fx.track({ of: userId, artists: [artist], bpm: 150 });

    removals = [];
    const r = await svc.exclude(userId, 'track', kept.recordingKey, false);
    expect(r.removals_requested).toBe(0);
    expect(removals).toEqual([]);
    expect(r.exclusion).toMatchObject({ kind: 'track', key: kept.recordingKey, detail: 'The Striders' });
    expect(await planned(userId, ids, [kept])).toEqual({});

    await svc.exclude(userId, 'track', song.recordingKey, true);
    expect(removals).toEqual([
      { userId, removals: [{ targetId: ids[160], recordingKey: song.recordingKey }] },
    ]);

    const list = await svc.exclusions(userId, 0, 10);
    expect(list.total).toBe(2);
    expect(list.exclusions.map((e) => e.label)).toContain('Tempo Run');

    syncs = [];
    await svc.restore(userId, 'track', kept.recordingKey);
    expect(syncs).toEqual([userId]);
    expect(await planned(userId, ids, [kept])).toEqual({ [kept.recordingKey]: [150] });
    await expect(svc.restore(userId, 'track', kept.recordingKey)).rejects.toMatchObject({ statusCode: 404 });
  });

  it('keep a whole artist out, and remove only that artist’s tracks Pacebeat added', async () => {
    const { userId, ids, artist } = await runner();
    const other = await fx.artist('Someone Else');
    const a1 = await fx.track({ of: userId, artists: [artist], bpm: 172 });
    const a2 = await fx.track({ of: userId, artists: [other, artist], bpm: 86 }); // a feature counts
    const b1 = await fx.track({ of: userId, artists: [other], bpm: 174 });
    await fx.place(ids[170]!, [
      { ...a1, bpm: 172 },
      { ...b1, bpm: 174 },
    ]);
    // The runner's own copy of an artist's song in a playlist is theirs: never removed.
    await fx.playlists.recordPresent(ids[160]!, [{ recordingKey: a2.recordingKey, trackId: a2.id }]);
    const a3 = await fx.track({ of: userId, artists: [artist], bpm: 165 });

    removals = [];
    const r = await svc.exclude(userId, 'artist', artist, true);
    expect(r.exclusion).toMatchObject({ kind: 'artist', key: artist, label: 'The Striders' });
    expect(removals).toEqual([{ userId, removals: [{ targetId: ids[170], recordingKey: a1.recordingKey }] }]);
    const choices = await svc.runnerChoices(userId);
    expect([...choices.excludedArtists]).toEqual([artist]);
    expect(await planned(userId, ids, [a2, a3, b1])).toEqual({});

    await svc.restore(userId, 'artist', artist);
    expect(await planned(userId, ids, [a2, a3])).toEqual({
      [a2.recordingKey]: [170],
      [a3.recordingKey]: [160],
    });
  });

  it('refuses an artist the library does not know', async () => {
    const { userId } = await runner();
    await expect(svc.exclude(userId, 'artist', 'NoSuchArtist0000000000', false)).rejects.toMatchObject({
      statusCode: 404,
      code: 'ArtistNotFound',
    });
  });

  it('are the user’s own: another runner’s matching sees none of them, and disconnect forgets them', async () => {
    const a = await runner();
    const b = await runner();
    const song = await fx.track({ of: a.userId, artists: [a.artist], bpm: 172 });
    await svc.correctTempo(a.userId, song.recordingKey, 155, false);
    await svc.exclude(a.userId, 'artist', a.artist, false);
    const theirs = await svc.runnerChoices(b.userId);
    expect(theirs.corrections.size + theirs.excludedArtists.size + theirs.excludedRecordings.size).toBe(0);
    expect(await planned(b.userId, b.ids, [song])).toEqual({ [song.recordingKey]: [170] });

    await svc.forgetUser(a.userId);
    const mine = await svc.runnerChoices(a.userId);
    expect(mine.corrections.size + mine.excludedArtists.size).toBe(0);
  });
});

describe('the Excluded list', () => {
  it('pages newest first', async () => {
    const { userId } = await runner();
    const artists = [];
    for (let i = 0; i < 5; i++) artists.push(await fx.artist(`Artist ${i}`));
    await fx.track({ of: userId, artists, bpm: 170 });
    for (const a of artists) await svc.exclude(userId, 'artist', a, false);
    const first = await svc.exclusions(userId, 0, 2);
    expect(first.total).toBe(5);
    expect(first.next_offset).toBe(2);
    const second = await svc.exclusions(userId, 2, 2);
    const third = await svc.exclusions(userId, 4, 2);
    expect(third.next_offset).toBeNull();
    const all = [...first.exclusions, ...second.exclusions, ...third.exclusions].map((e) => e.label);
    expect(all).toEqual(['Artist 4', 'Artist 3', 'Artist 2', 'Artist 1', 'Artist 0']);
  });
});
