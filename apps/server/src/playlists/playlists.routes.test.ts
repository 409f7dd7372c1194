// GET /api/spotify/targets through app.inject, with the real accounts module, Spotify connect and the
// in-process sandbox: auth, 400s, the spec's fields, times in the reader's zone, and sudo reading only.
import { randomUUID } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ErrorReply, TargetsReply } from '@pacebeat/contract';
import { createAccountsModule } from '../accounts/accounts.module.ts';
import { loadConfig } from '../app/config.ts';
import { buildApp } from '../app/http-app.ts';
import { testOrigins, signUpThroughApi } from '../../test/accounts-app.ts';
import { startHarness, type Harness } from '../spotify/sandbox-harness.test-helper.ts';
import { createPlaylistsRepository } from './playlists.repository.ts';
import { createPlaylistsService } from './playlists.service.ts';

let h: Harness;
let app: Awaited<ReturnType<typeof buildApp>>;
const adminEmail = `admin-${randomUUID()}@example.org`;
let repo: ReturnType<typeof createPlaylistsRepository>;
let service: ReturnType<typeof createPlaylistsService>;

beforeAll(async () => {
  h = await startHarness();
  const log = pino({ level: 'silent' });
  const config = loadConfig({ ADMIN_EMAILS: adminEmail });
  const accounts = createAccountsModule(h.db.db, { settings: { ...config, embedded: false }, log });
  repo = createPlaylistsRepository(h.db.db);
  service = createPlaylistsService({ repo });
  // As main.ts wires them: default targets on every connect, forgotten on disconnect.
  const spotify = h.process({
    onConnected: [async (userId) => void (await service.createDefaultTargets(userId))],
    onMusicAccountGone: [(userId) => service.forgetUser(userId)],
  });
  app = await buildApp(
    {
      webDistDir: path.join(os.tmpdir(), 'pacebeat-no-web-build'),
      origins: testOrigins(config),
      checkReady: async () => undefined,
      accounts: { accounts: accounts.accounts, sessions: accounts.sessions },
      spotify: { spotify: spotify.connect, limits: accounts.limits },
      playlists: { playlists: service },
    },
    { loggerInstance: log },
  );
});
afterAll(async () => {
  await app.close();
  await h.close();
});

const signUp = (o: { email?: string; timeZone?: string } = {}) =>
  signUpThroughApi(app, { ...o, verified: o.email === adminEmail });
const targets = (cookie: string | undefined, query = '') =>
  app.inject({ url: `/api/spotify/targets${query}`, headers: cookie ? { cookie } : {} });

/** A user with the default targets, one of them with its playlist made and a finished job. */
async function runnerWithTargets(o: { timeZone?: string } = {}) {
  const u = await signUp(o);
  await service.createDefaultTargets(u.userId);
  const t = (await repo.listTargets(u.userId))[2]!;
  await repo.markCreating(t.id);
  await repo.markActive(t.id, {
    playlistId: 'pl170',
    publicUrl: 'https://open.spotify.com/playlist/pl170',
    snapshotId: 's1',
  });
  await repo.recordPending(t.id, randomUUID(), [{ recordingKey: 'isrc:X1', trackId: 'x1', bpm: 172 }]);
  await repo.setStates(t.id, ['isrc:X1'], 'added');
  await repo.finishJob(u.userId);
  return u;
}

