// Tempo lookups with a user's Spotify audio-features, against the simulated world in both app modes
// (development mode: 403, remembered; extended quota: one batch call per ≤ 100 tracks), counting the
// requests that reach the simulated Spotify.
import { randomUUID } from 'node:crypto';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { OCTAVE_ERRORS_ONLY, reportMeter, type SandboxOptions } from '@pacebeat/sandbox';
import { testDb } from '../../test/db.ts';
import { createSpotifyModule, type SpotifyModule } from '../spotify/spotify.module.ts';
import { sandboxSpotifyEndpoints } from '../spotify/demo.ts';
import { spotifyAudioFeatures, spotifyAudioFeaturesFor } from './spotify-audio-features.ts';
import { createTempoLookups } from './tempo.jobs.ts';
import type { SourceTempo } from './tempo.service.ts';
import { startTempoHarness, type TempoHarness } from './tempo.test-helper.ts';
import type { TrackInput } from './tempo.service.ts';

let h: TempoHarness | undefined;
let db: ReturnType<typeof testDb> | undefined;
afterEach(async () => {
  await h?.close();
  await db?.close();
  h = db = undefined;
});

/**
 * Every other source knows every track, so answers do not depend on Spotify. Deezer checks every answer
 * (a second source): unlimited here, so a second batch is not deferred by its 50 requests per 5 s.
 */
const OTHERS_KNOW = {
  rateLimit: false as const,
  reccobeats: { coverage: 1 },
  deezer: { coverage: 1, unknownBpmShare: 0, wrongVersionShare: 0, rateLimit: false as const },
};

async function start(sandbox: SandboxOptions) {
  h = await startTempoHarness({ ...OTHERS_KNOW, ...sandbox }, { module: { estimatePreview: undefined } });
  db = testDb();
  const budgetKey = `test-${randomUUID()}`;
  const hh = h;
  const d = db;
  /** A Spotify module on the sandbox: one "process" of the app `budgetKey`. */
  const spotify = () =>
    createSpotifyModule(d.db, {
      spotify: sandboxSpotifyEndpoints(hh.sandbox),
      settings: {
        SPOTIFY_RATE_PER_30S: null,
        SPOTIFY_DAILY_QUOTA: null,
        SPOTIFY_TIMEOUT_SECONDS: 5,
        TOKEN_ENCRYPTION_KEY: 'a'.repeat(64),
        dataDir: '/nonexistent',
      },
      log: pino({ level: 'silent' }),
      budgetKey,
      sleep: async () => undefined,
    });
  const p = spotify();
  const sent: unknown[] = [];
  const lookups = (s: SpotifyModule = p) =>
    createTempoLookups({
      tempo: hh.module.service,
      queue: { send: async (_n, payload) => (sent.push(payload), 'job') },
      audioFeaturesFor: spotifyAudioFeaturesFor(s),
    });
  return { h: hh, p, spotify, lookups, sent };
}

/** A new Pacebeat user connected to a new simulated Spotify user. */
async function connectedUser(hh: TempoHarness, p: SpotifyModule): Promise<string> {
  const rows = await (db as ReturnType<typeof testDb>).db.execute<{ id: string }>(
    sql`insert into users (email, name) values (${`t-${randomUUID()}@example.org`}, 'Runner') returning id`,
  );
  const userId = rows.rows[0]!.id;
  const su = hh.sandbox.admin.createUser({ username: `u${randomUUID().slice(0, 8)}` });
  const token = hh.sandbox.admin.connect({ userId: su.id });
  await p.connect.connect(userId, { ...token, refresh_token: token.refresh_token! });
  return userId;
}

const audioFeatureCalls = (hh: TempoHarness) =>
  hh.sandbox.admin.requests({ service: 'spotify-api' }).filter((r) => r.route.includes('audio-features'));

/** Catalog tracks g = from … from + n - 1 as resolver input. */
function catalogTracks(hh: TempoHarness, from: number, n: number): TrackInput[] {
  const w = hh.sandbox.world;
  return Array.from({ length: n }, (_, i) => {
    const t = w.catalog.track(from + i);
    return {
      spotifyId: w.trackId(from + i),
      isrc: t.isrc,
      artists: t.artists.map((a) => w.catalog.artists[a]?.name ?? ''),
      title: t.name,
      durationMs: t.durationMs,
    };
  });
}

