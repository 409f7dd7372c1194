// The choices routes through app.inject with the real accounts module and repositories: sessions, CSRF,
// 400s for every bad input, 404 for another user's target, sudo reads but never writes, paging of the
// placed list, and the waiting and skipped lists as the writer's rules make them.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpThroughApi } from '../../test/accounts-app.ts';
import {
  ErrorReply,
  ExclusionsReply,
  MeterCorrectionReply,
  TargetTracksReply,
  TempoCorrectionReply,
  type Meter,
} from '@pacebeat/contract';
import { eq } from 'drizzle-orm';
import { playlistTargets } from '../db/playlists.schema.ts';
import type { buildApp } from '../app/http-app.ts';
import { testDb } from '../../test/db.ts';
import type { MatchCandidate } from '../playlists/candidates.ts';
import { choicesApp } from '../../test/choices-app.ts';
import { candidatesOf, choicesFixtures, type SeededTrack } from './choices.test-helper.ts';
import type { AddedPair } from './track-lists.repository.ts';

const handle = testDb();
const fx = choicesFixtures(handle.db);
const adminEmail = `admin-${randomUUID()}@example.org`;
/** Each user's library, as the library module would list it. */
const libraries = new Map<string, MatchCandidate[]>();
const removals: AddedPair[][] = [];
let app: Awaited<ReturnType<typeof buildApp>>;

beforeAll(async () => {
  app = await choicesApp(handle.db, fx, {
    env: { ADMIN_EMAILS: adminEmail },
    listMatchCandidates: async (userId) => libraries.get(userId) ?? [],
    removeFromTargets: async (_userId, r) => {
      removals.push(r);
      return r.length;
    },
  });
});
afterAll(async () => {
  await app.close();
  await handle.close();
});

const signUp = (email?: string) => signUpThroughApi(app, { email, verified: email === adminEmail });

/** A runner with targets, an artist, and a library whose tracks are given by tempo. */
async function runner(o: { email?: string } = {}) {
  const u = await signUp(o.email);
  const ids = await fx.targets(u.userId);
  const artist = await fx.artist('Stride & <Co>');
  const tracks: SeededTrack[] = [];
  const add = async (bpm: number | null, confidence?: number, meter?: Meter) => {
    const t = await fx.track({ of: u.userId, artists: [artist], bpm, confidence, meter });
    tracks.push(t);
    libraries.set(u.userId, candidatesOf(tracks));
    return t;
  };
  return { ...u, ids, artist, add };
}

type Method = 'GET' | 'PUT' | 'DELETE';
const call = (cookie: string | undefined, method: Method, url: string, payload?: unknown) =>
  app.inject({ method, url, headers: cookie ? { cookie } : {}, ...(payload ? { payload } : {}) });
const list = (cookie: string, targetId: string, query = '') =>
  call(cookie, 'GET', `/api/spotify/targets/${targetId}/tracks${query}`);

