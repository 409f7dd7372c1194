// The order of what the writer appends (artists spread out, spread.ts) and when it adds while a runner's
// first songs come in, read back from the simulated Spotify's playlists, in order.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempoKey } from '../tempo/tempo.service.ts';
import { losingAnswers } from './network.test-helper.ts';
import {
  catalogCandidate,
  oneEachSong,
  startPlaylistHarness,
  type PlaylistHarness,
  type Runner,
} from '../../test/playlists-harness.ts';
import { bestArtistRun, closestSameArtist, longestArtistRun, SPREAD_WINDOW } from './spread.ts';

let ph: PlaylistHarness;
beforeAll(async () => {
  // A world of 200 artists: these tests need a hundred of them.
  ph = await startPlaylistHarness({ sandbox: { size: 'small' } });
}, 120_000);
afterAll(() => ph.close());

/**
 * Artists handed out in order, so no two tests share a song. From the catalog's last artist down: the
 * tempo cache is shared by every test file, and other files seed true tempos for the catalog's first
 * artists' tracks (`catalogTracksIn`) in the same world; one of them saving its tempo between this file's
 * `seedTempo` and a sync took a song out of the 170–180 playlist (a CI run).
 */
let nextArtist = -1;
/** `n` songs (one track each, no copy or version of another) whose main artist is one artist. */
function songsOfOneArtist(n: number): string[] {
  const w = ph.h.sandbox.world;
  if (nextArtist < 0) nextArtist = w.catalog.artists.length - 1;
  for (; nextArtist >= 1; nextArtist--) {
    const own = w.catalog
      .creditedTracks(nextArtist)
      .filter((g) => w.catalog.track(g).artists[0] === nextArtist)
      .filter((g) => w.catalog.recordingOf(g) === g && w.catalog.heardSongOf(g) === g)
      .map((g) => w.trackId(g));
    const songs = oneEachSong(ph, own);
    if (songs.length >= n) {
      nextArtist--;
      return songs.slice(0, n);
    }
  }
  throw new Error('no artist with that many songs');
}

/** The tracks' tempo as the resolver would cache a checked one, known at `at` (epoch ms). */
async function seedTempo(ids: string[], bpm: number, at: number) {
  const w = ph.h.sandbox.world;
  await ph.tempo.repo.save(
    ids.map((id) => {
      const f = w.trackFacts(w.trackG(id)!);
      return {
        key: tempoKey(f),
        isrc: f.isrc,
        spotifyId: f.spotifyId,
        bpm,
        source: 'reccobeats',
        confidence: 0.9,
        alternatives: [{ bpm, source: 'reccobeats', confidence: 0.9 }],
        reason: null,
        retryAt: null,
        resolvedAt: new Date(at),
      };
    }),
  );
}

const artistsOf = (id: string) => {
  const w = ph.h.sandbox.world;
  return w.catalog.track(w.trackG(id)!).artists.map(String);
};

/** How close two songs sharing an artist come in a playlist (its track ids). */
const closest = (ids: string[]) => closestSameArtist(ids.map(artistsOf));

const adds = (r: Runner) =>
  ph.h.sandbox.admin
    .requests({ service: 'spotify-api', userId: r.spotifyUserId })
    .filter((x) => x.method === 'POST' && /\/playlists\/\w+\/items$/.test(x.url.split('?')[0]!));