describe('tempo lookups with Spotify audio-features', () => {
  it('development mode: one 403 ever, remembered by every process; the other sources answer', async () => {
    const { h, p, spotify, lookups } = await start({ extendedQuota: false });
    const userId = await connectedUser(h, p);
    const first = await lookups().run(catalogTracks(h, 0, 10), { userId });
    expect(first.found).toBe(10);
    expect(audioFeatureCalls(h).map((r) => r.status)).toEqual([403]);
    // Later jobs, in this process and another one of the same app: no audio-features call at all.
    await lookups().run(catalogTracks(h, 10, 10), { userId });
    await lookups(spotify()).run(catalogTracks(h, 20, 10), { userId });
    expect(audioFeatureCalls(h)).toHaveLength(1);
    const cached = await h.module.repo.getByKeys(
      catalogTracks(h, 0, 30).map((t) => `isrc:${t.isrc!.toUpperCase()}`),
    );
    expect([...cached.values()].every((c) => c.bpm !== null && c.source !== 'spotify')).toBe(true);
    // A forbidden endpoint is not the account's fault: the user stays connected.
    expect((await p.accounts.get(userId))!.disabledReason).toBeNull();
  });

  it('extended quota without audio-features (not used before 2024-11-27): one 403, remembered', async () => {
    const { h, p, lookups } = await start({ extendedQuota: true, audioFeaturesAccess: false });
    const userId = await connectedUser(h, p);
    expect((await lookups().run(catalogTracks(h, 0, 10), { userId })).found).toBe(10);
    await lookups().run(catalogTracks(h, 10, 10), { userId });
    expect(audioFeatureCalls(h).map((r) => r.status)).toEqual([403]);
    expect((await p.accounts.get(userId))!.disabledReason).toBeNull();
  });

  it('extended quota: the tempo comes from Spotify, one batch call per job', async () => {
    const { h, p, lookups } = await start({ extendedQuota: true, audioFeaturesOctaveErrorShare: 0 });
    const userId = await connectedUser(h, p);
    const tracks = catalogTracks(h, 0, 50);
    const answers = await h.module.service.resolveTempos(tracks, {
      audioFeatures: (await spotifyAudioFeaturesFor(p)(userId))!,
    });
    expect(audioFeatureCalls(h).map((r) => [r.route, r.status])).toEqual([
      ['/spotify/api/v1/audio-features', 200],
    ]);
    for (const a of answers.values()) expect(a.alternatives.map((x) => x.source)).toContain('spotify');
    // Through the job: the next batch, again one call.
    const ran = await lookups().run(catalogTracks(h, 50, 50), { userId });
    expect(ran, JSON.stringify(ran)).toMatchObject({ found: 50 });
    expect(audioFeatureCalls(h)).toHaveLength(2);
    // Spent at the lowest priority, counted for the user as tempo work.
    const ledger = await p.budget.ledger({ userKey: userId });
    expect(ledger.find((e) => e.endpoint === 'GET /audio-features')).toMatchObject({
      purpose: 'tempo',
      calls: 2,
    });
  });

  it('extended quota: 150 tracks cost two calls, and the tempos and time signatures are the simulated Spotify’s', async () => {
    const { h, p } = await start({
      extendedQuota: true,
      audioFeaturesOctaveErrorShare: 0,
      tempoErrors: OCTAVE_ERRORS_ONLY,
    });
    const userId = await connectedUser(h, p);
    const ids = catalogTracks(h, 0, 150).map((t) => t.spotifyId);
    const got = await spotifyAudioFeatures(
      p.api({ userId, purpose: 'tempo', priority: 'catalog_expansion' }),
    )(ids);
    expect(audioFeatureCalls(h)).toHaveLength(2);
    expect(got).toBeInstanceOf(Map);
    const w = h.sandbox.world;
    for (const id of ids) {
      const g = w.trackG(id)!;
      const truth = w.catalog.tempoOf(g);
      const answer = (got as Map<string, SourceTempo>).get(id)!;
      expect(Math.abs(Math.log(answer.bpm / truth.bpm))).toBeLessThan(0.05);
      // Its time signature read as the meter Spotify reports (errors included: a label, not the truth).
      expect(answer.meter).toBe(reportMeter(w.seed, w.catalog.recordingOf(g), truth, 'spotify'));
    }
  });

  it('asks Spotify nothing without a user, for a disconnected user, or while the budget says wait', async () => {
    const { h, p, lookups, sent } = await start({ extendedQuota: true });
    const userId = await connectedUser(h, p);
    expect((await lookups().run(catalogTracks(h, 0, 5))).found).toBe(5);
    await p.connect.disconnect(userId);
    expect((await lookups().run(catalogTracks(h, 5, 5), { userId })).found).toBe(5);
    expect(audioFeatureCalls(h)).toHaveLength(0);

    // Daily quota spent (a QUOTA_EXCEEDED cooldown): the job goes on with the other sources.
    const other = await connectedUser(h, p);
    await p.budget.setCooldown((await p.app()).limits.key, 'quota', 3600_000, 'test');
    const before = h.sandbox.admin.requests({ service: 'spotify-api' }).length;
    expect(await lookups().run(catalogTracks(h, 10, 5), { userId: other })).toMatchObject({
      found: 5,
      unknown: 0,
      deferred: 0,
    });
    expect(h.sandbox.admin.requests({ service: 'spotify-api' })).toHaveLength(before);
    expect(sent).toEqual([]); // nothing re-queued: the tracks have their tempo
  });
});
