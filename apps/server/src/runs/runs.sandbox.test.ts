// Runs against the simulated Spotify: the first build makes one playlist holding exactly the built songs in
// order; a rebuild replaces them (no stray item) in one call, mostly with songs the last build left out; the
// runner's exclusions and corrections hold; a spent share keeps the build and says so, and "send" writes it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runPreset, type Meter, type RunBody } from '@pacebeat/contract';
import {
  catalogTracksIn,
  likedCandidates,
  seedTrueTempos,
  startPlaylistHarness,
  type PlaylistHarness,
  type Runner,
} from '../../test/playlists-harness.ts';
import { NO_CHOICES, type RunnerChoices } from '../playlists/runner-choices.ts';
import { SpotifyDeferredError } from '../spotify/errors.ts';
import { tempoKey } from '../tempo/tempo.service.ts';
import { createRunsModule } from './runs.module.ts';

let ph: PlaylistHarness;
beforeAll(async () => {
  ph = await startPlaylistHarness({ likedCount: 0 });
}, 120_000);
afterAll(() => ph.close());

const body = (name: string, o: Partial<RunBody> = {}): RunBody => ({
  name,
  blocks: runPreset('intervals', 165),
  half_time: true,
  no_explicit: false,
  liked_only: false,
  ...o,
});

/** A runner who likes songs at each of the intervals preset's ranges (true tempos in the cache). */
async function runner(
  choices: RunnerChoices = NO_CHOICES,
  o: { failCreate?: boolean; now?: () => number } = {},
) {
  const r = await ph.runner();
  const easy = catalogTracksIn(ph, 161, 169, 40);
  const fast = catalogTracksIn(ph, 173, 181, 25);
  const cool = catalogTracksIn(ph, 157, 164, 15);
  const liked = [...new Set([...easy, ...fast, ...cool])];
  await seedTrueTempos(ph, liked);
  ph.h.sandbox.admin.like(r.spotifyUserId, liked);
  let failCreate = o.failCreate ?? false;
  const runs = createRunsModule(ph.h.db.db, {
    listMatchCandidates: async () => likedCandidates(ph.h.sandbox, r.spotifyUserId),
    tempos: ph.tempo.repo,
    runnerChoices: async () => choices,
    ...(o.now ? { now: o.now } : {}),
    artistNames: async (ids) => new Map(ids.map((id) => [id, `Artist ${id.slice(0, 4)}`])),
    accounts: r.p.accounts,
    api: (ctx) => {
      const api = r.p.api(ctx);
      return {
        ...api,
        createPlaylist: (p: Parameters<typeof api.createPlaylist>[0]) =>
          failCreate
            ? Promise.reject(new SpotifyDeferredError('share', new Date(Date.now() + 3 * 3600_000)))
            : api.createPlaylist(p),
      };
    },
  });
  return { r, runs: runs.service, liked, allowCreate: () => (failCreate = false) };
}

const playlistsOf = (r: Runner) =>
  ph.h.sandbox.admin.user(r.spotifyUserId).playlists.filter((p) => p.name.startsWith('Pacebeat run: '));
const items = (id: string) => ph.h.sandbox.admin.playlistItems(id);
/** Every Spotify Web API call the runner's account received (nothing but the builds runs here). */
const calls = (r: Runner) =>
  ph.h.sandbox.admin.requests({ service: 'spotify-api', userId: r.spotifyUserId }).length;