describe('the artists of a playlist, spread', () => {
  it('one artist with many songs: no artist twice within the window, within an add and across adds', async () => {
    const band = songsOfOneArtist(12);
    const others = Array.from({ length: 9 }, () => songsOfOneArtist(1)[0]!);
    await seedTempo([...band, ...others], 175, Date.now() - 60_000);
    // In rank order as a catalog lists them: the band's 12 in a row first.
    let candidates = [...band, ...others];
    const r = await ph.runner();
    const writer = r.writer({
      // The window as it is once a runner has 50 songs placed (before, it may shrink to 2: spread.test.ts).
      settings: { spreadWindow: SPREAD_WINDOW, spreadWindowFilling: SPREAD_WINDOW },
      listMatchCandidates: async () => candidates.map((id, rank) => catalogCandidate(ph, id, rank, true)),
    });
    expect(await writer.sync(r.userId)).toMatchObject({ status: 'done' });
    const first = r.playlists().get('Pacebeat 170–180 BPM')!;
    expect(closest(first)).toBeGreaterThan(SPREAD_WINDOW);
    // Every other artist went; the band as often as the window allows, the rest of it waits for company.
    expect(first.filter((id) => others.includes(id)).sort()).toEqual([...others].sort());
    expect(first.filter((id) => band.includes(id))).toHaveLength(2);

    // Later, other artists' songs: the band's waiting songs go between them, still apart from the end
    // of what the playlist holds.
    const more = Array.from({ length: 12 }, () => songsOfOneArtist(1)[0]!);
    await seedTempo(more, 175, Date.now() - 60_000);
    candidates = [...candidates, ...more];
    expect(await writer.sync(r.userId)).toMatchObject({ status: 'done' });
    const second = r.playlists().get('Pacebeat 170–180 BPM')!;
    expect(second.slice(0, first.length)).toEqual(first); // nothing already there moves
    expect(adds(r)).toHaveLength(2);
    expect(closest(second)).toBeGreaterThan(SPREAD_WINDOW);
    expect(second.filter((id) => band.includes(id)).length).toBeGreaterThan(2);
    expect(new Set(second).size).toBe(second.length);
  });

  it('a held song that a newcomer keeps company waits with it for the add, not a call of its own', async () => {
    const band = songsOfOneArtist(12);
    const others = Array.from({ length: 9 }, () => songsOfOneArtist(1)[0]!);
    let clock = Date.now();
    await seedTempo([...band, ...others], 175, clock - 600_000);
    let candidates = [...band, ...others];
    const r = await ph.runner();
    const writer = r.writer({
      now: () => clock,
      settings: { spreadWindow: SPREAD_WINDOW, spreadWindowFilling: SPREAD_WINDOW, maxWaitMs: 120_000 },
      listMatchCandidates: async () => candidates.map((id, rank) => catalogCandidate(ph, id, rank, true)),
    });
    await writer.sync(r.userId);
    const first = r.playlists().get('Pacebeat 170–180 BPM')!;
    expect(adds(r)).toHaveLength(1);

    // One new artist's song: it lets a band song go after it, and both wait for company (2 minutes).
    const [newcomer] = [songsOfOneArtist(1)[0]!];
    clock += 1_000;
    await seedTempo([newcomer!], 175, clock);
    candidates = [...candidates, newcomer!];
    expect(await writer.sync(r.userId)).toMatchObject({
      status: 'done',
      added: 0,
      followUpAt: new Date(clock + 120_000),
    });
    expect(adds(r)).toHaveLength(1);
    clock += 120_000;
    expect(await writer.sync(r.userId)).toMatchObject({ status: 'done', added: 2 });
    const second = r.playlists().get('Pacebeat 170–180 BPM')!;
    expect(second.slice(first.length)).toEqual([
      newcomer,
      expect.toSatisfy((id: string) => band.includes(id)),
    ]);
    expect(closest(second)).toBeGreaterThan(SPREAD_WINDOW);
  });

  it('a playlist of only 2 artists: every song is placed, in the shortest runs they allow', async () => {
    const a = songsOfOneArtist(8);
    const b = songsOfOneArtist(3);
    await seedTempo([...a, ...b], 175, Date.now() - 60_000);
    const r = await ph.runner();
    const writer = r.writer({
      settings: { spreadWindow: SPREAD_WINDOW },
      listMatchCandidates: async () => [...a, ...b].map((id, rank) => catalogCandidate(ph, id, rank, true)),
    });
    expect(await writer.sync(r.userId)).toMatchObject({ status: 'done', added: 11 });
    const list = r.playlists().get('Pacebeat 170–180 BPM')!;
    expect([...list].sort()).toEqual([...a, ...b].sort());
    expect(longestArtistRun(list.map(artistsOf))).toBe(bestArtistRun(list.map(artistsOf))); // 2
  });

  it('a newcomer’s songs whose tempos other runners found days ago still wait for company', async () => {
    // Three artists, one of them with most of the songs; their tempos cached two days before this runner
    // connected (a shared installation): not overdue for a pace made today.
    const band = songsOfOneArtist(8);
    const others = [songsOfOneArtist(1)[0]!, songsOfOneArtist(1)[0]!];
    await seedTempo([...band, ...others], 175, Date.now() - 2 * 86_400_000);
    const r = await ph.runner();
    const writer = r.writer({
      settings: { spreadWindow: SPREAD_WINDOW },
      listMatchCandidates: async () =>
        [...band, ...others].map((id, rank) => catalogCandidate(ph, id, rank, true)),
    });
    await writer.sync(r.userId);
    const list = r.playlists().get('Pacebeat 170–180 BPM')!;
    expect(longestArtistRun(list.map(artistsOf))).toBe(2); // bb x bb y bb: the rest waits
    expect(list.filter((id) => band.includes(id))).toHaveLength(6);
  });

  it('once the library is read and every track looked up, held songs go at once, in the best order', async () => {
    // The newcomer of the test above, with a library read to its end: no company is coming, so nothing
    // waits its day for it; while one track is still being looked up, the band's songs wait as before.
    const band = songsOfOneArtist(8);
    const others = [songsOfOneArtist(1)[0]!, songsOfOneArtist(1)[0]!];
    const pending = songsOfOneArtist(1)[0]!; // no tempo yet: a lookup under way
    await seedTempo([...band, ...others], 175, Date.now() - 60_000);
    let candidates = [...band, ...others, pending];
    let read = true;
    const r = await ph.runner();
    const writer = r.writer({
      settings: { spreadWindow: SPREAD_WINDOW },
      listMatchCandidates: async () => candidates.map((id, rank) => catalogCandidate(ph, id, rank, true)),
      libraryRead: async () => read,
    });
    await writer.sync(r.userId);
    let list = r.playlists().get('Pacebeat 170–180 BPM')!;
    expect(list.filter((id) => band.includes(id))).toHaveLength(6); // a lookup under way: the rest waits

    // The lookup done (its track fits no pace), but a source still to read: still waiting.
    await seedTempo([pending], 120, Date.now());
    read = false;
    await writer.sync(r.userId);
    expect(r.playlists().get('Pacebeat 170–180 BPM')).toEqual(list);

    // Everything read and looked up: the band's last 2 go now, after the playlist's last two (nothing else
    // is left to put between them: what their day's wait would have ended in).
    read = true;
    await writer.sync(r.userId);
    const after = r.playlists().get('Pacebeat 170–180 BPM')!;
    expect(after.slice(0, list.length)).toEqual(list);
    expect([...after].sort()).toEqual([...band, ...others].sort());

    // A library read before its first fill: all at once, in the shortest runs the songs allow.
    const band2 = songsOfOneArtist(8);
    const others2 = [songsOfOneArtist(1)[0]!, songsOfOneArtist(1)[0]!];
    await seedTempo([...band2, ...others2], 175, Date.now() - 60_000);
    candidates = [...band2, ...others2];
    const r2 = await ph.runner();
    await r2
      .writer({
        settings: { spreadWindow: SPREAD_WINDOW },
        listMatchCandidates: async () => candidates.map((id, rank) => catalogCandidate(ph, id, rank, true)),
        libraryRead: async () => true,
      })
      .sync(r2.userId);
    list = r2.playlists().get('Pacebeat 170–180 BPM')!;
    expect([...list].sort()).toEqual([...band2, ...others2].sort());
    expect(longestArtistRun(list.map(artistsOf))).toBe(bestArtistRun(list.map(artistsOf))); // 3
  });

  it('an add in spread order whose answer was lost is read back as sent, not repeated', async () => {
    const band = songsOfOneArtist(8);
    const others = Array.from({ length: 8 }, () => songsOfOneArtist(1)[0]!);
    await seedTempo([...band, ...others], 175, Date.now() - 60_000);
    const net = losingAnswers({ method: 'POST', path: /\/playlists\/\w+\/items$/, mode: 'reset' });
    const r = await ph.runner({ process: { fetch: net.fetch } });
    const writer = r.writer({
      settings: { spreadWindow: SPREAD_WINDOW, spreadWindowFilling: SPREAD_WINDOW },
      listMatchCandidates: async () =>
        [...band, ...others].map((id, rank) => catalogCandidate(ph, id, rank, true)),
    });
    await writer.sync(r.userId);
    expect(net.lost()).toBe(1);
    const [target] = (await ph.repo.listTargets(r.userId)).filter((t) => t.state === 'active');
    expect((await ph.repo.tracksOf(target!.id, ['pending'])).length).toBeGreaterThan(0);
    await writer.sync(r.userId);
    const list = r.playlists().get('Pacebeat 170–180 BPM')!;
    expect(adds(r)).toHaveLength(1); // the lost one was found at the end of the playlist, as sent
    expect((await ph.repo.tracksOf(target!.id)).map((x) => [x.trackId, x.state])).toEqual(
      list.map((id) => [id, 'added']),
    );
    expect(new Set(list).size).toBe(list.length);
    expect(closest(list)).toBeGreaterThan(SPREAD_WINDOW);
  });
});

