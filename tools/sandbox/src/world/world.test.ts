// The generated world: deterministic from the seed, realistic in its counts, names and tempos.
import { describe, expect, it } from 'vitest';
import { World } from './world.ts';
import { IdCodec } from './ids.ts';
import { allTitleCodes, songKey, titleKeyId, titleText } from './names.ts';

const NOW = Date.UTC(2026, 10, 1);

describe('world generation', () => {
  const w = new World({ seed: 1, size: 'default', now: NOW });

  it('is the same world for the same seed and another for another seed', () => {
    const again = new World({ seed: 1, size: 'default', now: NOW });
    const other = new World({ seed: 2, size: 'default', now: NOW });
    const fingerprint = (x: World) =>
      [0, 500, 5000, 50000].map(
        (g) => `${x.trackId(g)} ${x.catalog.track(g).name} ${x.catalog.tempoOf(g).bpm}`,
      );
    expect(fingerprint(again)).toEqual(fingerprint(w));
    expect(fingerprint(other)).not.toEqual(fingerprint(w));
    expect(again.users.map((u) => u.liked.length)).toEqual(w.users.map((u) => u.liked.length));
  });

  it('names tracks the same whatever order their releases are first read in', () => {
    const a = new World({ seed: 3, size: 'tiny', now: NOW });
    const b = new World({ seed: 3, size: 'tiny', now: NOW });
    const rs = a.catalog.releases.map((r) => r.r);
    const names = (x: World, order: number[]) => {
      const out = new Map<number, string>();
      for (const r of order) for (const t of x.catalog.tracksOf(r)) out.set(t.g, `${t.name} ${t.isrc}`);
      return [...out].sort((p, q) => p[0] - q[0]);
    };
    expect(names(b, [...rs].reverse())).toEqual(names(a, rs));
  });

  it('tells what a client knows of a track and its true tempo (the ground truth of tempo lookups)', () => {
    const g = w.users.find((u) => u.liked.length > 0)!.liked[0]!.g;
    const f = w.trackFacts(g);
    const t = w.catalog.track(g);
    expect(f).toEqual({
      spotifyId: w.trackId(g),
      isrc: t.isrc,
      artists: t.artists.map((i) => w.catalog.artists[i]!.name),
      title: t.name,
      durationMs: t.durationMs,
      bpm: w.catalog.tempoOf(g).bpm,
    });
    expect(w.songOf(f.spotifyId)).toBe(w.trackId(w.catalog.heardSongOf(g)));
    expect(w.trackG(f.spotifyId)).toBe(g);
    expect(f.artists.every((n) => n.length > 0)).toBe(true);
  });

  it('has Spotify-style ids that decode back and reject ids it never issued', () => {
    const codec = new IdCodec(1);
    for (const n of [0, 1, 123456, 2 ** 40]) {
      const id = codec.encode('track', n);
      expect(id).toMatch(/^[0-9A-Za-z]{22}$/);
      expect(codec.decode('track', id)).toBe(n);
      expect(codec.decode('album', id)).toBeUndefined();
    }
    expect(codec.decode('track', '4iV5W9uYEdYUVa79Axb7Rh')).toBeUndefined();
  });

  it('has catalogs of realistic size: most artists 5-40 releases, a few over 100, with appears-on releases', () => {
    const counts = w.catalog.artists.slice(1).map((a) => a.releases.length);
    const mid = counts.filter((c) => c >= 5 && c <= 40).length / counts.length;
    expect(mid).toBeGreaterThan(0.7);
    expect(counts.filter((c) => c >= 100).length).toBeGreaterThan(5);
    expect(w.catalog.artists.filter((a) => a.appearsOn.length > 0).length).toBeGreaterThan(100);
    const kinds = new Set(w.catalog.releases.map((r) => r.kind));
    expect([...kinds].sort()).toEqual(['compilation', 'ep', 'live', 'remaster', 'single', 'studio', 'va']);
  });

  it('names tracks with features, live and remastered versions and non-Latin scripts; ISRCs resolve', () => {
    const names: string[] = [];
    for (let g = 0; g < 20000; g += 3) names.push(w.catalog.track(g).name);
    expect(names.some((n) => / \(feat\. .+\)$/.test(n))).toBe(true);
    expect(names.some((n) => n.endsWith(' - Live'))).toBe(true);
    expect(names.some((n) => /- Remastered \d{4}$/.test(n))).toBe(true);
    expect(names.some((n) => /[\u3040-\u30ff\uac00-\ud7af\u0400-\u04ff]/.test(n))).toBe(true);
    const t = w.catalog.track(777);
    expect(t.isrc).toMatch(/^[A-Z]{2}[A-Z0-9]{3}\d{7}$/);
    expect(w.catalog.trackByIsrc(t.isrc)).toBe(t.recording);
  });

  it('draws true tempos mostly between 80 and 180, compilation copies keep the tempo of their recording', () => {
    const bpms: number[] = [];
    for (let g = 0; g < w.catalog.trackTotal; g += 11) bpms.push(w.catalog.tempoOf(g).bpm);
    const inRange = bpms.filter((b) => b >= 80 && b <= 180).length / bpms.length;
    expect(inRange).toBeGreaterThan(0.75);
    expect(bpms.some((b) => b < 75)).toBe(true);
    expect(bpms.some((b) => b > 185)).toBe(true);
    const comp = w.catalog.releases.find((r) => r.kind === 'compilation')!;
    const g = comp.firstG;
    expect(w.catalog.tempoOf(g)).toEqual(w.catalog.tempoOf(w.catalog.recordingOf(g)));
    expect(w.catalog.track(g).isrc).toBe(w.catalog.track(w.catalog.recordingOf(g)).isrc);
  });

  it('compares title codes as their titles: equal key numbers exactly for equal song keys', () => {
    const byKey = new Map<string, number>();
    const byId = new Map<number, string>();
    const codes = allTitleCodes();
    for (const c of [...codes, ...codes.slice(0, 50).map((x) => x + 3 * 2 ** 24)]) {
      const key = songKey(titleText(c));
      const id = titleKeyId(c);
      expect(byKey.get(key) ?? id).toBe(id);
      expect(byId.get(id) ?? key).toBe(key);
      byKey.set(key, id);
      byId.set(id, key);
    }
    expect(codes.length).toBeGreaterThan(8000);
    expect(byKey.size).toBeLessThan(codes.length + 50); // "Zoe" and "Zoë", the two "Electric"s
  });

  it('gives no artist two unrelated songs of one title (case, accents, feat. and version suffixes aside)', () => {
    const cat = w.catalog;
    let checked = 0;
    for (const a of cat.artists.slice(1)) {
      const songs = new Map<string, number>();
      for (const g of cat.creditedTracks(a.i)) {
        if (cat.releaseOf(g).kind === 'live') continue; // "X - Live" is its own song, of X's title
        const key = songKey(cat.track(g).name);
        const song = cat.heardSongOf(g);
        const before = songs.get(key);
        if (before !== undefined && before !== song)
          expect.fail(`${a.name}: "${cat.track(g).name}" is two songs (${before}, ${song})`);
        songs.set(key, song);
        checked++;
      }
    }
    expect(checked).toBeGreaterThan(100_000);
  });

  it('holds a song under several recordings: single and album versions, radio edits, remasters', () => {
    const cat = w.catalog;
    const kinds = new Map<string, number>();
    let albumSongs = 0;
    let versioned = 0;
    for (const rel of cat.releases) if (rel.kind === 'studio') albumSongs += rel.trackCount;
    for (const [g, v] of cat.versions) {
      expect(cat.versionedBy.get(v.of)).toBe(g);
      if (cat.releaseOf(v.of).kind === 'studio') versioned++;
      kinds.set(v.kind, (kinds.get(v.kind) ?? 0) + 1);
      if (kinds.get(v.kind)! > 50) continue;
      // Another recording of the same song: its own ISRC and id, the same artists, title and tempo.
      const version = cat.track(g);
      const original = cat.track(v.of);
      expect(version.isrc).not.toBe(original.isrc);
      expect(cat.recordingOf(g)).toBe(g);
      expect(version.artists).toEqual(original.artists);
      expect(songKey(version.name)).toBe(songKey(original.name));
      expect(w.songOf(w.trackId(g))).toBe(w.trackId(v.of));
      expect(w.songOf(w.trackId(v.of))).toBe(w.trackId(v.of));
      const tempo = cat.tempoOf(g).bpm / cat.tempoOf(v.of).bpm;
      expect(Math.abs(tempo - 1)).toBeLessThanOrEqual(0.0031);
      const length = version.durationMs / original.durationMs;
      if (v.kind === 'radio-edit') {
        expect(version.name).toMatch(/ - Radio Edit$/);
        expect(length).toBeGreaterThanOrEqual(0.7);
        expect(length).toBeLessThanOrEqual(0.95);
      } else if (v.kind === 'album-version') {
        expect(original.name).toMatch(/ - Album Version$/);
        expect(length).toBeLessThan(1);
      } else if (v.kind === 'single') {
        expect(version.name).toBe(original.name);
        expect(Math.abs(version.durationMs - original.durationMs)).toBeLessThanOrEqual(4000);
      }
      expect(cat.songTracks(g)).toContain(g);
    }
    expect([...kinds.keys()].sort()).toEqual([
      'album-version',
      'mono',
      'radio-edit',
      'single',
      'single-version',
    ]);
    // About a tenth of album songs also come out on a single or an EP, as another recording.
    expect(versioned / albumSongs).toBeGreaterThan(0.08);
    expect(versioned / albumSongs).toBeLessThan(0.15);

    // A remaster is the original's song (±2 s, same tempo); a live take is a song of its own.
    const remaster = cat.releases.find((r) => r.kind === 'remaster')!;
    const src = remaster.sources![0]!;
    const re = cat.track(remaster.firstG);
    expect(re.name).toMatch(/ - (Remastered( \d{4})?|\d{4} Remaster)$/);
    expect(re.isrc).not.toBe(cat.track(src).isrc);
    expect(Math.abs(re.durationMs - cat.track(src).durationMs)).toBeLessThanOrEqual(2000);
    expect(cat.tempoOf(remaster.firstG)).toEqual(cat.tempoOf(src));
    expect(w.songOf(w.trackId(remaster.firstG))).toBe(w.songOf(w.trackId(src)));
    const live = cat.releases.find((r) => r.kind === 'live')!;
    expect(w.songOf(w.trackId(live.firstG))).toBe(w.trackId(live.firstG));
    expect(w.songOf(w.trackId(live.firstG))).not.toBe(w.songOf(w.trackId(live.sources![0]!)));
    // Compilation copies are the same recording, so the same song.
    const comp = cat.releases.find((r) => r.kind === 'compilation')!;
    expect(w.songOf(w.trackId(comp.firstG))).toBe(w.songOf(w.trackId(comp.sources![0]!)));
    expect(w.songOf('not an id')).toBeUndefined();
  });

  it("puts one song twice in ana.runs's library: a liked single's version, the album's track in a playlist", () => {
    for (const size of ['tiny', 'default'] as const) {
      const x = size === 'default' ? w : new World({ seed: 1, size, now: NOW });
      const ana = x.user('ana.runs')!;
      const liked = new Map(ana.liked.map((l) => [x.catalog.heardSongOf(l.g), l.g]));
      // Her first playlist (the one with local files).
      const first = x.playlists.find((p) => p.owner === ana.index)!;
      expect(first.entries.some((e) => e.local)).toBe(true);
      const twice = first.entries.filter(
        (e) =>
          e.g !== undefined &&
          liked.has(x.catalog.heardSongOf(e.g)) &&
          liked.get(x.catalog.heardSongOf(e.g)) !== e.g,
      );
      expect(twice.length).toBeGreaterThan(0);
      const other = liked.get(x.catalog.heardSongOf(twice[0]!.g!))!;
      expect(x.catalog.recordingOf(other)).not.toBe(x.catalog.recordingOf(twice[0]!.g!));
    }
  });

  it('can hold a large user with 10,000 liked songs and 400 followed artists', () => {
    const large = new World({ seed: 1, size: 'large', now: NOW });
    const max = large.user('max.miles')!;
    expect(max.liked).toHaveLength(10_000);
    expect(max.followedArtists).toHaveLength(400);
    expect(new Set(max.liked.map((l) => l.g)).size).toBe(10_000);
  });
});