describe('building a run into Spotify', () => {
  it('makes one playlist with exactly the built songs, in order, in 2 calls; a rebuild replaces them in 1', async () => {
    // A build's jitter is seeded by the clock: a fixed clock (a second a read) makes the builds the same on
    // every run of the test (by the wall clock, one run in a few reused exactly half the songs).
    let clock = Date.UTC(2026, 10, 30, 12);
    const { r, runs } = await runner(NO_CHOICES, { now: () => (clock += 1000) });
    const saved = await runs.create(r.userId, body('Tuesday intervals'));
    expect(saved.segments).toHaveLength(14);
    expect(saved.pool_notes).toEqual([]);
    expect(saved.build).toBeNull();

    const before = calls(r);
    const first = await runs.build(r.userId, saved.run_id);
    const songs = first.build!.songs;
    expect(first.build!.spotify).toEqual({ state: 'written', message: null, calls: 2 });
    expect(calls(r) - before).toBe(2);
    const [pl, ...others] = playlistsOf(r);
    expect(others).toEqual([]);
    expect(pl!.name).toBe('Pacebeat run: Tuesday intervals');
    expect(ph.h.sandbox.world.playlist(pl!.id)!.description).toContain(
      '6 × (3 min fast at 172–182 BPM, 2 min easy at 160–170 BPM)',
    );
    expect(items(pl!.id)).toEqual(songs.map((s) => s.track_id));
    expect(first.public_url).toMatch(/^https:\/\/open\.spotify\.com\/playlist\//);
    // Every song at a tempo that fits the segment it mostly covers; the plan's length, give or take a song.
    for (const s of songs) {
      const seg = first.segments[s.segment]!;
      const step = s.fit === 'half_time' ? s.bpm * 2 : s.fit === 'double_time' ? s.bpm / 2 : s.bpm;
      expect(step).toBeGreaterThanOrEqual(seg.min_bpm);
      expect(step).toBeLessThan(seg.max_bpm);
    }
    expect(Math.abs(first.build!.total_s - first.planned_s)).toBeLessThan(240);

    const again = await runs.build(r.userId, saved.run_id);
    expect(again.build!.spotify.calls).toBe(1);
    expect(items(pl!.id)).toEqual(again.build!.songs.map((s) => s.track_id));
    expect(playlistsOf(r)).toHaveLength(1);
    const used = new Set(songs.map((s) => s.recording_key));
    const reused = again.build!.songs.filter((s) => used.has(s.recording_key)).length;
    expect(reused / again.build!.songs.length).toBeLessThan(0.5);
    expect(again.build!.songs.every((s) => s.fresh === !used.has(s.recording_key))).toBe(true);

    // A renamed run renames its playlist on the next build: one call more, once.
    await runs.edit(r.userId, saved.run_id, body('Thursday intervals'));
    expect((await runs.build(r.userId, saved.run_id)).build!.spotify.calls).toBe(2);
    expect(playlistsOf(r).map((p) => p.name)).toEqual(['Pacebeat run: Thursday intervals']);
    expect((await runs.build(r.userId, saved.run_id)).build!.spotify.calls).toBe(1);
  });

  it('never uses a song or an artist the runner excluded, and places a corrected song by its correction', async () => {
    const choices = {
      corrections: new Map<string, number>(),
      meterCorrections: new Map<string, Meter>(),
      excludedRecordings: new Set<string>(),
      excludedArtists: new Set<string>(),
    };
    const { r, runs, liked } = await runner(choices);
    const w = ph.h.sandbox.world;
    const keyOf = (id: string) => tempoKey(w.trackFacts(w.trackG(id)!));
    const artistOf = (id: string) => w.ids.encode('artist', w.catalog.track(w.trackG(id)!).artists[0]!);
    choices.excludedRecordings.add(keyOf(liked[0]!));
    choices.excludedArtists.add(artistOf(liked[1]!));
    // A song the run could not use at its measured tempo, corrected into the fast range (a run of 3 hours
    // uses every song that fits).
    // (Not by the excluded artist, whose songs stay out whatever their tempo.)
    const slow = catalogTracksIn(ph, 120, 130, 20).find((id) => artistOf(id) !== artistOf(liked[1]!))!;
    await seedTrueTempos(ph, [slow]);
    ph.h.sandbox.admin.like(r.spotifyUserId, [slow]);
    choices.corrections.set(keyOf(slow), 178);
    const saved = await runs.create(
      r.userId,
      body('Choices', {
        blocks: [{ kind: 'segment', duration_s: 3 * 3600, min_bpm: 172, max_bpm: 182, label: 'Fast' }],
      }),
    );
    const built = (await runs.build(r.userId, saved.run_id)).build!.songs;
    expect(built.map((s) => s.recording_key)).not.toContain(keyOf(liked[0]!));
    expect(built.map((s) => s.track_id).map(artistOf)).not.toContain(artistOf(liked[1]!));
    expect(built.find((s) => s.track_id === slow)).toMatchObject({ bpm: 178, fit: 'as_is' });
  });

  it('leaves out a song in 3/4 as a pace playlist does, unless the runner said it is in 4/4', async () => {
    const choices = { ...NO_CHOICES, meterCorrections: new Map<string, Meter>() };
    const { r, runs } = await runner(choices);
    const w = ph.h.sandbox.world;
    // Two songs at 190–198 BPM (or half that, counted as half-time), both reported in 3/4.
    const [waltz, heard] = catalogTracksIn(ph, 190, 198, 2) as [string, string];
    await ph.tempo.repo.save(
      [waltz, heard].map((id) => {
        const f = w.trackFacts(w.trackG(id)!);
        return {
          key: tempoKey(f),
          isrc: f.isrc,
          spotifyId: f.spotifyId,
          bpm: f.bpm,
          source: 'reccobeats',
          confidence: 0.85,
          alternatives: [{ bpm: f.bpm, source: 'reccobeats', confidence: 0.85 }],
          meter: '3/4' as const,
          meterConfidence: 0.9,
          reason: null,
          retryAt: null,
          resolvedAt: new Date(),
        };
      }),
    );
    ph.h.sandbox.admin.like(r.spotifyUserId, [waltz, heard]);
    choices.meterCorrections.set(tempoKey(w.trackFacts(w.trackG(heard)!)), '4/4');
    const saved = await runs.create(
      r.userId,
      body('Fast waltz?', {
        blocks: [{ kind: 'segment', duration_s: 3600, min_bpm: 188, max_bpm: 200, label: 'Fast' }],
      }),
    );
    expect(saved.segments[0]!.pool).toBe(1);
    const built = (await runs.build(r.userId, saved.run_id)).build!.songs.map((s) => s.track_id);
    expect(built).toEqual([heard]);
  });

  it('keeps a build when the share is spent, says when it can go, and "send" writes it then', async () => {
    const { r, runs, allowCreate } = await runner(NO_CHOICES, { failCreate: true });
    const saved = await runs.create(r.userId, body('Easy Sunday', { blocks: runPreset('easy', 165) }));
    const built = await runs.build(r.userId, saved.run_id);
    expect(built.build!.spotify.state).toBe('waiting');
    expect(built.build!.spotify.message).toBe(
      'Your share of the Spotify calls the runners here share for today is spent: the run is saved here, and "Send to Spotify" writes it to its playlist in about 3 hours.',
    );
    expect(built.build!.songs.length).toBeGreaterThan(8);
    expect(playlistsOf(r)).toEqual([]);
    allowCreate();
    const sent = await runs.send(r.userId, saved.run_id);
    expect(sent.build!.spotify.state).toBe('written');
    expect(sent.build!.songs).toEqual(built.build!.songs);
    expect(items(playlistsOf(r)[0]!.id)).toEqual(built.build!.songs.map((s) => s.track_id));
  });

  it('a run too long for the pool says so before building, and the build is shorter', async () => {
    const { r, runs } = await runner();
    const saved = await runs.create(
      r.userId,
      body('Long fast', {
        blocks: [{ kind: 'segment', duration_s: 4 * 3600, min_bpm: 172, max_bpm: 182, label: 'Fast' }],
      }),
    );
    expect(saved.pool_notes).toHaveLength(1);
    expect(saved.pool_notes[0]).toMatch(
      /^Only \d+ of your songs fit 172–182 BPM, and its 4 h need about \d+: /,
    );
    const built = (await runs.build(r.userId, saved.run_id)).build!;
    expect(built.songs.length).toBe(saved.segments[0]!.pool);
    expect(built.total_s).toBeLessThan(built.songs.length * 300);
  });
});