describe('adds while a runner has fewer than 50 songs placed', () => {
  it('go as soon as a few songs are ready; once 50 are placed, they wait for company', async () => {
    // One song per artist, so the spread holds none back; a clock the test moves.
    const songs = Array.from({ length: 75 }, () => songsOfOneArtist(1)[0]!);
    let clock = Date.now();
    let known: string[] = [];
    const r = await ph.runner();
    const writer = r.writer({
      now: () => clock,
      settings: {
        firstFill: 50,
        firstFillWaitMs: 15_000,
        maxWaitMs: 120_000,
        fillMin: 5,
        fillWaitMs: 60_000,
        spreadWindow: SPREAD_WINDOW,
      },
      listMatchCandidates: async () => known.map((id, rank) => catalogCandidate(ph, id, rank, true)),
    });
    // The first fill: 3 songs whose tempos came a minute ago.
    await seedTempo(songs.slice(0, 3), 175, clock - 60_000);
    known = songs.slice(0, 3);
    expect(await writer.sync(r.userId)).toMatchObject({ status: 'done', added: 3 });
    expect(adds(r)).toHaveLength(1);

    // Then tempos one by one, a second apart: an add at every fifth, none waiting 2 minutes.
    const followUps: Array<number | null> = [];
    for (const id of songs.slice(3, 13)) {
      clock += 1_000;
      await seedTempo([id], 175, clock);
      known = [...known, id];
      const res = await writer.sync(r.userId);
      followUps.push(res.status === 'done' ? (res.followUpAt?.getTime() ?? null) : -1);
    }
    expect(adds(r)).toHaveLength(3);
    expect(r.playlists().get('Pacebeat 170–180 BPM')).toHaveLength(13);
    // While fewer than 5 wait in a playlist that has songs, the next look is a minute after the oldest (the
    // whole `fillWaitMs`: no rate is known here), not the 2-minute wait.
    expect(followUps[0]).toBe(clock - 9_000 + 60_000);

    // 50 placed (a burst that waited long enough), then tempos one by one again: they wait for company.
    await seedTempo(songs.slice(13, 60), 175, clock - 300_000);
    known = [...known, ...songs.slice(13, 60)];
    await writer.sync(r.userId);
    expect(r.playlists().get('Pacebeat 170–180 BPM')!.length).toBeGreaterThanOrEqual(50);
    const before = adds(r).length;
    const start = clock;
    let last: Awaited<ReturnType<typeof writer.sync>> | undefined;
    for (const id of songs.slice(60, 70)) {
      clock += 1_000;
      await seedTempo([id], 175, clock);
      known = [...known, id];
      last = await writer.sync(r.userId);
    }
    expect(adds(r)).toHaveLength(before);
    expect(last).toMatchObject({ status: 'done', added: 0, followUpAt: new Date(start + 1_000 + 120_000) });
  });
});
