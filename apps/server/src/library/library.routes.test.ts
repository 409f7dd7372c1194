// GET /api/spotify/sources and POST /api/spotify/source_change through app.inject, on the app as main.ts
// composes it and the in-process sandbox.
import { randomUUID } from 'node:crypto';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signUpThroughApi } from '../../test/accounts-app.ts';
import { ErrorReply, SourceChangeReply, SourcesReply } from '@pacebeat/contract';
import type { buildApp } from '../app/http-app.ts';
import { composedHttpApp } from '../../test/composed-app.ts';
import { startLibraryHarness, type LibraryHarness, type LibraryProcess } from '../../test/library-harness.ts';

let h: LibraryHarness;
let p: LibraryProcess;
let app: Awaited<ReturnType<typeof buildApp>>;
const adminEmail = `admin-${randomUUID()}@example.org`;

beforeAll(async () => {
  h = await startLibraryHarness({ seed: 10_303 });
  p = h.libraryProcess({ config: { ADMIN_EMAILS: adminEmail } });
  app = await composedHttpApp(p.pacebeat, p.config);
});
afterAll(async () => {
  await app.close();
  await h.close();
});

/** A signed-in user (a session cookie), connected to a new simulated Spotify user with a playlist. */
async function runner(email = `r-${randomUUID()}@example.org`, connect = true) {
  const { cookie, userId } = await signUpThroughApi(app, { email, verified: email === adminEmail });
  const spotifyUser = h.spotifyUser({ liked: 12, owned: 1, favouriteArtists: 3 });
  if (connect) {
    const token_info = h.sandbox.admin.connect({ userId: spotifyUser.id });
    const put = await app.inject({
      method: 'PUT',
      url: '/api/spotify/connect',
      headers: { cookie },
      payload: { token_info },
    });
    expect(put.statusCode, put.body).toBe(200);
    // These tests are about the routes: no catalog reading (the sandbox tests cover it).
    for (const kind of ['artist_catalogs', 'followed_artists'] as const)
      await p.library.service.changeSource(
        userId,
        { kind, source_id: kind, enabled: false },
        { timeZone: null },
      );
  }
  return { cookie, email, userId: userId, spotifyUser };
}

const getSources = (cookie: string | undefined, query = '') =>
  app.inject({ url: `/api/spotify/sources${query}`, headers: cookie ? { cookie } : {} });
const change = (cookie: string | undefined, payload: unknown, query = '') =>
  app.inject({
    method: 'POST',
    url: `/api/spotify/source_change${query}`,
    headers: cookie ? { cookie } : {},
    payload: payload as object,
  });

