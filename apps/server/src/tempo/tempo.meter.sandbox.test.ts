// Each source's time signature, read from the simulated services and weighed into the meter: ReccoBeats
// (which mirrors Spotify's audio-features, errors included) and GetSongBPM's time_sig, each a label
// with the world's realistic errors, never the truth itself.
import { afterEach, describe, expect, it } from 'vitest';
import { OCTAVE_ERRORS_ONLY, reportMeter } from '@pacebeat/sandbox';
import { decideMeter } from './meter.ts';
import { startTempoHarness, type TempoHarness } from './tempo.test-helper.ts';

let h: TempoHarness | undefined;
afterEach(async () => {
  await h?.close();
  h = undefined;
});

describe('time signatures from the sources', () => {
  it('reads ReccoBeats’ time_signature and GetSongBPM’s time_sig as labels and decides the meter from them', async () => {
    // No Deezer (so no preview, and GetSongBPM is asked for every track): the meter is the labels'.
    h = await startTempoHarness(
      { tempoErrors: OCTAVE_ERRORS_ONLY, reccobeats: { coverage: 1 }, deezer: { coverage: 0 } },
      { settings: { GETSONGBPM_API_KEY: 'sandbox-key', GETSONGBPM_RATE_PER_HOUR: '10000' } },
    );
    const { tracks } = h.liked('ana.runs', 30);
    const answers = await h.module.service.resolveTempos(tracks);
    const w = h.sandbox.world;
    let recco = 0;
    let gsb = 0;
    for (const t of tracks) {
      const a = answers.get(t.spotifyId);
      expect(a, t.spotifyId).toBeDefined();
      const g = w.trackG(t.spotifyId)!;
      const truth = w.catalog.tempoOf(g);
      for (const alt of a!.alternatives) {
        if (alt.source === 'reccobeats') {
          recco++;
          expect(alt.meter).toBe(reportMeter(w.seed, w.catalog.recordingOf(g), truth, 'spotify'));
        }
        if (alt.source === 'getsongbpm') {
          gsb++;
          expect(alt.meter).toBe(reportMeter(w.seed, w.catalog.track(g).song, truth, 'getsongbpm'));
        }
      }
      // Weighed (meter.ts), not copied: ReccoBeats and GetSongBPM are independent analyses.
      const d = decideMeter(a!.alternatives);
      expect(a!.meter ?? null).toBe(d.meter);
      expect(a!.meterConfidence ?? 0).toBe(d.confidence);
    }
    expect(recco).toBeGreaterThanOrEqual(20);
    expect(gsb, JSON.stringify([...h.requests])).toBeGreaterThanOrEqual(5);

    // Cached with the tempo: a second lookup answers the same meter without asking anyone.
    const again = await h.module.service.resolveTempos(tracks);
    for (const t of tracks) {
      if (answers.get(t.spotifyId)?.status === 'deferred') continue; // not cached: asked again
      expect(again.get(t.spotifyId)?.cached).toBe(true);
      expect(again.get(t.spotifyId)?.meter ?? null).toBe(answers.get(t.spotifyId)?.meter ?? null);
    }
  });
});
