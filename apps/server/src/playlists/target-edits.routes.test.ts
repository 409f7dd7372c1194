// The target-editing API through app.inject, with the real accounts, Spotify and library modules and the
// in-process sandbox: editing targets (validation, 404 for another user's, sudo reads but never writes),
// "refresh now" (queued, and when it runs while Spotify's budget is spent) and the tempo chart's data.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorReply,
  RefreshReply,
  RemoveUnfittingReply,
  REQUEST_TEXTS,
  TARGET_TEXTS,
  TargetReply,
  TargetsReply,
  TempoHistogramReply,
} from '@pacebeat/contract';
import { createAccountsModule } from '../accounts/accounts.module.ts';
import { loadConfig } from '../app/config.ts';
import { buildApp } from '../app/http-app.ts';
import { createRefreshService } from '../library/refresh.service.ts';
import { startLibraryHarness, type LibraryHarness, type LibraryProcess } from '../../test/library-harness.ts';
import { createTempoHistogramRepository } from '../library/tempo-histogram.repository.ts';
import { createTempoRepository } from '../tempo/tempo.repository.ts';
import { testOrigins, signUpThroughApi } from '../../test/accounts-app.ts';
import { createPlaylistsRepository } from './playlists.repository.ts';
import { createPlaylistsService } from './playlists.service.ts';
import { createTargetEditor } from './target-editor.service.ts';

let h: LibraryHarness;
let p: LibraryProcess;
let app: Awaited<ReturnType<typeof buildApp>>;
let service: ReturnType<typeof createPlaylistsService>;
const adminEmail = `admin-${randomUUID()}@example.org`;
const triggered: string[] = [];
/** When Spotify work resumes (a spent daily quota), as the Spotify module would say. */
let pausedUntil: Date | null = null;

beforeAll(async () => {
  h = await startLibraryHarness({ seed: 10_909 });
  p = h.libraryProcess();
  const log = pino({ level: 'silent' });
  const config = loadConfig({ ADMIN_EMAILS: adminEmail });
  const accounts = createAccountsModule(h.db.db, { settings: { ...config, embedded: false }, log });
  const repo = createPlaylistsRepository(h.db.db);
  const trigger = async (userId: string) => void triggered.push(userId);
  service = createPlaylistsService({ repo, trigger });
  const refresh = createRefreshService({
    repo: p.library.repo,
    histogram: createTempoHistogramRepository(h.db.db),
    wake: async (userId) => void h.wakes.push({ userId }),
    workWait: async () => (pausedUntil ? { until: pausedUntil, reason: 'spotify' as const } : null),
    minConfidence: 0.76,
  });
  app = await buildApp(
    {
      webDistDir: path.join(os.tmpdir(), 'pacebeat-no-web-build'),
      origins: testOrigins(config),
      checkReady: async () => undefined,
      accounts: { accounts: accounts.accounts, sessions: accounts.sessions },
      spotify: { spotify: p.spotify.connect, limits: accounts.limits },
      library: { library: p.library.service, refresh },
      playlists: { playlists: service, editor: createTargetEditor({ repo, trigger }) },
      actionLimits: accounts.limits,
    },
    { loggerInstance: log },
  );
});
afterAll(async () => {
  await app.close();
  await h.close();
});

/** A signed-in user connected to a new simulated Spotify user (12 liked songs), with the default targets. */
async function runner(email = `r-${randomUUID()}@example.org`, connect = true) {
  const { cookie, userId } = await signUpThroughApi(app, { email, verified: email === adminEmail });
  if (connect) {
    const spotifyUser = h.spotifyUser({ liked: 12, owned: 1, favouriteArtists: 2 });
    const token_info = h.sandbox.admin.connect({ userId: spotifyUser.id });
    const put = await app.inject({
      method: 'PUT',
      url: '/api/spotify/connect',
      headers: { cookie },
      payload: { token_info },
    });
    expect(put.statusCode, put.body).toBe(200);
    await service.createDefaultTargets(userId);
  }
  return { cookie, email, userId };
}

const call = (method: 'GET' | 'POST' | 'PATCH' | 'DELETE', url: string, cookie?: string, payload?: unknown) =>
  app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const listTargets = async (cookie: string) =>
  TargetsReply.parse((await call('GET', '/api/spotify/targets', cookie)).json()).data.targets;
