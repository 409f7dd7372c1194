// The generated world: deterministic from the seed, realistic in its counts, names and tempos.
import { describe, expect, it } from 'vitest';
import { World } from './world.ts';
import { IdCodec } from './ids.ts';

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

  it('can hold a large user with 10,000 liked songs and 400 followed artists', () => {
    const large = new World({ seed: 1, size: 'large', now: NOW });
    const max = large.user('max.miles')!;
    expect(max.liked).toHaveLength(10_000);
    expect(max.followedArtists).toHaveLength(400);
    expect(new Set(max.liked.map((l) => l.g)).size).toBe(10_000);
  });
});
