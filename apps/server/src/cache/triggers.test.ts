// The NOTIFY triggers (migration live_cache_notify): each change the caches depend on reaches a listener
// with the right tag, and a batch of target-track rows is one notification per user, not one per row.
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import pg from 'pg';
import { testDb } from '../../test/db.ts';
import { CHANGES_CHANNEL } from './change-feed.ts';

describe('cache invalidation triggers', () => {
  const handle = testDb();
  const sql = (text: string, params: unknown[] = []) => handle.pool.query(text, params);
  let listener: pg.Client;
  const heard: string[] = [];
  /** Runs `write` and answers the notifications it caused that mention `key`. */
  async function notified(key: string, write: () => Promise<unknown>) {
    await listener.query('select 1'); // what earlier writes caused has arrived: not counted here
    heard.length = 0;
    await write();
    await listener.query('select 1'); // notifications committed before this reply have arrived
    return heard.filter((t) => t.endsWith(`:${key}`));
  }

  beforeAll(async () => {
    listener = new pg.Client({ connectionString: inject('databaseUrl') });
    await listener.connect();
    listener.on('notification', (n) => heard.push(n.payload ?? ''));
    await listener.query(`listen ${CHANGES_CHANNEL}`);
  });
  afterAll(async () => {
    await listener.end();
    await handle.close();
  });

  async function newUser() {
    const r = await sql(`insert into users (email, name) values ($1, 'T') returning id`, [
      `t-${randomUUID()}@example.org`,
    ]);
    return r.rows[0].id as string;
  }

  it('users, sessions: updates and deletes (a deletion cascades to its sessions)', async () => {
    const user = await newUser();
    const sid = randomUUID().replace(/-/g, '');
    await sql(`insert into sessions (id, user_id, expires_at) values ($1, $2, now() + interval '1 hour')`, [
      sid,
      user,
    ]);
    expect(await notified(user, () => sql(`update users set is_admin = true where id = $1`, [user]))).toEqual(
      [`user:${user}`],
    );
    // The idle-expiry touch is not a change the caches need.
    expect(
      await notified(sid, () => sql(`update sessions set last_seen_at = now() where id = $1`, [sid])),
    ).toEqual([]);
    expect(await notified(sid, () => sql(`delete from users where id = $1`, [user]))).toEqual([
      `session:${sid}`,
    ]);
    expect(heard).toContain(`user:${user}`);
  });

  it('spotify accounts: connect, disabled mark, disconnect; cooldowns', async () => {
    const user = await newUser();
    const link = () =>
      sql(
        `insert into spotify_accounts (user_id, account_id, spotify_user_id, scopes, refresh_token_enc)
         values ($1, $2, 'me', 's', 'x')`,
        [user, `acc-${user}`],
      );
    expect(await notified(user, link)).toEqual([`spotify:${user}`]);
    expect(
      await notified(user, () =>
        sql(`update spotify_accounts set disabled_reason = 'revoked' where user_id = $1`, [user]),
      ),
    ).toEqual([`spotify:${user}`]);
    expect(
      await notified(user, () => sql(`delete from spotify_accounts where user_id = $1`, [user])),
    ).toEqual([`spotify:${user}`]);
    const key = `budget-${randomUUID()}`;
    expect(
      await notified(key, () =>
        sql(`insert into spotify_cooldowns (budget, kind, until) values ($1, 'rate', now())`, [key]),
      ),
    ).toEqual([`budget:${key}`]);
  });

  it('targets: one notification per statement and user however many track rows change', async () => {
    const user = await newUser();
    const t = await sql(
      `insert into playlist_targets (user_id, min_bpm, max_bpm, name, position) values ($1, 150, 160, 'x', 0)
       returning id`,
      [user],
    );
    const target = t.rows[0].id as string;
    const insertTracks = () =>
      sql(
        `insert into playlist_target_tracks (target_id, recording_key, track_id, state)
         select $1, 'k' || g, 't' || g, 'pending' from generate_series(1, 500) g`,
        [target],
      );
    expect(await notified(user, insertTracks)).toEqual([`targets:${user}`]);
    expect(
      await notified(user, () =>
        sql(`update playlist_target_tracks set state = 'added', added_at = now() where target_id = $1`, [
          target,
        ]),
      ),
    ).toEqual([`targets:${user}`]);
    expect(
      await notified(user, () => sql(`update playlist_targets set name = 'y' where id = $1`, [target])),
    ).toEqual([`targets:${user}`]);
  });

  it('library sources: found, switched, scanned', async () => {
    const user = await newUser();
    await sql(`insert into library_users (user_id, spotify_user_id) values ($1, 'me')`, [user]);
    const add = () =>
      sql(
        `insert into library_sources (user_id, kind, source_id, name) values ($1, 'liked_songs', 'liked', 'Liked')`,
        [user],
      );
    expect(await notified(user, add)).toEqual([`sources:${user}`]);
    expect(
      await notified(user, () =>
        sql(`update library_sources set enabled = false where user_id = $1`, [user]),
      ),
    ).toEqual([`sources:${user}`]);
  });
});