const errorOf = (res: { json(): unknown }) => ErrorReply.parse(res.json()).error;

describe('editing targets through the API', () => {
  it('adds a target with filters, edits it, and deletes it (the playlist stays)', async () => {
    const r = await runner();
    const add = await call('POST', '/api/spotify/targets', r.cookie, {
      name: 'Easy <5:30/km>',
      min_bpm: 160,
      max_bpm: 166,
      filters: { no_explicit: true, max_duration_s: 420 },
    });
    expect(add.statusCode, add.body).toBe(200);
    const made = TargetReply.parse(add.json()).data.target;
    expect(made).toMatchObject({
      target: 'Easy <5:30/km>',
      bpms: { min: 160, max: 166 },
      public_url: null,
      filters: {
        no_explicit: true,
        max_duration_s: 420,
        min_duration_s: null,
        liked_only: false,
        meters_included: [],
      },
    });
    expect(triggered).toContain(r.userId);
    // Overlapping ranges are allowed.
    expect((await listTargets(r.cookie)).map((t) => t.bpms.min)).toEqual([150, 160, 170, 180, 160]);

    const edit = await call('PATCH', `/api/spotify/targets/${made.target_id}`, r.cookie, {
      max_bpm: 168,
      filters: { liked_only: true },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(TargetReply.parse(edit.json()).data.target).toMatchObject({
      target: 'Easy <5:30/km>', // a name of the runner's own does not follow the range
      bpms: { min: 160, max: 168 },
      filters: { no_explicit: true, liked_only: true, max_duration_s: 420 },
    });

    const del = await call('DELETE', `/api/spotify/targets/${made.target_id}`, r.cookie);
    expect(del.statusCode, del.body).toBe(200);
    expect((await listTargets(r.cookie)).map((t) => t.target_id)).not.toContain(made.target_id);
    expect((await call('DELETE', `/api/spotify/targets/${made.target_id}`, r.cookie)).statusCode).toBe(404);

    const rm = await call(
      'POST',
      `/api/spotify/targets/${(await listTargets(r.cookie))[0]!.target_id}/remove_unfitting`,
      r.cookie,
      {},
    );
    expect(rm.statusCode, rm.body).toBe(200);
    expect(RemoveUnfittingReply.parse(rm.json()).data.marked).toBe(0);
  });

  it.each([
    ['a range below 60', { min_bpm: 59, max_bpm: 100 }],
    ['a range above 220', { min_bpm: 200, max_bpm: 221 }],
    ['min not below max', { min_bpm: 170, max_bpm: 170 }],
    ['no range', { name: 'x' }],
    ['an empty name', { name: '   ', min_bpm: 150, max_bpm: 160 }],
    ['a name too long', { name: 'x'.repeat(101), min_bpm: 150, max_bpm: 160 }],
    ['a name with a line break', { name: 'a\nb', min_bpm: 150, max_bpm: 160 }],
    ['a BPM as text', { min_bpm: '150', max_bpm: 160 }],
    ['an unknown field', { min_bpm: 150, max_bpm: 160, colour: 'red' }],
    [
      'durations the wrong way round',
      { min_bpm: 150, max_bpm: 160, filters: { min_duration_s: 300, max_duration_s: 200 } },
    ],
    ['a negative duration', { min_bpm: 150, max_bpm: 160, filters: { min_duration_s: -1 } }],
    ['4/4 as a meter to let in', { min_bpm: 150, max_bpm: 160, filters: { meters_included: ['4/4'] } }],
    ['an unknown meter', { min_bpm: 150, max_bpm: 160, filters: { meters_included: ['9/8'] } }],
    ['a meter twice', { min_bpm: 150, max_bpm: 160, filters: { meters_included: ['3/4', '3/4'] } }],
    ['meters as text', { min_bpm: 150, max_bpm: 160, filters: { meters_included: '3/4' } }],
  ])('refuses %s with 400 and a message', async (_label, payload) => {
    const r = await runner(undefined, false);
    const res = await call('POST', '/api/spotify/targets', r.cookie, payload);
    expect(res.statusCode, res.body).toBe(400);
    expect(errorOf(res).message.length).toBeGreaterThan(0);
  });

  it('lets a target take songs in 3/4 or 6/8 (stored in one order), and takes them out again', async () => {
    const r = await runner();
    const id = (await listTargets(r.cookie))[0]!.target_id;
    const edit = await call('PATCH', `/api/spotify/targets/${id}`, r.cookie, {
      filters: { meters_included: ['6/8', '3/4'] },
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(TargetReply.parse(edit.json()).data.target.filters).toMatchObject({
      no_explicit: false,
      meters_included: ['3/4', '6/8'],
    });
    expect(triggered).toContain(r.userId);
    expect((await listTargets(r.cookie))[0]!.filters?.meters_included).toEqual(['3/4', '6/8']);
    const bad = await call('PATCH', `/api/spotify/targets/${id}`, r.cookie, {
      filters: { meters_included: ['5/4', '4/4'] },
    });
    expect(bad.statusCode).toBe(400);
    expect(errorOf(bad).message).toMatch(/meters_included/);
    const off = await call('PATCH', `/api/spotify/targets/${id}`, r.cookie, {
      filters: { meters_included: [] },
    });
    expect(TargetReply.parse(off.json()).data.target.filters?.meters_included).toEqual([]);
  });

  it('checks a partial range against the stored one, and a name in use is a conflict', async () => {
    const r = await runner();
    const [first] = await listTargets(r.cookie);
    const url = `/api/spotify/targets/${first!.target_id}`;
    const res = await call('PATCH', url, r.cookie, { min_bpm: 165 }); // stored max is 160
    expect(res.statusCode).toBe(400);
    expect(errorOf(res).message).toMatch(/below the highest/);
    const taken = await call('PATCH', url, r.cookie, { name: 'Pacebeat 170–180 BPM' });
    expect(taken.statusCode).toBe(409);
    expect(errorOf(taken).code).toBe('TargetNameTaken');
    expect((await call('PATCH', '/api/spotify/targets/not-a-uuid', r.cookie, { name: 'x' })).statusCode).toBe(
      400,
    );
  });

  it('40 simultaneous adds leave at most 12 live targets (the cap holds under concurrency)', async () => {
    const r = await runner();
    const replies = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        call('POST', '/api/spotify/targets', r.cookie, {
          name: `Pace ${i}`,
          min_bpm: 150 + i,
          max_bpm: 160 + i,
        }),
      ),
    );
    const codes = replies.map((x) => x.statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(12 - 4); // the 4 defaults are live already
    // The others: 409 at the cap, or 429 past the 30 changes an hour (30 of the 40 race for the 8 places).
    expect(codes.filter((c) => c === 409)).toHaveLength(30 - 8);
    expect(codes.filter((c) => c === 429)).toHaveLength(10);
    expect(await listTargets(r.cookie)).toHaveLength(12);
  });

  it('a runner changing targets in a loop is stopped at 30 changes an hour, and other runners are not', async () => {
    const [looping, other] = [await runner(), await runner()];
    const [first] = await listTargets(looping.cookie);
    const url = `/api/spotify/targets/${first!.target_id}`;
    const codes: number[] = [];
    for (let i = 0; i < 31; i++)
      codes.push((await call('PATCH', url, looping.cookie, { name: `Loop ${i}` })).statusCode);
    expect(codes.slice(0, 30).every((c) => c === 200)).toBe(true);
    expect(codes[30]).toBe(429);
    const refused = await call('POST', '/api/spotify/targets', looping.cookie, {
      min_bpm: 120,
      max_bpm: 130,
    });
    expect(refused.statusCode).toBe(429);
    expect(errorOf(refused).message).toMatch(/30 changes to your paces within 60 minutes/);
    const [theirs] = await listTargets(other.cookie);
    expect(
      (await call('PATCH', `/api/spotify/targets/${theirs!.target_id}`, other.cookie, { name: 'Mine' }))
        .statusCode,
    ).toBe(200);
    // Refresh has a limit of its own: 12 an hour.
    const refreshes: number[] = [];
    for (let i = 0; i < 13; i++)
      refreshes.push((await call('POST', '/api/spotify/refresh', looping.cookie, {})).statusCode);
    expect(refreshes.slice(0, 12).every((c) => c === 200)).toBe(true);
    expect(refreshes[12]).toBe(429);
  });

  it('refuses a BPM range narrower than 1 BPM, new or edited, with a plain sentence', async () => {
    const r = await runner();
    const [first] = await listTargets(r.cookie); // 150–160
    const url = `/api/spotify/targets/${first!.target_id}`;
    for (const res of [
      await call('POST', '/api/spotify/targets', r.cookie, { min_bpm: 160, max_bpm: 160.5 }),
      await call('PATCH', url, r.cookie, { min_bpm: 159.2 }),
      await call('PATCH', url, r.cookie, { min_bpm: 100, max_bpm: 100.999 }),
    ]) {
      expect(res.statusCode, res.body).toBe(400);
      expect(errorOf(res).message).toBe(TARGET_TEXTS.rangeTooNarrow);
    }
    expect((await listTargets(r.cookie)).find((t) => t.target_id === first!.target_id)!.bpms).toEqual({
      min: 150,
      max: 160,
    });
    expect((await call('PATCH', url, r.cookie, { min_bpm: 159 })).statusCode).toBe(200);
  });

  it('shows a playlist link only when it leads to https://open.spotify.com/', async () => {
    const r = await runner();
    const [first] = await listTargets(r.cookie);
    for (const [stored, shown] of [
      ['javascript:alert(document.cookie)', null],
      ['https://open.spotify.com.evil.example/playlist/x', null],
      ['http://open.spotify.com/playlist/x', null],
      ['https://open.spotify.com/playlist/abc', 'https://open.spotify.com/playlist/abc'],
    ] as const) {
      await h.db.db.execute(
        sql`update playlist_targets set public_url = ${stored} where id = ${first!.target_id}`,
      );
      const target = (await listTargets(r.cookie)).find((t) => t.target_id === first!.target_id)!;
      expect(target.public_url, stored).toBe(shown);
    }
  });

  it('refuses a lone surrogate in any field with a plain sentence', async () => {
    const r = await runner();
    const [first] = await listTargets(r.cookie);
    const raw = (method: 'POST' | 'PATCH', url: string, json: string) =>
      app.inject({
        method,
        url,
        headers: { cookie: r.cookie, 'content-type': 'application/json' },
        payload: json,
      });
    for (const res of [
      await raw('POST', '/api/spotify/targets', '{"name":"Run \\ud800","min_bpm":100,"max_bpm":110}'),
      await raw('PATCH', `/api/spotify/targets/${first!.target_id}`, '{"name":"\\udfff fast"}'),
      await app.inject({
        method: 'POST',
        url: '/api/signup',
        headers: { 'content-type': 'application/json' },
        payload: '{"email":"x@example.org","name":"Ann \\ud83c","password":"run4fun!"}',
      }),
    ]) {
      expect(res.statusCode, res.body).toBe(400);
      expect(errorOf(res).message).toBe(REQUEST_TEXTS.brokenText);
    }
    // A whole emoji (a surrogate pair) is fine.
    expect(
      (await raw('PATCH', `/api/spotify/targets/${first!.target_id}`, '{"name":"\\ud83c\\udfc3 Run"}'))
        .statusCode,
    ).toBe(200);
  });

  it('another user’s target answers 404, and nothing of it changes', async () => {
    const owner = await runner();
    const other = await runner();
    const [t] = await listTargets(owner.cookie);
    const url = `/api/spotify/targets/${t!.target_id}`;
    expect((await call('PATCH', url, other.cookie, { name: 'Mine now' })).statusCode).toBe(404);
    expect((await call('DELETE', url, other.cookie)).statusCode).toBe(404);
    expect((await call('POST', `${url}/remove_unfitting`, other.cookie, {})).statusCode).toBe(404);
    expect((await listTargets(owner.cookie))[0]).toEqual(t);
  });

  it('needs a session; sudo reads but never writes', async () => {
    expect(
      (await call('POST', '/api/spotify/targets', undefined, { min_bpm: 150, max_bpm: 160 })).statusCode,
    ).toBe(401);
    const admin = await runner(adminEmail, false);
    const r = await runner();
    const [t] = await listTargets(r.cookie);
    const sudo = `?sudo=${encodeURIComponent(r.email)}`;
    expect((await call('GET', `/api/spotify/targets${sudo}`, admin.cookie)).statusCode).toBe(200);
    expect((await call('GET', `/api/spotify/tempo_histogram${sudo}`, admin.cookie)).statusCode).toBe(200);
    for (const res of [
      await call('POST', `/api/spotify/targets${sudo}`, admin.cookie, { min_bpm: 150, max_bpm: 160 }),
      await call('PATCH', `/api/spotify/targets/${t!.target_id}${sudo}`, admin.cookie, { name: 'x' }),
      await call('DELETE', `/api/spotify/targets/${t!.target_id}${sudo}`, admin.cookie),
      await call('POST', `/api/spotify/targets/${t!.target_id}/remove_unfitting${sudo}`, admin.cookie, {}),
      await call('POST', `/api/spotify/refresh${sudo}`, admin.cookie, {}),
    ]) {
      expect(res.statusCode, res.body).toBe(403);
      expect(errorOf(res).code).toBe('SudoReadOnly');
    }
    expect(await listTargets(r.cookie)).toHaveLength(4);
  });
});

describe('refresh now', () => {
  it('queues a rescan of everything or of one source, and says when it runs while the budget is spent', async () => {
    const r = await runner();
    await h.drain(p, r.userId);
    const wakes = () => h.wakes.filter((w) => w.userId === r.userId).length;
    const before = wakes();
    const one = await call('POST', '/api/spotify/refresh', r.cookie, {
      kind: 'liked_songs',
      source_id: 'liked_songs',
    });
    expect(one.statusCode, one.body).toBe(200);
    expect(RefreshReply.parse(one.json()).data).toMatchObject({
      queued: true,
      message: 'Queued: the rescan starts now.',
    });
    expect(wakes()).toBe(before + 1);

    pausedUntil = new Date(Date.now() + 13 * 3600_000);
    try {
      const all = RefreshReply.parse((await call('POST', '/api/spotify/refresh', r.cookie, {})).json()).data;
      expect(all.runs_at).toBe(Math.ceil(pausedUntil.getTime() / 1000));
      expect(all.message).toContain(all.runs_at_str);
      expect(all.message).toMatch(/limit on Pacebeat's calls is reached/);
    } finally {
      pausedUntil = null;
    }
    const none = await call('POST', '/api/spotify/refresh', r.cookie, {
      kind: 'playlist',
      source_id: 'nope',
    });
    expect(none.statusCode).toBe(404);
    const half = await call('POST', '/api/spotify/refresh', r.cookie, { kind: 'playlist' });
    expect(half.statusCode).toBe(400);
  });
});

describe('the tempo chart', () => {
  it('counts the user’s songs per BPM, folded into the running octave, leaving out untrusted tempos', async () => {
    const r = await runner();
    await h.drain(p, r.userId);
    const songs = await p.library.listMatchCandidates(r.userId);
    expect(songs.length).toBeGreaterThanOrEqual(4);
    const bpms = [85, 170.4, 340, 128];
    const tempo = createTempoRepository(h.db.db);
    await tempo.save(
      songs.slice(0, 5).map((s, i) => ({
        key: s.recordingKey,
        isrc: null,
        spotifyId: s.trackId,
        bpm: i < 4 ? bpms[i]! : 150,
        source: 'reccobeats',
        confidence: i < 4 ? 0.85 : 0.5, // the fifth is too uncertain to place
        alternatives: [],
        reason: null,
        retryAt: null,
        resolvedAt: new Date(),
      })),
    );
    const res = await call('GET', '/api/spotify/tempo_histogram', r.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const data = TempoHistogramReply.parse(res.json()).data;
    expect(data.fold).toEqual({ min: 110, max: 220 });
    expect(data.bins).toEqual([
      { bpm: 128, tracks: 1 },
      { bpm: 170, tracks: 3 },
    ]);
    expect(data.tracks_with_tempo).toBe(4);
    expect(data.tracks_without_tempo).toBe(new Set(songs.map((s) => s.recordingKey)).size - 4);
  });
});