describe('/api/spotify/sources and source_change', () => {
  it('need a session', async () => {
    expect((await getSources(undefined)).statusCode).toBe(401);
    const res = await change(undefined, { kind: 'liked_songs', source_id: 'liked_songs', enabled: false });
    expect(res.statusCode).toBe(401);
    ErrorReply.parse(res.json());
  });

  it('lists the sources with the spec fields, and asks for no rescan right after connect', async () => {
    const r = await runner();
    await h.drain(p, r.userId);
    const wakes = () => h.wakes.filter((w) => w.userId === r.userId && !w.startAfter).length;
    const before = wakes();
    const res = await getSources(r.cookie);
    expect(res.statusCode, res.body).toBe(200);
    const body = SourcesReply.parse(res.json());
    const liked = body.data.sources.find((s) => s.kind === 'liked_songs')!;
    expect(liked).toMatchObject({
      source_id: 'liked_songs',
      name: 'Liked Songs',
      enabled: true,
      can_enable: true,
    });
    expect(liked.stats.known_tracks).toBe(12);
    const playlist = body.data.sources.find((s) => s.kind === 'playlist')!;
    expect(playlist.source_id).toBe(r.spotifyUser.playlists[0]!.id);
    expect(body.data.summary.tracks_known).toBeGreaterThanOrEqual(12);
    // The connect asked for the first scan moments ago: opening the page does not ask again yet.
    expect(wakes()).toBe(before);
  });

  it('opening the page asks for a rescan when the last one is old, and the next polls do not', async () => {
    const r = await runner();
    await h.drain(p, r.userId);
    const wakes = () => h.wakes.filter((w) => w.userId === r.userId && !w.startAfter).length;
    const before = wakes();
    // As if the last rescan was asked for, and read, an hour ago (a library read in the last minutes is
    // not read again).
    await h.db.db.execute(
      sql`update library_users set rescan_requested_at = now() - interval '1 hour', discovered_at = now() - interval '1 hour' where user_id = ${r.userId}`,
    );
    await h.db.db.execute(
      sql`update library_sources set last_finished_at = now() - interval '1 hour' where user_id = ${r.userId}`,
    );
    await getSources(r.cookie);
    expect(wakes()).toBe(before + 1);
    await getSources(r.cookie);
    expect(wakes()).toBe(before + 1);
  });

  it('escapes playlist names in the tooltip', async () => {
    const r = await runner();
    h.sandbox.admin.createPlaylist(r.spotifyUser.id, { name: '<img src=x onerror=alert(1)> & "Run"' });
    await h.drain(p, r.userId);
    const body = SourcesReply.parse((await getSources(r.cookie)).json());
    const s = body.data.sources.find((x) => x.name.startsWith('<img'))!;
    expect(s.front_tooltip).toContain('&lt;img src=x onerror=alert(1)&gt; &amp; &quot;Run&quot;');
    expect(s.front_tooltip).not.toContain('<img');
  });

  it('switches a source off and on; 400 for bad input, 404 for a source that is not yours', async () => {
    const a = await runner();
    const b = await runner();
    await h.drain(p, a.userId);
    await h.drain(p, b.userId);
    const off = await change(a.cookie, { kind: 'liked_songs', source_id: 'liked_songs', enabled: false });
    expect(off.statusCode, off.body).toBe(200);
    expect(SourceChangeReply.parse(off.json()).data.source).toMatchObject({
      kind: 'liked_songs',
      enabled: false,
    });
    expect((await p.library.listMatchCandidates(a.userId)).some((c) => c.fromLikedSongs)).toBe(false);
    const on = await change(a.cookie, { kind: 'liked_songs', source_id: 'liked_songs', enabled: true });
    expect(SourceChangeReply.parse(on.json()).data.source.enabled).toBe(true);

    for (const bad of [
      undefined,
      {},
      { kind: 'liked_songs', source_id: 'liked_songs' },
      { kind: 'album', source_id: 'x', enabled: true },
      { kind: 'playlist', source_id: '', enabled: true },
      { kind: 'playlist', source_id: 'x'.repeat(201), enabled: true },
      { kind: 'playlist', source_id: 'abc', enabled: 'yes' },
    ]) {
      const res = await change(a.cookie, bad);
      expect(res.statusCode, JSON.stringify(bad)).toBe(400);
      expect(ErrorReply.parse(res.json()).error.code).toBe('ValidationError');
    }
    // B's playlist is not A's source.
    const bPlaylist = b.spotifyUser.playlists[0]!.id;
    const res = await change(a.cookie, { kind: 'playlist', source_id: bPlaylist, enabled: false });
    expect(res.statusCode).toBe(404);
    expect(ErrorReply.parse(res.json()).error.code).toBe('SourceNotFound');
    const bSources = SourcesReply.parse((await getSources(b.cookie)).json()).data.sources;
    expect(bSources.find((s) => s.source_id === bPlaylist)!.enabled).toBe(true);
  });

  it('refuses to enable a playlist the user only follows (409)', async () => {
    const other = h.spotifyUser({ owned: 1, liked: 3, favouriteArtists: 2 });
    const r = await runner();
    h.sandbox.admin.followPlaylist(r.spotifyUser.id, other.playlists[0]!.id);
    await h.drain(p, r.userId);
    const listed = SourcesReply.parse((await getSources(r.cookie)).json()).data.sources;
    expect(listed.find((s) => s.source_id === other.playlists[0]!.id)).toMatchObject({
      enabled: false,
      can_enable: false,
    });
    const res = await change(r.cookie, {
      kind: 'playlist',
      source_id: other.playlists[0]!.id,
      enabled: true,
    });
    expect(res.statusCode, res.body).toBe(409);
    expect(ErrorReply.parse(res.json()).error.code).toBe('SourceNotReadable');
  });

  it('sudo may read another user’s sources but not switch them, and asks for no rescan', async () => {
    const admin = await runner(adminEmail, false);
    const target = await runner();
    await h.drain(p, target.userId);
    const sudo = `?sudo=${encodeURIComponent(target.email)}`;
    const wakes = h.wakes.length;
    const res = await getSources(admin.cookie, sudo);
    expect(res.statusCode, res.body).toBe(200);
    expect(
      SourcesReply.parse(res.json()).data.sources.find((s) => s.kind === 'liked_songs')!.stats.known_tracks,
    ).toBe(12);
    expect(h.wakes.length).toBe(wakes);
    const sw = await change(
      admin.cookie,
      { kind: 'liked_songs', source_id: 'liked_songs', enabled: false },
      sudo,
    );
    expect(sw.statusCode).toBe(403);
    expect(ErrorReply.parse(sw.json()).error.code).toBe('SudoReadOnly');
    const again = SourcesReply.parse((await getSources(target.cookie)).json()).data.sources;
    expect(again.find((s) => s.kind === 'liked_songs')!.enabled).toBe(true);
    // A user who is not an admin may not use sudo.
    expect((await getSources(target.cookie, `?sudo=${encodeURIComponent(admin.email)}`)).statusCode).toBe(
      403,
    );
  });

  it('a user without Spotify has no sources', async () => {
    const r = await runner(undefined, false);
    const body = SourcesReply.parse((await getSources(r.cookie)).json());
    expect(body.data.sources).toEqual([]);
    expect(body.data.summary).toEqual({ tracks_known: 0, tracks_with_tempo: 0, tracks_without_tempo: 0 });
    const res = await change(r.cookie, { kind: 'liked_songs', source_id: 'liked_songs', enabled: false });
    expect(res.statusCode).toBe(404);
  });
});
