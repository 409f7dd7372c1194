// The runs API through app.inject with the real accounts module and database: every body validated with a
// sentence per field, another user's run answering 404, sudo reading but never changing, the limits (runs
// per runner, builds an hour), and a build without Spotify kept with a sentence instead of failing.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  ErrorReply,
  RUN_TEXTS,
  RUNS_PER_RUNNER_MAX,
  RunReply,
  RunsReply,
  TARGET_TEXTS,
  runPreset,
} from '@pacebeat/contract';
import { createAccountsModule } from '../accounts/accounts.module.ts';
import { ACTION_LIMITS } from '../accounts/rate-limit.service.ts';
import { loadConfig } from '../app/config.ts';
import { buildApp } from '../app/http-app.ts';
import { testDb } from '../../test/db.ts';
import { signUpThroughApi, testOrigins } from '../../test/accounts-app.ts';
import { createRunsModule } from './runs.module.ts';

let app: Awaited<ReturnType<typeof buildApp>>;
let runs: ReturnType<typeof createRunsModule>;
/** The users whose saved runs told the tempo lookups (onWantedTemposChanged). */
const wantedChanged: string[] = [];
const adminEmail = `admin-${randomUUID()}@example.org`;

beforeAll(async () => {
  const db = testDb();
  const log = pino({ level: 'silent' });
  const config = loadConfig({ ADMIN_EMAILS: adminEmail });
  const accounts = createAccountsModule(db.db, { settings: { ...config, embedded: false }, log });
  runs = createRunsModule(db.db, {
    listMatchCandidates: async () => [],
    tempos: { getByKeys: async () => new Map() },
    runnerChoices: async () => ({
      corrections: new Map(),
      meterCorrections: new Map(),
      excludedRecordings: new Set(),
      excludedArtists: new Set(),
    }),
    artistNames: async () => new Map(),
    accounts: { get: async () => undefined }, // nobody here connected Spotify
    api: () => {
      throw new Error('no Spotify call is made without a connection');
    },
    onWantedTemposChanged: async (userId) => void wantedChanged.push(userId),
  });
  app = await buildApp(
    {
      webDistDir: path.join(os.tmpdir(), 'pacebeat-no-web-build'),
      origins: testOrigins(config),
      checkReady: async () => undefined,
      accounts: { accounts: accounts.accounts, sessions: accounts.sessions },
      runs: { runs: runs.service },
      actionLimits: accounts.limits,
    },
    { loggerInstance: log },
  );
});
afterAll(() => app.close());

const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, cookie?: string, payload?: unknown) =>
  app.inject({
    method,
    url,
    headers: cookie ? { cookie } : {},
    ...(payload === undefined ? {} : { payload: payload as object }),
  });
const errorOf = (res: { json(): unknown }) => ErrorReply.parse(res.json()).error;
const runBody = (name: string, blocks = runPreset('intervals', 165)) => ({ name, blocks });