describe('GET /api/spotify/targets', () => {
  it('needs a session, and refuses cross-site requests', async () => {
    const res = await targets(undefined);
    expect(res.statusCode).toBe(401);
    ErrorReply.parse(res.json());
    const u = await signUp();
    const cross = await app.inject({
      url: '/api/spotify/targets',
      headers: { cookie: u.cookie, origin: 'https://evil.example' },
    });
    expect(cross.statusCode).toBe(403);
  });

  it('answers 400 for a malformed query, with the envelope', async () => {
    const u = await signUp();
    for (const q of ['?sudo=', `?sudo=${'x'.repeat(400)}`]) {
      const res = await targets(u.cookie, q);
      expect(res.statusCode, q).toBe(400);
      expect(ErrorReply.parse(res.json()).error.code).toBe('ValidationError');
    }
  });

  it('answers the spec’s fields, with times in the user’s time zone', async () => {
    const u = await runnerWithTargets({ timeZone: 'Asia/Tokyo' });
    const res = await targets(u.cookie);
    expect(res.statusCode).toBe(200);
    const body = TargetsReply.parse(res.json());
    expect(body.data.targets.map((t) => [t.target, t.bpms])).toEqual([
      ['Pacebeat 150–160 BPM', { min: 150, max: 160 }],
      ['Pacebeat 160–170 BPM', { min: 160, max: 170 }],
      ['Pacebeat 170–180 BPM', { min: 170, max: 180 }],
      ['Pacebeat 180–190 BPM', { min: 180, max: 190 }],
    ]);
    const made = body.data.targets[2]!;
    expect(Object.keys(made).sort()).toEqual(
      [
        'bpms',
        'filters',
        'public_url',
        'stats',
        'target',
        'target_id',
        'timestamp_last_job_finished',
        'timestamp_last_job_finished_str',
      ].sort(),
    );
    expect(made.public_url).toBe('https://open.spotify.com/playlist/pl170');
    expect(made.stats).toEqual({ tracks_added: 1, tracks_added_7days: 1 });
    const at = new Date(made.timestamp_last_job_finished! * 1000);
    expect(Math.abs(at.getTime() - Date.now())).toBeLessThan(60_000);
    const tokyo = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'Asia/Tokyo',
      hour: '2-digit',
      minute: '2-digit',
    }).format(at);
    expect(made.timestamp_last_job_finished_str).toContain(tokyo);
    const waiting = body.data.targets[0]!;
    expect(waiting.public_url).toBeNull(); // no playlist yet (no match so far)
    expect(waiting.stats).toEqual({ tracks_added: 0, tracks_added_7days: 0 });
  });

  it('connecting makes the four default targets (once, however often), disconnecting forgets them', async () => {
    const u = await signUp();
    const spotifyUser = h.sandbox.admin.createUser({ username: `r${randomUUID().slice(0, 8)}` });
    const connect = () =>
      app.inject({
        method: 'PUT',
        url: '/api/spotify/connect',
        headers: { cookie: u.cookie },
        payload: { token_info: h.sandbox.admin.connect({ userId: spotifyUser.id }) },
      });
    expect((await connect()).statusCode).toBe(200);
    expect((await connect()).statusCode).toBe(200);
    const shown = TargetsReply.parse((await targets(u.cookie)).json()).data.targets;
    expect(shown.map((t) => `${t.bpms.min}-${t.bpms.max}`)).toEqual([
      '150-160',
      '160-170',
      '170-180',
      '180-190',
    ]);
    for (const t of shown)
      expect(t).toMatchObject({
        public_url: null,
        timestamp_last_job_finished: null,
        timestamp_last_job_finished_str: null,
      });
    const off = await app.inject({
      method: 'PUT',
      url: '/api/spotify/disconnect',
      headers: { cookie: u.cookie },
    });
    expect(off.statusCode).toBe(200);
    expect(TargetsReply.parse((await targets(u.cookie)).json()).data.targets).toEqual([]);
    expect(await repo.listTargets(u.userId)).toEqual([]);
  });

  it('a user without targets (not connected) gets an empty list', async () => {
    const u = await signUp();
    expect(TargetsReply.parse((await targets(u.cookie)).json()).data.targets).toEqual([]);
  });

  it('sudo: an admin reads another user’s targets, in the admin’s time zone, and nothing is written', async () => {
    const admin = await signUp({ email: adminEmail, timeZone: 'America/New_York' });
    const runner = await runnerWithTargets({ timeZone: 'Asia/Tokyo' });
    const before = await repo.listTargets(runner.userId);
    const calls = h.sandbox.admin.requests({ service: 'spotify-api' }).length;
    const res = await targets(admin.cookie, `?sudo=${encodeURIComponent(runner.email)}`);
    expect(res.statusCode).toBe(200);
    const body = TargetsReply.parse(res.json());
    expect(body.data.targets.map((t) => t.target_id)).toEqual(before.map((t) => t.id));
    const made = body.data.targets[2]!;
    const ny = new Intl.DateTimeFormat('en-GB', {
      timeZone: 'America/New_York',
      hour: '2-digit',
      minute: '2-digit',
    }).format(new Date(made.timestamp_last_job_finished! * 1000));
    expect(made.timestamp_last_job_finished_str).toContain(ny);
    expect(await repo.listTargets(runner.userId)).toEqual(before);
    expect(h.sandbox.admin.requests({ service: 'spotify-api' }).length).toBe(calls);
    // The admin's own targets are not those; a runner may not use sudo at all.
    expect(TargetsReply.parse((await targets(admin.cookie)).json()).data.targets).toEqual([]);
    const denied = await targets(runner.cookie, `?sudo=${encodeURIComponent(admin.email)}`);
    expect(denied.statusCode).toBe(403);
  });
});