describe('authorisation', () => {
  it('needs a session for every route', async () => {
    const id = randomUUID();
    for (const [method, url, body] of [
      ['GET', `/api/spotify/targets/${id}/tracks`],
      ['PUT', '/api/spotify/tempo_corrections/isrc:ABCDE12345', { bpm: 150 }],
      ['DELETE', '/api/spotify/tempo_corrections/isrc:ABCDE12345'],
      ['PUT', '/api/spotify/meter_corrections/isrc:ABCDE12345', { meter: '4/4' }],
      ['DELETE', '/api/spotify/meter_corrections/isrc:ABCDE12345'],
      ['GET', '/api/spotify/exclusions'],
      ['PUT', '/api/spotify/exclusions/artist/abc', {}],
      ['DELETE', '/api/spotify/exclusions/artist/abc'],
    ] as Array<[Method, string, unknown?]>) {
      const res = await call(undefined, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(401);
      ErrorReply.parse(res.json());
    }
  });

  it('answers 404 for another user’s target and for none, and refuses a cross-site write', async () => {
    const a = await runner();
    const b = await runner();
    expect((await list(b.cookie, a.ids[170]!)).statusCode).toBe(404);
    expect((await list(b.cookie, randomUUID())).statusCode).toBe(404);
    expect((await list(a.cookie, a.ids[170]!)).statusCode).toBe(200);
    const song = await a.add(172);
    const cross = await app.inject({
      method: 'PUT',
      url: `/api/spotify/tempo_corrections/${song.recordingKey}`,
      headers: { cookie: a.cookie, origin: 'https://evil.example' },
      payload: { bpm: 150 },
    });
    expect(cross.statusCode).toBe(403);
  });

  it('another runner’s track or artist answers 404 like an unknown id, to a never-connected account too', async () => {
    const a = await runner();
    const song = await a.add(172);
    const stranger = await signUp(); // never connected: no library at all
    const other = await runner(); // connected, with a library of their own
    await other.add(150);
    const answer = async (cookie: string, method: Method, url: string, body: unknown) => {
      const res = await call(cookie, method, url, body);
      const { error, error_name } = ErrorReply.parse(res.json());
      return { status: res.statusCode, error, error_name };
    };
    const cases: Array<[string, string, unknown]> = [
      [
        `/api/spotify/exclusions/track/${song.recordingKey}`,
        '/api/spotify/exclusions/track/isrc:NOSUCHTRACK1',
        {},
      ],
      [
        `/api/spotify/exclusions/artist/${a.artist}`,
        '/api/spotify/exclusions/artist/NoSuchArtist0000000000',
        {},
      ],
      [
        `/api/spotify/tempo_corrections/${song.recordingKey}`,
        '/api/spotify/tempo_corrections/isrc:NOSUCHTRACK1',
        { bpm: 150 },
      ],
      [
        `/api/spotify/meter_corrections/${song.recordingKey}`,
        '/api/spotify/meter_corrections/isrc:NOSUCHTRACK1',
        { meter: '4/4' },
      ],
    ];
    for (const who of [stranger, other]) {
      for (const [theirs, unknown, body] of cases) {
        const got = await answer(who.cookie, 'PUT', theirs, body);
        expect(got.status, theirs).toBe(404);
        expect(got).toEqual(await answer(who.cookie, 'PUT', unknown, body));
        expect(JSON.stringify(got)).not.toContain('Stride');
      }
    }
    expect((await call(other.cookie, 'GET', '/api/spotify/exclusions')).json()).toMatchObject({
      data: { total: 0 },
    });
    // The owner may.
    for (const [theirs, , body] of cases)
      expect((await call(a.cookie, 'PUT', theirs, body)).statusCode).toBe(200);
  });

  it('sudo: an admin reads another runner’s lists and exclusions; every write is refused', async () => {
    const admin = await signUp(adminEmail);
    const r = await runner();
    const song = await r.add(172);
    await fx.place(r.ids[170]!, [{ ...song, bpm: 172 }]);
    const sudo = `?sudo=${encodeURIComponent(r.email)}`;
    const read = await list(admin.cookie, r.ids[170]!, sudo);
    expect(read.statusCode).toBe(200);
    expect(TargetTracksReply.parse(read.json()).data.tracks.map((t) => t.track_id)).toEqual([song.id]);
    expect((await call(admin.cookie, 'GET', `/api/spotify/exclusions${sudo}`)).statusCode).toBe(200);
    for (const [method, url, body] of [
      ['PUT', `/api/spotify/tempo_corrections/${song.recordingKey}${sudo}`, { bpm: 150 }],
      ['DELETE', `/api/spotify/tempo_corrections/${song.recordingKey}${sudo}`],
      ['PUT', `/api/spotify/meter_corrections/${song.recordingKey}${sudo}`, { meter: '4/4' }],
      ['DELETE', `/api/spotify/meter_corrections/${song.recordingKey}${sudo}`],
      ['PUT', `/api/spotify/exclusions/artist/${r.artist}${sudo}`, {}],
      ['DELETE', `/api/spotify/exclusions/artist/${r.artist}${sudo}`],
    ] as Array<[Method, string, unknown?]>) {
      const res = await call(admin.cookie, method, url, body);
      expect(res.statusCode, `${method} ${url}`).toBe(403);
      expect(ErrorReply.parse(res.json()).error.code).toBe('SudoReadOnly');
    }
    const choices = await call(r.cookie, 'GET', '/api/spotify/exclusions');
    expect(ExclusionsReply.parse(choices.json()).data.total).toBe(0);
  });
});

describe('validation', () => {
  it('answers 400 with the envelope for every bad input', async () => {
    const r = await runner();
    const song = await r.add(172);
    const t = r.ids[170]!;
    const bad: Array<[Method, string, unknown?]> = [
      ['GET', '/api/spotify/targets/not-a-uuid/tracks'],
      ['GET', `/api/spotify/targets/${t}/tracks?list=everything`],
      ['GET', `/api/spotify/targets/${t}/tracks?limit=0`],
      ['GET', `/api/spotify/targets/${t}/tracks?limit=500`],
      ['GET', `/api/spotify/targets/${t}/tracks?offset=-1`],
      ['GET', `/api/spotify/targets/${t}/tracks?offset=abc`],
      ['GET', '/api/spotify/exclusions?limit=1000'],
      ['PUT', `/api/spotify/tempo_corrections/${song.recordingKey}`, { bpm: 500 }],
      ['PUT', `/api/spotify/tempo_corrections/${song.recordingKey}`, { bpm: 10 }],
      ['PUT', `/api/spotify/tempo_corrections/${song.recordingKey}`, { bpm: 'fast' }],
      ['PUT', `/api/spotify/tempo_corrections/${song.recordingKey}`, {}],
      ['PUT', `/api/spotify/tempo_corrections/${song.recordingKey}`, { bpm: 150, admin: true }],
      ['PUT', '/api/spotify/tempo_corrections/isrc:lower-case', { bpm: 150 }],
      ['PUT', '/api/spotify/tempo_corrections/whatever', { bpm: 150 }],
      ['PUT', `/api/spotify/meter_corrections/${song.recordingKey}`, { meter: '2/4' }],
      ['PUT', `/api/spotify/meter_corrections/${song.recordingKey}`, { meter: 4 }],
      ['PUT', `/api/spotify/meter_corrections/${song.recordingKey}`, {}],
      ['PUT', `/api/spotify/meter_corrections/${song.recordingKey}`, { meter: '4/4', bpm: 150 }],
      [
        'PUT',
        `/api/spotify/meter_corrections/${song.recordingKey}`,
        { meter: '4/4', remove_from_old_targets: 1 },
      ],
      ['PUT', '/api/spotify/meter_corrections/whatever', { meter: '4/4' }],
      ['PUT', '/api/spotify/exclusions/album/abc', {}],
      ['PUT', `/api/spotify/exclusions/artist/${song.recordingKey}`, {}],
      ['PUT', '/api/spotify/exclusions/track/not-a-key', {}],
      ['PUT', `/api/spotify/exclusions/artist/${r.artist}`, { remove_from_targets: 'yes' }],
    ];
    for (const [method, url, body] of bad) {
      const res = await call(r.cookie, method, url, body);
      expect(res.statusCode, `${method} ${url} ${JSON.stringify(body)}`).toBe(400);
      expect(ErrorReply.parse(res.json()).error.code).toBe('ValidationError');
    }
  });
});

describe('a target’s lists', () => {
  it('placed: newest first, paged on the server, with source, fold and the runner’s correction', async () => {
    const r = await runner();
    const songs = [];
    for (let i = 0; i < 12; i++) {
      const s = await r.add(i % 2 ? 172 + (i % 5) : 86, 0.85);
      songs.push(s);
      await fx.place(r.ids[170]!, [{ ...s, bpm: i % 2 ? 172 + (i % 5) : 86 }]);
    }
    const seen: string[] = [];
    let offset: number | null = 0;
    while (offset !== null) {
      const res = await list(r.cookie, r.ids[170]!, `?list=placed&limit=5&offset=${offset}`);
      expect(res.statusCode).toBe(200);
      const body = TargetTracksReply.parse(res.json()).data;
      expect(body.total).toBe(12);
      expect(body.tracks.length).toBeLessThanOrEqual(5);
      seen.push(...body.tracks.map((t) => t.track_id));
      offset = body.next_offset;
    }
    expect(seen).toEqual(songs.map((s) => s.id).reverse()); // newest first, each once

    // A playlist link that does not lead to open.spotify.com is shown as no link.
    await handle.db
      .update(playlistTargets)
      .set({ publicUrl: 'javascript:alert(1)' })
      .where(eq(playlistTargets.id, r.ids[170]!));
    const body = TargetTracksReply.parse((await list(r.cookie, r.ids[170]!, '?limit=2')).json()).data;
    expect(body.target).toMatchObject({
      target: 'Pacebeat 170–180 BPM',
      bpms: { min: 170, max: 180 },
      public_url: null,
    });
    const [newest, next] = body.tracks;
    expect(newest).toMatchObject({
      title: songs[11]!.title,
      artists: [{ id: r.artist, name: 'Stride & <Co>' }],
      bpm: 173,
      source: 'reccobeats',
      confidence: 0.85,
      fold: 'none',
      corrected_bpm: null,
      excluded: null,
    });
    expect(newest!.added_at).toBeGreaterThan(Date.now() / 1000 - 600);
    expect(next).toMatchObject({ bpm: 86, fold: 'double' });
  });

  it('waiting and skipped, by the writer’s rules; a correction and an exclusion move tracks between them', async () => {
    const r = await runner();
    const fits = await r.add(175);
    const half = await r.add(350);
    const shaky = await r.add(176, 0.5);
    const unknown = await r.add(null);
    await r.add(120); // fits no target: in no list of 170–180
    const read = async (which: string) =>
      TargetTracksReply.parse((await list(r.cookie, r.ids[170]!, `?list=${which}`)).json()).data.tracks;

    expect((await read('waiting')).map((t) => [t.track_id, t.fold, t.source])).toEqual([
      [fits.id, 'none', 'reccobeats'],
      [half.id, 'half', 'reccobeats'],
    ]);
    expect((await read('skipped')).map((t) => [t.track_id, t.reason])).toEqual([
      [shaky.id, 'uncertain'],
      [unknown.id, 'unknown_tempo'],
    ]);

    // The runner taps the unknown one in at 88 BPM: it waits for 170–180 (doubled), by their correction.
    const put = await call(r.cookie, 'PUT', `/api/spotify/tempo_corrections/${unknown.recordingKey}`, {
      bpm: 88,
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(TempoCorrectionReply.parse(put.json()).data).toEqual({
      recording_key: unknown.recordingKey,
      bpm: 88,
      removals_requested: 0,
    });
    const waiting = await read('waiting');
    expect(waiting.find((t) => t.track_id === unknown.id)).toMatchObject({
      bpm: 88,
      source: 'correction',
      fold: 'double',
      corrected_bpm: 88,
      resolver_bpm: null,
      confidence: null,
    });
    expect((await read('skipped')).map((t) => t.track_id)).toEqual([shaky.id]);

    // The artist excluded: all of them are skipped as excluded, none waits; restored, they wait again.
    const ex = await call(r.cookie, 'PUT', `/api/spotify/exclusions/artist/${r.artist}`, {});
    expect(ex.statusCode, ex.body).toBe(200);
    expect(await read('waiting')).toEqual([]);
    expect(new Set((await read('skipped')).map((t) => t.reason))).toEqual(new Set(['excluded_artist']));
    const listed = ExclusionsReply.parse((await call(r.cookie, 'GET', '/api/spotify/exclusions')).json());
    expect(listed.data.exclusions).toMatchObject([{ kind: 'artist', key: r.artist, label: 'Stride & <Co>' }]);
    expect((await call(r.cookie, 'DELETE', `/api/spotify/exclusions/artist/${r.artist}`)).statusCode).toBe(
      200,
    );
    expect((await read('waiting')).map((t) => t.track_id)).toEqual([fits.id, half.id, unknown.id]);
    expect((await call(r.cookie, 'DELETE', `/api/spotify/exclusions/artist/${r.artist}`)).statusCode).toBe(
      404,
    );
    // Undoing the correction: unknown again.
    const undo = await call(r.cookie, 'DELETE', `/api/spotify/tempo_corrections/${unknown.recordingKey}`);
    expect(undo.statusCode).toBe(200);
    expect((await read('skipped')).map((t) => t.track_id)).toEqual([shaky.id, unknown.id]);

    // The target leaves explicit tracks out: the explicit one that fits is skipped for it, and does not wait.
    await handle.db
      .update(playlistTargets)
      .set({ noExplicit: true })
      .where(eq(playlistTargets.id, r.ids[170]!));
    libraries.set(
      r.userId,
      libraries.get(r.userId)!.map((c) => (c.trackId === fits.id ? { ...c, explicit: true } : c)),
    );
    expect((await read('waiting')).map((t) => t.track_id)).toEqual([half.id]);
    expect((await read('skipped')).map((t) => [t.track_id, t.reason])).toEqual([
      [fits.id, 'explicit'],
      [shaky.id, 'uncertain'],
      [unknown.id, 'unknown_tempo'],
    ]);
  });

  it('a waltz is skipped for its meter; “this one is in 4/4” makes it wait, undo skips it again', async () => {
    const r = await runner();
    const fits = await r.add(175, 0.9, '4/4');
    const waltz = await r.add(174, 0.9, '3/4');
    const read = async (which: string) =>
      TargetTracksReply.parse((await list(r.cookie, r.ids[170]!, `?list=${which}`)).json()).data.tracks;

    expect((await read('waiting')).map((t) => t.track_id)).toEqual([fits.id]);
    expect((await read('skipped')).map((t) => [t.track_id, t.reason, t.meter, t.corrected_meter])).toEqual([
      [waltz.id, 'meter_3_4', '3/4', null],
    ]);

    const put = await call(r.cookie, 'PUT', `/api/spotify/meter_corrections/${waltz.recordingKey}`, {
      meter: '4/4',
    });
    expect(put.statusCode, put.body).toBe(200);
    expect(MeterCorrectionReply.parse(put.json()).data).toEqual({
      recording_key: waltz.recordingKey,
      meter: '4/4',
      removals_requested: 0,
    });
    expect((await read('waiting')).find((t) => t.track_id === waltz.id)).toMatchObject({
      meter: '4/4',
      corrected_meter: '4/4',
      bpm: 174,
    });
    expect(await read('skipped')).toEqual([]);

    // Placed in 170–180 already and now said to be in 3/4, with removal asked: the port gets the pair.
    await fx.place(r.ids[170]!, [{ ...fits, bpm: 175 }]);
    const before = removals.length;
    const back = await call(r.cookie, 'PUT', `/api/spotify/meter_corrections/${fits.recordingKey}`, {
      meter: '3/4',
      remove_from_old_targets: true,
    });
    expect(MeterCorrectionReply.parse(back.json()).data.removals_requested).toBe(1);
    expect(removals.slice(before)).toEqual([[{ targetId: r.ids[170]!, recordingKey: fits.recordingKey }]]);

    const undo = await call(r.cookie, 'DELETE', `/api/spotify/meter_corrections/${waltz.recordingKey}`);
    expect(undo.statusCode).toBe(200);
    expect((await read('skipped')).map((t) => [t.track_id, t.reason])).toEqual([[waltz.id, 'meter_3_4']]);
    const again = await call(r.cookie, 'DELETE', `/api/spotify/meter_corrections/${waltz.recordingKey}`);
    expect(again.statusCode).toBe(404);
    expect(ErrorReply.parse(again.json()).error_name).toBe('MeterCorrectionNotFound');

    // The target takes 3/4: the waltz waits (by the resolver's meter).
    await handle.db
      .update(playlistTargets)
      .set({ metersIncluded: ['3/4'] })
      .where(eq(playlistTargets.id, r.ids[170]!));
    expect((await read('waiting')).map((t) => t.track_id)).toEqual([waltz.id]);
  });

  it('removal on request goes through the port with the pairs; without it, nothing is asked', async () => {
    const r = await runner();
    const song = await r.add(172);
    await fx.place(r.ids[170]!, [{ ...song, bpm: 172 }]);
    removals.length = 0;
    await call(r.cookie, 'PUT', `/api/spotify/exclusions/track/${song.recordingKey}`, {});
    expect(removals).toEqual([]);
    const res = await call(r.cookie, 'PUT', `/api/spotify/exclusions/track/${song.recordingKey}`, {
      remove_from_targets: true,
    });
    expect(res.json().data.removals_requested).toBe(1);
    expect(removals).toEqual([[{ targetId: r.ids[170], recordingKey: song.recordingKey }]]);
    // Placed but excluded since: the list says so.
    const placed = TargetTracksReply.parse((await list(r.cookie, r.ids[170]!)).json()).data.tracks;
    expect(placed[0]).toMatchObject({ track_id: song.id, excluded: 'track' });
  });
});