describe('runs through the API', () => {
  it('saves, reads, edits and deletes a run, with its plan unfolded and its pool counted', async () => {
    const r = await signUpThroughApi(app);
    const made = await call('POST', '/api/spotify/runs', r.cookie, runBody('Tuesday <intervals> & co'));
    expect(made.statusCode, made.body).toBe(200);
    const run = RunReply.parse(made.json()).data.run;
    expect(run).toMatchObject({
      name: 'Tuesday <intervals> & co',
      half_time: true,
      no_explicit: false,
      liked_only: false,
      public_url: null,
      planned_s: 50 * 60,
      build: null,
    });
    expect(run.segments).toHaveLength(14);
    expect(run.segments[1]).toMatchObject({
      label: 'Fast',
      start_s: 600,
      duration_s: 180,
      round: 1,
      pool: 0,
    });
    expect(run.pool_notes[0]).toMatch(/^Only 0 of your songs fit 160–170 BPM/);

    const list = RunsReply.parse((await call('GET', '/api/spotify/runs', r.cookie)).json()).data.runs;
    expect(list).toEqual([
      {
        run_id: run.run_id,
        name: 'Tuesday <intervals> & co',
        planned_s: 3000,
        segments: 14,
        public_url: null,
        built_at: null,
      },
    ]);

    const edit = await call('PUT', `/api/spotify/runs/${run.run_id}`, r.cookie, {
      ...runBody('Easy', runPreset('easy', 170)),
      half_time: false,
    });
    expect(edit.statusCode, edit.body).toBe(200);
    expect(RunReply.parse(edit.json()).data.run).toMatchObject({
      name: 'Easy',
      half_time: false,
      planned_s: 2700,
    });

    expect((await call('DELETE', `/api/spotify/runs/${run.run_id}`, r.cookie)).statusCode).toBe(200);
    expect((await call('GET', `/api/spotify/runs/${run.run_id}`, r.cookie)).statusCode).toBe(404);
  });

  it("gives the tempo lookups every run's segment ranges, a repeat's included", async () => {
    const r = await signUpThroughApi(app);
    // A cadence no other test uses: its ranges are this run's alone.
    const blocks = runPreset('intervals', 141);
    const made = await call('POST', '/api/spotify/runs', r.cookie, runBody('Ranges', blocks));
    expect(made.statusCode, made.body).toBe(200);
    const segments = RunReply.parse(made.json()).data.run.segments;
    const expected = new Set(segments.map((x) => `${x.min_bpm}-${x.max_bpm}`));
    expect(expected.size).toBeGreaterThan(1);
    const ranges = (await runs.repo.segmentRanges()).map((x) => `${x.minBpm}-${x.maxBpm}`);
    for (const range of expected) expect(ranges).toContain(range);
    expect(new Set(ranges).size).toBe(ranges.length); // each once
    // Saved and saved again: each time the runner's songs sent to the second look may be wanted.
    const id = RunReply.parse(made.json()).data.run.run_id;
    const edited = await call(
      'PUT',
      `/api/spotify/runs/${id}`,
      r.cookie,
      runBody('Ranges', runPreset('intervals', 143)),
    );
    expect(edited.statusCode, edited.body).toBe(200);
    expect(wantedChanged.filter((u) => u === r.userId)).toHaveLength(2);
  });

  it('refuses bad input with a sentence for each field, never a 500', async () => {
    const r = await signUpThroughApi(app);
    const seg = { kind: 'segment', duration_s: 600, min_bpm: 160, max_bpm: 170, label: 'Easy' };
    const cases: Array<[unknown, string]> = [
      [{ name: 'x', blocks: [{ ...seg, duration_s: 10 }] }, RUN_TEXTS.durationRange],
      [{ name: 'x', blocks: [{ ...seg, min_bpm: 170, max_bpm: 160 }] }, TARGET_TEXTS.rangeOrder],
      [{ name: 'x', blocks: [{ ...seg, max_bpm: 400 }] }, TARGET_TEXTS.bpmTooHigh],
      [{ name: 'x', blocks: [{ ...seg, label: 'a\nb' }] }, RUN_TEXTS.labelControl],
      [{ name: 'x', blocks: [] }, RUN_TEXTS.noBlocks],
      [{ name: '', blocks: [seg] }, TARGET_TEXTS.nameEmpty],
      [{ name: 'x', blocks: [{ kind: 'repeat', times: 1, segments: [seg] }] }, RUN_TEXTS.repeatTimes],
      [
        {
          name: 'x',
          blocks: [
            {
              kind: 'repeat',
              times: 30,
              segments: [1, 2, 3, 4, 5].map(() => ({ ...seg, kind: undefined, duration_s: 60 })),
            },
          ],
        },
        RUN_TEXTS.tooManySegments,
      ],
      [
        {
          name: 'x',
          blocks: [
            { ...seg, duration_s: 3 * 3600 },
            { ...seg, duration_s: 3 * 3600 },
          ],
        },
        RUN_TEXTS.tooLong,
      ],
    ];
    for (const [payload, message] of cases) {
      const res = await call('POST', '/api/spotify/runs', r.cookie, payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(400);
      expect(JSON.stringify(errorOf(res)), JSON.stringify(payload)).toContain(message);
    }
    expect(
      (await call('POST', '/api/spotify/runs', r.cookie, { ...runBody('x'), tempo: 3 })).statusCode,
    ).toBe(400);
    expect((await call('GET', '/api/spotify/runs/not-a-uuid', r.cookie)).statusCode).toBe(400);
    expect(RunsReply.parse((await call('GET', '/api/spotify/runs', r.cookie)).json()).data.runs).toEqual([]);
  });

  it("answers 404 for another runner's run, and 409 for a second run of a name or one too many", async () => {
    const a = await signUpThroughApi(app);
    const b = await signUpThroughApi(app);
    const run = RunReply.parse((await call('POST', '/api/spotify/runs', a.cookie, runBody('Mine'))).json())
      .data.run;
    const url = `/api/spotify/runs/${run.run_id}`;
    expect((await call('GET', url, b.cookie)).statusCode).toBe(404);
    expect((await call('PUT', url, b.cookie, runBody('Theirs'))).statusCode).toBe(404);
    expect((await call('POST', `${url}/build`, b.cookie)).statusCode).toBe(404);
    expect((await call('DELETE', url, b.cookie)).statusCode).toBe(404);
    expect(errorOf(await call('GET', url, b.cookie)).message).toBe(RUN_TEXTS.noSuchRun);

    const same = await call('POST', '/api/spotify/runs', a.cookie, runBody('MINE'));
    expect(same.statusCode).toBe(409);
    expect(errorOf(same).message).toBe(RUN_TEXTS.nameTaken);
    for (let i = 1; i < RUNS_PER_RUNNER_MAX; i++)
      expect((await call('POST', '/api/spotify/runs', a.cookie, runBody(`Run ${i}`))).statusCode).toBe(200);
    const full = await call('POST', '/api/spotify/runs', a.cookie, runBody('One too many'));
    expect(full.statusCode).toBe(409);
    expect(errorOf(full).message).toBe(RUN_TEXTS.tooManyRuns);
  });

  it('keeps a build made without Spotify with a sentence, and counts builds against the hour', async () => {
    const r = await signUpThroughApi(app);
    const run = RunReply.parse((await call('POST', '/api/spotify/runs', r.cookie, runBody('Later'))).json())
      .data.run;
    const noBuild = await call('POST', `/api/spotify/runs/${run.run_id}/send`, r.cookie);
    expect(noBuild.statusCode).toBe(409);
    expect(errorOf(noBuild).message).toBe(RUN_TEXTS.noBuild);
    const built = await call('POST', `/api/spotify/runs/${run.run_id}/build`, r.cookie);
    expect(built.statusCode, built.body).toBe(200);
    expect(RunReply.parse(built.json()).data.run.build).toMatchObject({
      songs: [],
      spotify: {
        state: 'failed',
        message: 'Connect Spotify first: the run is saved here until then.',
        calls: 0,
      },
    });
    // The refused send and the build each took one of the hour's builds.
    const left = ACTION_LIMITS.runs.max - 2;
    for (let i = 0; i < left; i++)
      expect((await call('POST', `/api/spotify/runs/${run.run_id}/build`, r.cookie)).statusCode).toBe(200);
    const over = await call('POST', `/api/spotify/runs/${run.run_id}/build`, r.cookie);
    expect(over.statusCode).toBe(429);
    expect(errorOf(over).message).toContain('run builds');
  });

  it('needs a session; sudo reads but never changes', async () => {
    const r = await signUpThroughApi(app);
    const admin = await signUpThroughApi(app, { email: adminEmail, verified: true });
    const run = RunReply.parse((await call('POST', '/api/spotify/runs', r.cookie, runBody('Watched'))).json())
      .data.run;
    expect((await call('GET', '/api/spotify/runs')).statusCode).toBe(401);
    const sudo = `?sudo=${encodeURIComponent(r.email)}`;
    const read = await call('GET', `/api/spotify/runs${sudo}`, admin.cookie);
    expect(read.statusCode).toBe(200);
    expect(RunsReply.parse(read.json()).data.runs.map((x) => x.name)).toEqual(['Watched']);
    expect((await call('GET', `/api/spotify/runs/${run.run_id}${sudo}`, admin.cookie)).statusCode).toBe(200);
    expect(
      (await call('POST', `/api/spotify/runs${sudo}`, admin.cookie, runBody('Admin’s'))).statusCode,
    ).toBe(403);
    expect(
      (await call('POST', `/api/spotify/runs/${run.run_id}/build${sudo}`, admin.cookie)).statusCode,
    ).toBe(403);
    expect((await call('DELETE', `/api/spotify/runs/${run.run_id}${sudo}`, admin.cookie)).statusCode).toBe(
      403,
    );
  });
});
